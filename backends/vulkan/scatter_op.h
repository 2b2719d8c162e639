// The scatter family (DirectML SCATTER_ND, ONNX ScatterND and its reductions): output = input,
// then output[indices tuple] = updates slice, or combined with it.
//
// Plan: copy input to output (bit-exact, word moves only), pack indices and updates into
// 32/64-bit words, then scatter_nd.comp in two phases that make duplicate tuples resolve to one
// whole update (the last in row-major order), or scatter_reduce.comp, which meets each element's
// updates in tuple order. Negative indices of signed index types count from the end of their
// dimension; tuples out of range are skipped, so nothing outside the output tensor can be
// written.
#pragma once

#include "base/result.h"
#include "common/family_views.h"
#include "gpu.h"
#include "opcts/backend.h"

namespace opcts::vulkan {

// Query-time checks beyond the descriptor's validity: the reduction's arithmetic on this device
// (support.h), buffer limits.
Result<void> CheckScatterSupport(const Device& device, const abi::Operator& op,
                                 const plugin::ScatterView& view);

Result<void> RunScatter(Gpu& gpu, const abi::Operator& op, const plugin::ScatterView& view,
                        const opcts_binding* bindings);

}  // namespace opcts::vulkan
