#include "spec/operator_spec.h"

#include <algorithm>

#include "spec/spec_loader.h"

namespace opcts {

const ParamSpec* OperatorSpec::FindParam(const std::string& n) const {
  for (const ParamSpec& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const TensorSpec* OperatorSpec::FindTensor(const std::string& n) const {
  for (const TensorSpec& t : tensors)
    if (t.name == n) return &t;
  return nullptr;
}

std::string OperatorSpec::Role(const std::string& role) const {
  const auto it = family.roles.find(role);
  return it == family.roles.end() ? "" : it->second;
}

const SupportLevel* OperatorSpec::SupportAt(const std::string& level) const {
  const int wanted = LevelIndex(scheme, level);
  if (wanted < 0) return nullptr;
  const SupportLevel* best = nullptr;
  for (const SupportLevel& s : support)
    if (LevelIndex(scheme, s.level) <= wanted) best = &s;  // `support` ascends
  return best;
}

const PlatformDocument* OperatorSpec::FindPlatformDocument(const std::string& id) const {
  for (const PlatformDocument& d : provenance.platform_documents)
    if (d.id == id) return &d;
  return nullptr;
}

const std::vector<std::string>& DirectMLLevels() {
  static const std::vector<std::string> kLevels = {"1_0", "2_0", "2_1", "3_0", "3_1",
                                                   "4_0", "4_1", "5_0", "5_1", "5_2",
                                                   "6_0", "6_1", "6_2", "6_3", "6_4"};
  return kLevels;
}

int DirectMLLevelIndex(const std::string& level) {
  const auto& levels = DirectMLLevels();
  const auto it = std::find(levels.begin(), levels.end(), level);
  return it == levels.end() ? -1 : static_cast<int>(it - levels.begin());
}

}  // namespace opcts
