#include "conformance/case_generator.h"

#include <cctype>
#include <map>

#include "conformance/constraints.h"
#include "spec/family_hooks.h"

namespace opcts {
namespace {

using Generator = void (*)(const OperatorSpec&, const GenerateOptions&, std::vector<CaseRecipe>&);

// By the spec's family: adding an operator of a known family needs nothing here.
const FamilyHooks<Generator>& Generators() {
  static const FamilyHooks<Generator> hooks(
      "case generator (conformance/case_generator.cc)",
      {{"scan", GenerateScanCases}, {"scatter_nd", GenerateScatterNDCases}});
  return hooks;
}

}  // namespace

std::string OperatorKey(const OperatorSpec& spec) {
  std::string key = spec.name;
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

const SupportLevel& TopSupport(const OperatorSpec& spec) { return spec.support.back(); }

void FinishRecipe(CaseRecipe& recipe, const CaseId& id) {
  recipe.id = id.ToString();
  recipe.seed = StableHash(id.Stem()) ^ (id.seed * 0x9e3779b97f4a7c15ull);
  std::map<std::string, TensorDesc> descs;
  for (const auto& [name, t] : recipe.tensors) descs[name] = t.desc;
  recipe.level = recipe.group == CaseGroup::kValid
                     ? LowestSupportingLevel(*recipe.spec, descs, recipe.params).value_or("")
                     : "";
}

std::vector<CaseRecipe> GenerateCases(const SpecSet& specs, const GenerateOptions& options) {
  std::vector<CaseRecipe> all;
  for (const OperatorSpec& spec : specs.specs) {
    std::vector<CaseRecipe> valid;
    Generators().For(spec)(spec, options, valid);
    std::vector<CaseRecipe> invalid;
    GenerateInvalidCases(spec, valid, invalid);
    all.insert(all.end(), std::make_move_iterator(valid.begin()),
               std::make_move_iterator(valid.end()));
    all.insert(all.end(), std::make_move_iterator(invalid.begin()),
               std::make_move_iterator(invalid.end()));
  }
  return all;
}

}  // namespace opcts
