// Scatter-family choices and recipes, in either form: meaningful input dimensions, a tuple
// size and a grid of tuples, the shapes ShapeScatter derives from them, in-range index values
// (negative ones for signed index types where the spec allows them).
#include <algorithm>
#include <stdexcept>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/properties/case_gen.h"
#include "spec/spec_loader.h"

namespace opcts {
namespace {

constexpr uint32_t kMaxDim = 6;
constexpr uint64_t kInputBudget = 240;
constexpr uint32_t kMaxTupleGridDim = 4;
constexpr uint64_t kTupleBudget = 12;

// Whether the spec lets a case of these tensor types write negative coordinates: signed index
// types, at or above the level the semantics name.
bool NegativeIndicesAllowed(const OperatorSpec& spec, const ScatterForm& f, DType dtype,
                            DType index_dtype, unsigned rank) {
  const std::string& from = spec.semantics.negative_indices_from_level;
  if (!IsSignedInt(index_dtype) || from.empty()) return false;
  const std::vector<uint32_t> ones(rank, 1);
  const auto level = LowestSupportingLevel(spec,
                                           {{f.input, PackedDesc(dtype, ones)},
                                            {f.indices, PackedDesc(index_dtype, ones)},
                                            {f.updates, PackedDesc(dtype, ones)},
                                            {f.output, PackedDesc(dtype, ones)}},
                                           {});
  return level && LevelIndex(spec.scheme, *level) >= LevelIndex(spec.scheme, from);
}

}  // namespace

bool IsScatterFamily(const OperatorSpec& spec) { return spec.family.name == "scatter_nd"; }

rc::Gen<ScatterChoices> ScatterChoicesGen(const OperatorSpec& spec, ScatterGenOptions options) {
  return rc::gen::exec([&spec, options] {
    const ScatterForm f = ScatterFormOf(spec);
    ScatterChoices c;
    c.spec = &spec;
    const SupportLevel& table = spec.support[*UniformInRange<size_t>(0, spec.support.size())];
    c.dtype = *ChoiceOf(table.tensors.at(f.input).dtypes);
    c.index_dtype = *ChoiceOf(table.tensors.at(f.indices).dtypes);
    unsigned min_rank = 0, max_rank = kMaxRank;
    for (const auto& [name, support] : table.tensors) {
      min_rank = std::max(min_rank, support.min_rank);
      max_rank = std::min(max_rank, support.max_rank);
    }
    // The DirectML form's common rank, or the ONNX form's input rank.
    const unsigned rank = *UniformInRange(std::max(min_rank, 1u), max_rank + 1);
    const unsigned data_dims = f.HasDimensionCounts() ? *UniformInRange(1u, rank + 1) : rank;
    const unsigned tuple = *UniformInRange(1u, data_dims + 1);
    // The grid's dimensions plus the untouched data dimensions make the updates, which must fit
    // in the common rank (DirectML) or have rank 1 .. 8 (ONNX, where indices have one more).
    const unsigned most_grid = f.HasDimensionCounts()
                                   ? std::min(rank - 1, rank - data_dims + tuple)
                                   : std::min(kMaxRank - 1, kMaxRank - data_dims + tuple);
    const unsigned least_grid = !f.HasDimensionCounts() && tuple == data_dims ? 1 : 0;
    const unsigned grid_dims = *UniformInRange(least_grid, most_grid + 1);
    const std::vector<uint32_t> data = *SmallShapeGen(data_dims, kMaxDim, kInputBudget);

    std::vector<Values> classes = {Values::kIndexUnique};
    if (!options.unique_targets) {
      classes.push_back(Values::kIndexDuplicates);
      const bool negatives = NegativeIndicesAllowed(spec, f, c.dtype, c.index_dtype, rank);
      if (negatives || !IsSignedInt(c.index_dtype)) classes.push_back(Values::kIndexBoundary);
      if (negatives) classes.push_back(Values::kIndexNegative);
    }
    c.index_values = *ChoiceOf(classes);
    if (!f.reduction_param.empty() && !options.plain_writes) {
      // The values the drawn level allows (every value when it lists none).
      const auto listed = table.params.find(f.reduction_param);
      std::vector<int64_t> allowed;
      if (listed != table.params.end())
        allowed = listed->second;
      else
        for (size_t v = 0; v < spec.FindParam(f.reduction_param)->enum_values.size(); ++v)
          allowed.push_back(static_cast<int64_t>(v));
      c.reduction = *ChoiceOf(allowed);
      // Float reductions: half the cases with ±0, ±infinity, NaN and subnormals in their data.
      c.specials = IsFloat(c.dtype) && c.reduction != 0 && *rc::gen::arbitrary<bool>();
    }
    // Unique tuples need no more tuples than there are target positions.
    uint64_t positions = 1;
    for (unsigned d = 0; d < tuple; ++d) positions *= data[d];
    const uint64_t budget = c.index_values == Values::kIndexUnique ? positions : kTupleBudget;
    const std::vector<uint32_t> grid = *SmallShapeGen(grid_dims, kMaxTupleGridDim, budget);
    const auto shapes = ShapeScatter(f, data, grid, tuple, rank);
    if (!shapes)
      throw std::logic_error("scatter generator: no shapes for data " + FormatShape(data) +
                             ", grid " + FormatShape(grid) + ", tuple " + std::to_string(tuple));
    c.shapes = *shapes;

    std::vector<Layout> layouts = {Layout::kPacked, Layout::kPadded, Layout::kTransposed,
                                   Layout::kBroadcast};
    if (spec.semantics.in_place) layouts.push_back(Layout::kInPlace);
    c.layout = *ChoiceOf(layouts);
    if (c.layout == Layout::kBroadcast)
      c.broadcast_dim = *UniformInRange(0u, static_cast<unsigned>(c.shapes.updates.size()));
    c.seed = *rc::gen::arbitrary<uint32_t>();
    return c;
  });
}

void showValue(const ScatterChoices& choices, std::ostream& os) {
  showValue(BuildScatterRecipe(choices), os);
}

}  // namespace opcts
