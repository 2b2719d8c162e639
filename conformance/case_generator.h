// Derives conformance cases from the specs: for every operator, every entry of its support
// tables (dtype x rank), shapes, attributes, layouts and value classes; cases outside the
// tables (to check clean refusal); and for every constraint, cases that break exactly it.
// Case ids are stable for a given seed.
//
//   std::vector<CaseRecipe> cases = GenerateCases(specs, {.seed = 1});
#pragma once

#include <vector>

#include "conformance/case.h"
#include "conformance/case_id.h"
#include "conformance/layout.h"
#include "conformance/spec_set.h"

namespace opcts {

struct GenerateOptions {
  uint64_t seed = 1;
  bool long_axes = true;  // axes > 4096 and > 65 536 elements
};

std::vector<CaseRecipe> GenerateCases(const SpecSet& specs, const GenerateOptions& options);

// The generator hooks (one per operator family) and the generic invalid-case derivation.
void GenerateScanCases(const OperatorSpec& spec, const GenerateOptions& options,
                       std::vector<CaseRecipe>& out);
void GenerateScatterNDCases(const OperatorSpec& spec, const GenerateOptions& options,
                            std::vector<CaseRecipe>& out);
// From the operator's valid cases, one or two cases per constraint (and per tensor-desc rule)
// that violate exactly that rule.
void GenerateInvalidCases(const OperatorSpec& spec, const std::vector<CaseRecipe>& valid,
                          std::vector<CaseRecipe>& out);

// Which of a scan-family operator's tensors and parameters play the family's roles
// (spec/families.cc), read from its spec's `family.roles`.
struct ScanBinding {
  std::string input, output;
  std::string axis_param;   // "" when the axis is a scalar input tensor
  std::string axis_tensor;  // "" when the axis is a parameter
  std::string reverse_param, exclusive_param;
  bool product;  // running_product accuracy model: the combine is *
};
ScanBinding ScanBindingOf(const OperatorSpec& spec);

// Shared by the hooks.
std::string OperatorKey(const OperatorSpec& spec);  // "dml_cumulative_summation"
// Fills id, data seed (from the id's stem and the run's seed, id.seed) and level of a recipe
// whose other fields are set.
void FinishRecipe(CaseRecipe& recipe, const CaseId& id);
// The union of the support tables: for each tensor, every (dtype, rank) any level admits.
const SupportLevel& TopSupport(const OperatorSpec& spec);

}  // namespace opcts
