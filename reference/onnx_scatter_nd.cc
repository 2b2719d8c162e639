// ONNX ScatterND (opset 11, 13, 16, 18): data of rank r, INT64 indices of rank q whose last size
// k addresses data's first k dimensions, updates of shape indices.shape[:-1] ++ data.shape[k:].
// Ranks differ, so the tuples address data's whole shape; `reduction` (opset 16+) combines.
#include "reference/scatter_nd.h"

namespace opcts {
namespace {

ReferenceResult ONNXScatterND(const Operation& op) {
  const TensorData& data = *op.Tensor("data");
  // The spec's enum (none, add, mul, max, min) bounds the value.
  const auto reduction = static_cast<ScatterReduction>(op.Param("reduction").value_or(0));
  return ReferenceScatterND({data, *op.Tensor("indices"), *op.Tensor("updates"),
                             op.Tensor("output")->desc, "output", data.desc.sizes, reduction},
                            op.spec->semantics);
}

const ReferenceRegistration kScatterND("onnx_scatter_nd", ONNXScatterND);

}  // namespace
}  // namespace opcts
