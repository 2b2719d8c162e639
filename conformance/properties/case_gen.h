// rapidcheck generators of valid conformance cases, built from the loaded OperatorSpec: a
// support level's table entry (dtype, rank), small shapes, attributes, layouts and value
// classes. Each draws plain "choices" (conformance/property_case.h) that shrink towards the
// simplest case (lowest level, the table's first dtype, sizes of 1, axis 0, packed, seed 0);
// Build*Recipe turns them into a complete CaseRecipe (id, level, params by the spec's names)
// that Materialize fills.
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
#include "conformance/property_case.h"
#include "conformance/scatter_form.h"

namespace opcts {

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
  return rc::gen::map(UniformInRange<size_t>(0, n),
                      [options = std::move(options)](size_t i) { return options[i]; });
}

// Sizes of `rank` dimensions, each in [1, max_dim], their product at most `budget` (>= 1).
rc::Gen<std::vector<uint32_t>> SmallShapeGen(unsigned rank, uint32_t max_dim, uint64_t budget);

// ---- The scan family (cumulative sum/product, OpenVINO CumSum) ----

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

// ---- The scatter family (either form, conformance/scatter_form.h) ----

struct ScatterGenOptions {
  bool unique_targets = false;  // only index tuples that name distinct elements
  bool plain_writes = false;    // reduction none only
};

bool IsScatterFamily(const OperatorSpec& spec);

rc::Gen<ScatterChoices> ScatterChoicesGen(const OperatorSpec& spec, ScatterGenOptions options);

// ---- Any family ----

// A valid case of any operator (specials and every index class included), from its family's
// generator; throws when the family has none (spec/family_hooks.h).
rc::Gen<CaseRecipe> CaseGen(const OperatorSpec& spec);

// How rapidcheck prints them in a counterexample: the case id and its level.
void showValue(const CaseRecipe& recipe, std::ostream& os);
void showValue(const ScanChoices& choices, std::ostream& os);
void showValue(const ScatterChoices& choices, std::ostream& os);

}  // namespace opcts
