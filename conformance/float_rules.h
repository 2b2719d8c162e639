// `--float-rules`: which rules judge float results. `platform` (the default) judges by IEEE 754
// and, where a result fails it, by the platform rules of the operator's spec (spec
// `float_rules:`, e.g. DirectML's FLOAT32 flush-to-zero and truncation); `ieee` by IEEE 754
// alone, the strict tier.
//
//   JudgeTensor(expected, actual, RulesFor(FloatRules::kIeee, *op.spec));   // no rules: IEEE
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "base/name_table.h"
#include "spec/operator_spec.h"

namespace opcts {

enum class FloatRules { kPlatform, kIeee };

// As the command line and the journal header spell them.
inline constexpr std::pair<FloatRules, std::string_view> kFloatRulesNames[] = {
    {FloatRules::kPlatform, "platform"}, {FloatRules::kIeee, "ieee"}};
inline std::string_view FloatRulesName(FloatRules rules) { return NameIn(kFloatRulesNames, rules); }
// nullopt for a name that is neither "platform" nor "ieee".
inline std::optional<FloatRules> FloatRulesNamed(std::string_view name) {
  return ValueNamed(kFloatRulesNames, name);
}

// The rules JudgeTensor applies to `spec`'s outputs: its platform rules, or none.
inline const std::vector<FloatRule>& RulesFor(FloatRules rules, const OperatorSpec& spec) {
  static const std::vector<FloatRule> kIeeeOnly;
  return rules == FloatRules::kPlatform ? spec.float_rules : kIeeeOnly;
}

}  // namespace opcts
