// DML_CUMULATIVE_SUMMATION and DML_CUMULATIVE_PRODUCT: the same scan with a different operator
// and a different name for the exclusive flag.
#include "reference/scan.h"

namespace opcts {
namespace {

ReferenceResult Cumulative(const Operation& op, Accumulation kind, const char* exclusive_param) {
  ScanParams params;
  params.op = kind;
  params.axis = static_cast<unsigned>(op.Param("Axis").value_or(0));
  params.reverse = op.Param("AxisDirection").value_or(0) == 1;  // DML_AXIS_DIRECTION_DECREASING
  params.exclusive = op.Param(exclusive_param).value_or(0) != 0;
  const TensorData& input = *op.Tensor("InputTensor");
  const TensorDesc& output = op.Tensor("OutputTensor")->desc;
  return {{ReferenceScan(input, output, "OutputTensor", params)}, std::nullopt, std::nullopt};
}

ReferenceResult CumulativeSummation(const Operation& op) {
  return Cumulative(op, Accumulation::kSum, "HasExclusiveSum");
}
ReferenceResult CumulativeProduct(const Operation& op) {
  return Cumulative(op, Accumulation::kProduct, "HasExclusiveProduct");
}

const ReferenceRegistration kSum("cumulative_summation", CumulativeSummation);
const ReferenceRegistration kProduct("cumulative_product", CumulativeProduct);

}  // namespace
}  // namespace opcts
