#include "conformance/scatter_form.h"

#include "conformance/constraints.h"

namespace opcts {

ScatterForm ScatterFormOf(const OperatorSpec& spec) {
  return {spec.Role("input"),
          spec.Role("indices"),
          spec.Role("updates"),
          spec.Role("output"),
          spec.Role("input_dimension_count"),
          spec.Role("indices_dimension_count"),
          spec.Role("reduction")};
}

std::optional<ScatterShapes> ShapeScatter(const ScatterForm& form,
                                          const std::vector<uint32_t>& data,
                                          const std::vector<uint32_t>& grid, unsigned tuple,
                                          unsigned rank) {
  if (tuple < 1 || tuple > data.size()) return std::nullopt;
  ScatterShapes s;
  s.index_dims.assign(data.begin(), data.begin() + tuple);
  if (!form.HasDimensionCounts()) {
    s.input = data;
    s.indices = grid;
    s.indices.push_back(tuple);
    auto updates = ScatterNDUpdatesSizes(s.input, s.indices);
    if (!updates || s.input.size() > kMaxRank || s.indices.size() > kMaxRank) return std::nullopt;
    s.updates = *updates;
    return s;
  }
  if (data.size() > rank || grid.size() + 1 > rank) return std::nullopt;
  s.input.assign(rank - data.size(), 1);
  s.input.insert(s.input.end(), data.begin(), data.end());
  s.indices.assign(rank - grid.size() - 1, 1);
  s.indices.insert(s.indices.end(), grid.begin(), grid.end());
  s.indices.push_back(tuple);
  const auto input_dims = static_cast<int64_t>(data.size()),
             indices_dims = static_cast<int64_t>(grid.size() + 1);
  auto updates = ScatterNDUpdatesSizes(s.input, s.indices, input_dims, indices_dims);
  if (!updates) return std::nullopt;
  s.updates = *updates;
  s.params = {{form.input_dims_param, input_dims}, {form.indices_dims_param, indices_dims}};
  return s;
}

std::string ReductionName(const OperatorSpec& spec, const ScatterForm& form, int64_t reduction) {
  if (form.reduction_param.empty()) return "";
  return spec.FindParam(form.reduction_param)->enum_values.at(static_cast<size_t>(reduction));
}

Values ScatterDataValues(const std::string& reduction_name) {
  if (reduction_name == "add") return Values::kRandomSum;
  if (reduction_name == "mul") return Values::kRandomProduct;
  return Values::kRandomBits;
}

}  // namespace opcts
