// OpenVINO CumSum-3: the axis is a runtime scalar input (INT32/INT64, negative counts from the
// back, absent means 0), so an out-of-range axis is only detectable here, with the data.
#include <string>

#include "reference/scan.h"
#include "spec/element.h"

namespace opcts {
namespace {

ReferenceResult OpenVINOCumSum(const Operation& op) {
  const TensorData& data = *op.Tensor("data");
  const int64_t rank = data.desc.rank();
  int64_t axis = 0;
  if (const TensorData* axis_tensor = op.Tensor("axis"))
    axis = BitsToInt64(axis_tensor->desc.dtype,
                       LoadBits(axis_tensor->desc.dtype, axis_tensor->bytes.data()));
  if (axis < -rank || axis >= rank)
    return {{}, "axis " + std::to_string(axis) + " is outside [-" + std::to_string(rank) + ", " +
                    std::to_string(rank - 1) + "]",
            std::nullopt};
  ScanParams params;
  params.op = ScanOp::kSum;
  params.axis = static_cast<unsigned>(axis < 0 ? axis + rank : axis);
  params.exclusive = op.Param("exclusive").value_or(0) != 0;
  params.reverse = op.Param("reverse").value_or(0) != 0;
  return {{ReferenceScan(data, op.Tensor("output")->desc, "output", params)}, std::nullopt, std::nullopt};
}

const ReferenceRegistration kCumSum("openvino_cumsum", OpenVINOCumSum);

}  // namespace
}  // namespace opcts
