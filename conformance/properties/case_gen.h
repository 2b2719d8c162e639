// rapidcheck generators of valid conformance cases, built from the loaded OperatorSpec: a
// support level's table entry (dtype, rank), small shapes, attributes, layouts and value
// classes. Each draws plain "choices" that shrink towards the simplest case (lowest level, the
// table's first dtype, sizes of 1, axis 0, packed, seed 0); Build*Recipe turns them into a
// complete CaseRecipe (id, level, params by the spec's names) that Materialize fills.
//
//   ScanChoices c = *ScanChoicesGen(spec, {});   // inside a property
//   c.exclusive = true;                          // a variant with the same input data
//   Operation op = Materialize(BuildScanRecipe(c));
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "conformance/case.h"
#include "conformance/scatter_form.h"

namespace opcts {

// A TensorRecipe of `desc` filled with `values`, its other fields at their defaults.
TensorRecipe FilledWith(const TensorDesc& desc, Values values = Values::kNone);

// Categorical and structural choices (level, dtype, rank, axis, layout) are drawn uniformly
// whatever rapidcheck's size, so early tests cover the tables too; they shrink towards the first
// option / the minimum (rapidcheck's elementOf does not shrink at all). Sizes and seeds grow
// with rapidcheck's size.
template <typename T>
rc::Gen<T> UniformInRange(T min, T max) {  // [min, max)
  return rc::gen::resize(100, rc::gen::inRange(min, max));
}
template <typename T>
rc::Gen<T> ChoiceOf(std::vector<T> options) {
  const size_t n = options.size();
  return rc::gen::map(UniformInRange<size_t>(0, n), [options = std::move(options)](size_t i) { return options[i]; });
}

// Sizes of `rank` dimensions, each in [1, max_dim], their product at most `budget` (>= 1).
rc::Gen<std::vector<uint32_t>> SmallShapeGen(unsigned rank, uint32_t max_dim, uint64_t budget);

// ---- The scan family (cumulative sum/product, OpenVINO CumSum) ----

struct ScanChoices {
  const OperatorSpec* spec = nullptr;
  DType dtype = DType::kFloat32;
  std::vector<uint32_t> shape;
  int axis = 0;               // as given to the operator: OpenVINO counts negatives from the back
  bool axis_absent = false;   // OpenVINO: the optional axis input left out (axis 0)
  DType axis_dtype = DType::kInt64;
  bool reverse = false, exclusive = false;
  Layout input_layout = Layout::kPacked;   // packed, padded, transposed, broadcast, in-place
  Layout output_layout = Layout::kPacked;  // packed, padded, transposed; in-place with the input
  unsigned broadcast_dim = 0;              // input_layout kBroadcast: the stride-0 dimension
  Values values = Values::kRandomSum;
  uint64_t seed = 0;

  unsigned Axis() const;  // the dimension scanned, in [0, rank)
};

struct ScanGenOptions {
  bool specials = true;          // also kExtremes (integer extremes; NaN, inf, subnormals)
  std::optional<Values> values;  // this value class only (kOnes)
};

bool IsScanFamily(const OperatorSpec& spec);
bool IsProductScan(const OperatorSpec& spec);
// The data input and the output of a scan spec.
std::string ScanInputName(const OperatorSpec& spec);
std::string ScanOutputName(const OperatorSpec& spec);

rc::Gen<ScanChoices> ScanChoicesGen(const OperatorSpec& spec, ScanGenOptions options);
CaseRecipe BuildScanRecipe(const ScanChoices& choices);

// ---- The scatter family (either form, conformance/scatter_form.h) ----

struct ScatterChoices {
  const OperatorSpec* spec = nullptr;
  DType dtype = DType::kFloat32, index_dtype = DType::kUInt32;
  ScatterShapes shapes;  // input, indices and updates; the dimension counts
  int64_t reduction = 0;  // the reduction role's value (0, none, when the operator has none)
  Values index_values = Values::kIndexUnique;
  Layout layout = Layout::kPacked;  // packed, padded, transposed, broadcast (updates), in-place
  unsigned broadcast_dim = 0;
  uint64_t seed = 0;
};

struct ScatterGenOptions {
  bool unique_targets = false;  // only index tuples that name distinct elements
  bool plain_writes = false;    // reduction none only
};

bool IsScatterFamily(const OperatorSpec& spec);

rc::Gen<ScatterChoices> ScatterChoicesGen(const OperatorSpec& spec, ScatterGenOptions options);
CaseRecipe BuildScatterRecipe(const ScatterChoices& choices);

// ---- Any family ----

// A valid case of any operator (specials and every index class included), from its family's
// generator; throws when the family has none (spec/family_hooks.h).
rc::Gen<CaseRecipe> CaseGen(const OperatorSpec& spec);

// How rapidcheck prints them in a counterexample: the case id and its level.
void showValue(const CaseRecipe& recipe, std::ostream& os);
void showValue(const ScanChoices& choices, std::ostream& os);
void showValue(const ScatterChoices& choices, std::ostream& os);

}  // namespace opcts
