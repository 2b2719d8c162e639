#include "conformance/properties/case_gen.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>

namespace opcts {

TensorRecipe FilledWith(const TensorDesc& desc, Values values) {
  TensorRecipe t;
  t.desc = desc;
  t.values = values;
  return t;
}

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

bool HasCaseGen(const OperatorSpec& spec) { return IsScanFamily(spec) || IsScatterFamily(spec); }

rc::Gen<CaseRecipe> CaseGen(const OperatorSpec& spec) {
  if (IsScatterFamily(spec)) return rc::gen::map(ScatterChoicesGen(spec, {}), BuildScatterRecipe);
  if (IsScanFamily(spec)) return rc::gen::map(ScanChoicesGen(spec, {}), BuildScanRecipe);
  throw std::invalid_argument("no case generator for " + spec.name + " (reference kernel " + spec.reference + ")");
}

void showValue(const CaseRecipe& recipe, std::ostream& os) {
  os << recipe.id << " (level " << (recipe.level.empty() ? "none" : recipe.level) << ")";
}

}  // namespace opcts
