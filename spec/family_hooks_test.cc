// FamilyHooks refuses an incomplete table and names what is missing.
#include "spec/family_hooks.h"

#include <gtest/gtest.h>

namespace opcts {
namespace {

std::map<std::string, int> EveryFamily() {
  std::map<std::string, int> hooks;
  int n = 0;
  for (const std::string& name : FamilyNames()) hooks[name] = ++n;
  return hooks;
}

TEST(FamilyHooks, LooksUpTheSpecsFamily) {
  const FamilyHooks<int> hooks("test hook", EveryFamily());
  OperatorSpec spec;
  spec.family.name = "scatter_nd";
  EXPECT_EQ(hooks.For(spec), EveryFamily().at("scatter_nd"));
}

TEST(FamilyHooks, ATableMissingAFamilyIsAnErrorNamingIt) {
  std::map<std::string, int> hooks = EveryFamily();
  hooks.erase("scan");
  try {
    FamilyHooks<int> table("bench cases (here)", hooks);
    FAIL() << "an incomplete table was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "family 'scan' has no bench cases (here)");
  }
}

TEST(FamilyHooks, AHookForAnUnknownFamilyIsAnError) {
  std::map<std::string, int> hooks = EveryFamily();
  hooks["gather"] = 0;
  EXPECT_THROW(FamilyHooks<int>("test hook", hooks), std::logic_error);
}

TEST(FamilyHooks, ASpecOfAnUnknownFamilyIsAnErrorNamingTheFile) {
  const FamilyHooks<int> hooks("fuzz decoder", EveryFamily());
  OperatorSpec spec;
  spec.name = "X";
  spec.file = "x.yaml";
  spec.family.name = "gather";
  try {
    hooks.For(spec);
    FAIL() << "an unknown family was looked up";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "x.yaml: X has family 'gather', which has no fuzz decoder");
  }
}

}  // namespace
}  // namespace opcts
