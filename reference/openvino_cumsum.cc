// OpenVINO CumSum-3: the axis is an optional runtime scalar input; absent means 0.
#include "reference/scan.h"

namespace opcts {
namespace {

ReferenceResult OpenVINOCumSum(const Operation& op) {
  return ReferenceAxisInputScan(op, {"data", "axis", "output", 0});
}

const ReferenceRegistration kCumSum("openvino_cumsum", OpenVINOCumSum);

}  // namespace
}  // namespace opcts
