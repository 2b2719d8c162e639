// One component's hook per operator family: the conformance case generator, the property-test
// generator, the fuzz decoder, the bench cases. Each table must cover every family in
// Families(); one that does not throws when it is built (on first use), naming the component and
// the family, so a family added without its generators stops the run instead of yielding fewer
// cases. Each component's tests build its table for every shipped spec.
//
//   const FamilyHooks<Generator>& Generators() {
//     static const FamilyHooks<Generator> hooks("case generator (conformance/case_generator.cc)",
//                                              {{"scan", GenerateScanCases}, ...});
//     return hooks;
//   }
//   Generators().For(spec)(spec, options, out);
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "spec/families.h"
#include "spec/operator_spec.h"

namespace opcts {

template <class Hook>
class FamilyHooks {
 public:
  FamilyHooks(std::string what, std::map<std::string, Hook> hooks)
      : what_(std::move(what)), hooks_(std::move(hooks)) {
    for (const FamilyInfo& family : Families())
      if (!hooks_.count(family.name))
        throw std::logic_error("family '" + std::string(family.name) + "' has no " + what_);
    for (const auto& [name, hook] : hooks_)
      if (FindFamily(name) == nullptr)
        throw std::logic_error(what_ + " names unknown family '" + name + "'");
  }

  const Hook& For(const OperatorSpec& spec) const {
    auto it = hooks_.find(spec.family.name);
    if (it == hooks_.end())
      throw std::invalid_argument(spec.file + ": " + spec.name + " has family '" +
                                  spec.family.name + "', which has no " + what_);
    return it->second;
  }

 private:
  std::string what_;
  std::map<std::string, Hook> hooks_;
};

}  // namespace opcts
