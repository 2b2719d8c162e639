// ONNX CumSum (opset 11, 14): the axis is a required 0-D input, unlike OpenVINO's optional one.
#include <optional>

#include "reference/scan.h"

namespace opcts {
namespace {

ReferenceResult ONNXCumSum(const Operation& op) {
  return ReferenceAxisInputScan(op, {"x", "axis", "y", std::nullopt});
}

const ReferenceRegistration kCumSum("onnx_cumsum", ONNXCumSum);

}  // namespace
}  // namespace opcts
