#include "conformance/properties/case_gen.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include "spec/family_hooks.h"

namespace opcts {

rc::Gen<std::vector<uint32_t>> SmallShapeGen(unsigned rank, uint32_t max_dim, uint64_t budget) {
  return rc::gen::exec([=] {
    std::vector<uint32_t> sizes;
    uint64_t product = 1;
    for (unsigned d = 0; d < rank; ++d) {
      // Later dimensions get what the earlier ones left of the budget (at least 1).
      const auto most = static_cast<uint32_t>(std::clamp<uint64_t>(budget / product, 1, max_dim));
      sizes.push_back(*rc::gen::inRange(1u, most + 1));
      product *= sizes.back();
    }
    return sizes;
  });
}

namespace {

rc::Gen<CaseRecipe> ScanCaseGen(const OperatorSpec& spec) {
  return rc::gen::map(ScanChoicesGen(spec, {}), BuildScanRecipe);
}
rc::Gen<CaseRecipe> ScatterCaseGen(const OperatorSpec& spec) {
  return rc::gen::map(ScatterChoicesGen(spec, {}), BuildScatterRecipe);
}

using Generator = rc::Gen<CaseRecipe> (*)(const OperatorSpec&);
const FamilyHooks<Generator>& Generators() {
  static const FamilyHooks<Generator> hooks(
      "property-test generator (conformance/properties/case_gen.cc)",
      {{"scan", ScanCaseGen}, {"scatter_nd", ScatterCaseGen}});
  return hooks;
}

}  // namespace

rc::Gen<CaseRecipe> CaseGen(const OperatorSpec& spec) { return Generators().For(spec)(spec); }

void showValue(const CaseRecipe& recipe, std::ostream& os) {
  os << recipe.id << " (level " << (recipe.level.empty() ? "none" : recipe.level) << ")";
}

}  // namespace opcts
