#include "torch/scatter_nd.h"

#include <ATen/ATen.h>

namespace opcts::torch_cpu {
namespace {

using IndexTuples = c10::List<c10::optional<at::Tensor>>;

// torch.Tensor.scatter_reduce_'s name for a reduction index_put_ cannot do.
const char* ReduceName(plugin::ScatterReduction reduction) {
  switch (reduction) {
    case plugin::ScatterReduction::kMul:
      return "prod";
    case plugin::ScatterReduction::kMax:
      return "amax";
    default:
      return "amin";
  }
}

// index_put_ has no mul, max or min: scatter_reduce_ does, along one dimension. Each tuple's
// linear position in the leading k dimensions comes from torch's own advanced indexing of an
// arange (so negative indices wrap and out-of-range ones raise exactly as in index_put_); the
// result is then reduced as [positions, slice] rows, every update included with the element.
void ScatterReduce(at::Tensor& result, const IndexTuples& tuples, const at::Tensor& updates,
                   plugin::ScatterReduction reduction) {
  const auto leading = result.sizes().slice(0, tuples.size());
  const at::Tensor positions =
      at::index(at::arange(c10::multiply_integers(leading), at::kLong).view(leading), tuples)
          .reshape({-1, 1});
  const int64_t rows = positions.size(0);
  const int64_t slice = result.numel() / c10::multiply_integers(leading);
  result.view({-1, slice})
      .scatter_reduce_(0, positions.expand({rows, slice}), updates.reshape({rows, slice}),
                       ReduceName(reduction),
                       /*include_self=*/true);
}

}  // namespace

void TorchScatterND(const at::Tensor& input, const at::Tensor& indices, const at::Tensor& updates,
                    const at::Tensor& output, plugin::ScatterReduction reduction) {
  const at::Tensor index = indices.to(at::kLong);
  IndexTuples tuples;
  for (int64_t j = 0; j < index.size(-1); ++j) tuples.push_back(index.select(-1, j));
  at::Tensor result = input.clone(at::MemoryFormat::Contiguous);
  if (reduction == plugin::ScatterReduction::kNone || reduction == plugin::ScatterReduction::kAdd)
    result.index_put_(tuples, updates, /*accumulate=*/reduction == plugin::ScatterReduction::kAdd);
  else
    ScatterReduce(result, tuples, updates, reduction);
  output.copy_(result);
}

}  // namespace opcts::torch_cpu
