// Cumulative sum / product along one axis (DirectML CUMULATIVE_SUMMATION and
// CUMULATIVE_PRODUCT, OpenVINO CumSum-3), for any rank, layout and dtype the device can do.
//
// Plan: pack the input into a row-major buffer of accumulators (strided_copy.comp; float16 and
// bfloat16 widen to float32, 8/16-bit integers to 32-bit words; float32 and bfloat16 to float64
// where the device flushes float32 subnormals that the operator must keep: ComputesInFloat64 in
// support.h), scan it in place, unpack into
// the output's layout. Reading everything before writing anything makes in-place execution
// (output binding == input binding) correct for any pair of layouts.
#pragma once

#include <cstdint>

#include "base/result.h"
#include "common/operator_table.h"
#include "gpu.h"
#include "opcts/backend.h"

namespace opcts::vulkan {

struct ScanProblem {
  const abi::Operator* op;
  const opcts_tensor_desc* input;
  const opcts_tensor_desc* output;
  bool product;
  uint32_t axis;
  bool reverse;
  bool exclusive;
};

// Query-time checks beyond the descriptor's validity: dtype and buffer limits.
Result<void> CheckScanSupport(const Device& device, const abi::Operator& op,
                              const opcts_tensor_desc& input, const opcts_tensor_desc& output);

Result<void> RunScan(Gpu& gpu, const ScanProblem& problem, const opcts_binding& input,
                     const opcts_binding& output);

}  // namespace opcts::vulkan
