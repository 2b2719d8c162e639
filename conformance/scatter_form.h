// The scatter family's two forms (spec/families.cc), for the generators. With the dimension-count
// roles (DirectML) every tensor has one rank, leads with ones, and the counts say which trailing
// dimensions are meaningful; without them (ONNX) each tensor has its natural rank.
//
//   const ScatterForm form = ScatterFormOf(spec);
//   auto shapes = ShapeScatter(form, /*data=*/{4, 3}, /*grid=*/{2}, /*tuple=*/1, /*rank=*/4);
//   // DirectML: input [1,1,4,3], indices [1,1,2,1], updates [1,1,2,3], counts 2 and 2
//   // ONNX:     input [4,3], indices [2,1], updates [2,3]
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "spec/operator_spec.h"

namespace opcts {

struct ScatterForm {
  std::string input, indices, updates, output;
  std::string input_dims_param, indices_dims_param;  // "" in the ONNX form
  std::string reduction_param;                       // "" when the operator has no reduction

  bool HasDimensionCounts() const { return !input_dims_param.empty(); }
};
ScatterForm ScatterFormOf(const OperatorSpec& spec);

struct ScatterShapes {
  std::vector<uint32_t> input, indices, updates;
  std::map<std::string, int64_t> params;  // the dimension counts (DirectML form)
  std::vector<uint32_t> index_dims;       // the sizes the tuple coordinates address
};

// `data`: the input's meaningful dimensions; `grid`: the shape of the grid of index tuples;
// `tuple`: coordinates per tuple (1 .. data.size()); `rank`: the common rank of the DirectML
// form (ignored by the ONNX form). nullopt when the shapes do not fit (a rank above `rank` or
// above 8, or rank-0 updates).
std::optional<ScatterShapes> ShapeScatter(const ScatterForm& form,
                                          const std::vector<uint32_t>& data,
                                          const std::vector<uint32_t>& grid, unsigned tuple,
                                          unsigned rank);

// The name of the reduction role's value `reduction` ("add"); "" for an operator without one.
std::string ReductionName(const OperatorSpec& spec, const ScatterForm& form, int64_t reduction);
// What a scatter's input and updates hold under the reduction named: values whose sums ("add")
// or products ("mul") of an element and its updates stay in range; any bits otherwise (NaN,
// infinities, signed zeros for max, min and plain writes).
Values ScatterDataValues(const std::string& reduction_name);

}  // namespace opcts
