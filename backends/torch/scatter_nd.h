// ScatterND computed by torch's kernels: index_put_ for a plain or an adding scatter, and
// scatter_reduce_ over the flattened slices for a multiplying, max or min one.
#pragma once

#include <ATen/core/Tensor.h>

#include "common/family_views.h"

namespace opcts::torch_cpu {

// output = input with the slices at the index tuples replaced (none), added to (add) or reduced
// into (mul, max, min). indices: [..., k], int32 or int64 (widened: index_put_ in torch 1.13 takes
// int64 indices only); updates: indices.shape[:-1] ++ input.shape[k:]. Negative indices count
// from the back, as torch's do. output may alias input: the scatter runs on a copy, copied last.
// Throws c10::IndexError (torch's own message) for an index outside [-size, size), c10::Error
// when torch refuses the dtype.
void TorchScatterND(const at::Tensor& input, const at::Tensor& indices, const at::Tensor& updates,
                    const at::Tensor& output, plugin::ScatterReduction reduction);

}  // namespace opcts::torch_cpu
