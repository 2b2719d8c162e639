// DML_CUMULATIVE_SUMMATION and DML_CUMULATIVE_PRODUCT: the same scan with a different operator
// and a different name for the exclusive flag.
#include "reference/scan.h"

namespace opcts {
namespace {

ReferenceResult Cumulative(const Operation& op, ScanOp scan_op, const char* exclusive_param) {
  ScanParams params;
  params.op = scan_op;
  params.axis = static_cast<unsigned>(op.Param("Axis").value_or(0));
  params.reverse = op.Param("AxisDirection").value_or(0) == 1;  // DML_AXIS_DIRECTION_DECREASING
  params.exclusive = op.Param(exclusive_param).value_or(0) != 0;
  const TensorData& input = *op.Tensor("InputTensor");
  const TensorDesc& output = op.Tensor("OutputTensor")->desc;
  return {{ReferenceScan(input, output, "OutputTensor", params)}, std::nullopt, std::nullopt};
}

ReferenceResult CumulativeSummation(const Operation& op) {
  return Cumulative(op, ScanOp::kSum, "HasExclusiveSum");
}
ReferenceResult CumulativeProduct(const Operation& op) {
  return Cumulative(op, ScanOp::kProduct, "HasExclusiveProduct");
}

const ReferenceRegistration kSum("cumulative_summation", CumulativeSummation);
const ReferenceRegistration kProduct("cumulative_product", CumulativeProduct);

}  // namespace
}  // namespace opcts
