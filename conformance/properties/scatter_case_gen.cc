// Scatter-family choices and recipes: a valid (InputDimensionCount, IndicesDimensionCount,
// tuple size) configuration, UpdatesTensor sizes from ScatterNDUpdatesSizes, in-range index
// values (negative ones for signed index types where the spec allows them).
#include <algorithm>
#include <stdexcept>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/properties/case_gen.h"

namespace opcts {
namespace {

constexpr uint32_t kMaxDim = 6;
constexpr uint64_t kInputBudget = 240;
constexpr uint32_t kMaxTupleGridDim = 4;
constexpr uint64_t kTupleBudget = 12;

const Constraint* UpdatesSizesRule(const OperatorSpec& spec) {
  for (const Constraint& c : spec.constraints)
    if (c.kind == ConstraintKind::kScatterNDUpdatesSizes) return &c;
  return nullptr;
}

std::vector<uint32_t> LeadingOnes(unsigned rank, const std::vector<uint32_t>& meaningful) {
  std::vector<uint32_t> sizes(rank - meaningful.size(), 1);
  sizes.insert(sizes.end(), meaningful.begin(), meaningful.end());
  return sizes;
}

// Whether the spec lets a case of these tensor types write negative coordinates: signed index
// types, at or above the level the semantics name.
bool NegativeIndicesAllowed(const OperatorSpec& spec, const ScatterNames& n, DType dtype,
                            DType index_dtype, unsigned rank) {
  const std::string& from = spec.semantics.negative_indices_from_level;
  if (!IsSignedInt(index_dtype) || from.empty()) return false;
  const std::vector<uint32_t> ones(rank, 1);
  const auto level = LowestSupportingLevel(
      spec, {{n.input, PackedDesc(dtype, ones)}, {n.indices, PackedDesc(index_dtype, ones)},
             {n.updates, PackedDesc(dtype, ones)}, {n.output, PackedDesc(dtype, ones)}});
  return level && DirectMLLevelIndex(*level) >= DirectMLLevelIndex(from);
}

std::string IndexTag(Values v) {
  switch (v) {
    case Values::kIndexBoundary: return "boundary";
    case Values::kIndexNegative: return "negative";
    case Values::kIndexDuplicates: return "duplicates";
    default: return "unique";
  }
}

}  // namespace

bool IsScatterFamily(const OperatorSpec& spec) { return UpdatesSizesRule(spec) != nullptr; }

ScatterNames ScatterTensorNames(const OperatorSpec& spec) {
  const Constraint& rule = *UpdatesSizesRule(spec);
  ScatterNames n{rule.tensors.at(0), rule.tensors.at(1), rule.tensors.at(2), "", rule.params.at(0), rule.params.at(1)};
  for (const TensorSpec& t : spec.tensors)
    if (t.role == TensorRole::kOutput) n.output = t.name;
  return n;
}

rc::Gen<ScatterChoices> ScatterChoicesGen(const OperatorSpec& spec, ScatterGenOptions options) {
  return rc::gen::exec([&spec, options] {
    const ScatterNames n = ScatterTensorNames(spec);
    ScatterChoices c;
    c.spec = &spec;
    const SupportLevel& table = spec.support[*UniformInRange<size_t>(0, spec.support.size())];
    c.dtype = *ChoiceOf(table.tensors.at(n.input).dtypes);
    c.index_dtype = *ChoiceOf(table.tensors.at(n.indices).dtypes);
    unsigned min_rank = 0, max_rank = kMaxRank;
    for (const auto& [name, support] : table.tensors) {
      min_rank = std::max(min_rank, support.min_rank);
      max_rank = std::min(max_rank, support.max_rank);
    }
    const unsigned rank = *UniformInRange(min_rank, max_rank + 1);
    c.input_dims = *UniformInRange(1u, rank + 1);
    const unsigned tuple = *UniformInRange(1u, c.input_dims + 1);
    // Updates have (IndicesDimensionCount - 1) + (InputDimensionCount - tuple) meaningful
    // dimensions, which must fit in the rank.
    c.indices_dims = *UniformInRange(1u, std::min(rank, rank + 1 - c.input_dims + tuple) + 1);
    c.input_shape = LeadingOnes(rank, *SmallShapeGen(c.input_dims, kMaxDim, kInputBudget));

    std::vector<Values> classes = {Values::kIndexUnique};
    if (!options.unique_targets) {
      classes.push_back(Values::kIndexDuplicates);
      const bool negatives = NegativeIndicesAllowed(spec, n, c.dtype, c.index_dtype, rank);
      if (negatives || !IsSignedInt(c.index_dtype)) classes.push_back(Values::kIndexBoundary);
      if (negatives) classes.push_back(Values::kIndexNegative);
    }
    c.index_values = *ChoiceOf(classes);
    // Unique tuples need no more tuples than there are target positions.
    uint64_t positions = 1;
    for (unsigned d = 0; d < tuple; ++d) positions *= c.input_shape[rank - c.input_dims + d];
    const uint64_t budget = c.index_values == Values::kIndexUnique ? positions : kTupleBudget;
    std::vector<uint32_t> grid = *SmallShapeGen(c.indices_dims - 1, kMaxTupleGridDim, budget);
    grid.push_back(tuple);
    c.indices_shape = LeadingOnes(rank, grid);

    std::vector<std::string> layouts = {"packed", "padded", "transposed", "broadcast"};
    if (spec.semantics.in_place) layouts.push_back("in-place");
    c.layout = *ChoiceOf(layouts);
    if (c.layout == "broadcast") c.broadcast_dim = *UniformInRange(0u, rank);
    c.seed = *rc::gen::arbitrary<uint32_t>();
    return c;
  });
}

CaseRecipe BuildScatterRecipe(const ScatterChoices& c) {
  const OperatorSpec& spec = *c.spec;
  const ScatterNames n = ScatterTensorNames(spec);
  const unsigned rank = static_cast<unsigned>(c.input_shape.size());
  const auto updates = ScatterNDUpdatesSizes(c.input_shape, c.indices_shape, c.input_dims, c.indices_dims);
  if (!updates)
    throw std::logic_error("scatter generator: no UpdatesTensor sizes for input " + FormatShape(c.input_shape) +
                           ", indices " + FormatShape(c.indices_shape));
  const unsigned first = rank - c.input_dims;
  const std::vector<uint32_t> index_dims(c.input_shape.begin() + first,
                                         c.input_shape.begin() + first + c.indices_shape.back());
  const bool padded = c.layout == "padded";

  CaseRecipe r;
  r.spec = &spec;
  r.group = "valid";
  r.dtype = c.dtype;
  r.shape = c.input_shape;
  r.layout = c.layout == "broadcast" ? "broadcast" + std::to_string(c.broadcast_dim) : c.layout;
  r.value_tag = IndexTag(c.index_values);
  r.seed = c.seed;
  r.in_place = c.layout == "in-place";
  r.params = {{n.input_dims, c.input_dims}, {n.indices_dims, c.indices_dims}};
  const std::string input_layout = padded || c.layout == "transposed" ? c.layout : "packed";
  r.tensors[n.input] = FilledWith(LayoutDesc(c.dtype, c.input_shape, input_layout), Values::kRandomBits);
  r.tensors[n.indices] = FilledWith(LayoutDesc(c.index_dtype, c.indices_shape, padded ? "padded" : "packed"),
                                    c.index_values);
  r.tensors[n.indices].index_dims = index_dims;
  r.tensors[n.updates] = FilledWith(
      LayoutDesc(c.dtype, *updates, c.layout == "broadcast" ? "broadcast" : "packed", c.broadcast_dim),
      Values::kRandomBits);
  r.tensors[n.output] = FilledWith(LayoutDesc(c.dtype, c.input_shape, padded ? "padded" : "packed"));

  r.id = OperatorKey(spec) + ".prop." + std::string(DTypeShortName(c.dtype)) + ".rank" + std::to_string(rank) +
         "." + FormatShape(c.input_shape) + ".in" + std::to_string(c.input_dims) + "-idx" +
         std::to_string(c.indices_dims) + "-" + FormatShape(c.indices_shape) + "-" +
         std::string(DTypeShortName(c.index_dtype)) + "." + r.layout + "." + r.value_tag + ".s" +
         std::to_string(c.seed);
  std::map<std::string, TensorDesc> descs;
  for (const auto& [name, t] : r.tensors) descs[name] = t.desc;
  r.level = LowestSupportingLevel(spec, descs).value_or("");
  return r;
}

void showValue(const ScatterChoices& choices, std::ostream& os) { showValue(BuildScatterRecipe(choices), os); }

}  // namespace opcts
