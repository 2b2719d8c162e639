// DML_SCATTER_ND: every tensor has one rank; InputDimensionCount says how many trailing
// dimensions of InputTensor are meaningful (the rest are leading ones), and there is no
// reduction.
#include <cstddef>
#include <vector>

#include "reference/scatter_nd.h"

namespace opcts {
namespace {

ReferenceResult DmlScatterND(const Operation& op) {
  const TensorData& input = *op.Tensor("InputTensor");
  const std::vector<uint32_t>& sizes = input.desc.sizes;
  const auto input_dims =
      static_cast<std::ptrdiff_t>(op.Param("InputDimensionCount").value_or(sizes.size()));
  return ReferenceScatterND(
      {input, *op.Tensor("IndicesTensor"), *op.Tensor("UpdatesTensor"),
       op.Tensor("OutputTensor")->desc, "OutputTensor",
       std::vector<uint32_t>(sizes.end() - input_dims, sizes.end()), ScatterReduction::kNone},
      op.spec->semantics);
}

const ReferenceRegistration kScatterND("scatter_nd", DmlScatterND);

}  // namespace
}  // namespace opcts
