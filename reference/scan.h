// The scan shared by every cumulative operator: walk each line along `axis`, keep the exact
// running result and the error bound of the accuracy model, emit one expectation per element.
#pragma once

#include <cstdint>
#include <optional>

#include "reference/accumulation.h"
#include "reference/reference.h"

namespace opcts {

struct ScanParams {
  Accumulation op = Accumulation::kSum;
  unsigned axis = 0;
  bool reverse = false;    // traverse by descending index
  bool exclusive = false;  // the current element is not part of its own tally
};

ExpectedTensor ReferenceScan(const TensorData& input, const TensorDesc& output_desc,
                             const std::string& output_name, const ScanParams& params);

// A cumulative sum whose axis is a runtime scalar input (OpenVINO CumSum-3, ONNX CumSum): INT32
// or INT64, negative counts from the back. Its value is known only with the data, so an
// out-of-range axis makes the ReferenceResult invalid. Flags are the bool parameters
// `exclusive` and `reverse`, as both specs name them.
struct AxisInputScanNames {
  const char* data;
  const char* axis;
  const char* output;
  std::optional<int64_t> absent_axis;  // the axis an absent input means; nullopt: required
};

ReferenceResult ReferenceAxisInputScan(const Operation& op, const AxisInputScanNames& names);

}  // namespace opcts
