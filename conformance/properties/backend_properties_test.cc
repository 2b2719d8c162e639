// Every property against every built-in backend (the test parameter), for every operator the
// property applies to. rapidcheck draws cases from the spec-built generators and shrinks a
// failure to a minimal case; the failure names the opcts case id, and rapidcheck prints the
// RC_PARAMS reproduce string at exit.
#include <iostream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "conformance/case_generator.h"
#include "conformance/plugin_loader.h"
#include "conformance/properties/case_gen.h"
#include "conformance/properties/properties.h"

namespace opcts {
namespace {

// Every built-in backend and the options it is created with; vulkan where it was built (on
// lavapipe without a GPU), under the validation layer: a message fails the execute.
const std::map<std::string, std::string> kBackends = {{"cpu-reference", ""},
                                                      {"cpu-simd", ""},
#if OPCTS_PROPERTY_VULKAN
                                                      {"vulkan", "validation=1"}
#endif
};

std::vector<std::string> BackendNames() {
  std::vector<std::string> names;
  names.reserve(kBackends.size());
  for (const auto& [name, options] : kBackends) names.push_back(name);
  return names;
}

// Each backend is loaded once per process, from the build's plugin folder.
const PluginLoad& Load(const std::string& name) {
  static std::map<std::string, PluginLoad> loads;
  auto it = loads.find(name);
  if (it == loads.end()) {
    const std::string path = std::string(OPCTS_BUILT_PLUGIN_DIR) + "/opcts-" + name + ".so";
    it = loads.emplace(name, LoadPlugin(path, kBackends.at(name))).first;
  }
  return it->second;
}

using Applies = bool (*)(const OperatorSpec&);
using Property = void (*)(const Backend&, const OperatorSpec&);

class BackendProperty : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(LoadedSpecs().errors.empty()) << LoadedSpecs().errors.front();
    const PluginLoad& load = Load(GetParam());
    if (!load) {
      // A backend that cannot be loaded is skipped, never silently.
      std::cerr << "*** SKIPPING backend " << GetParam() << ": " << load.error().message << "\n";
      GTEST_SKIP() << "backend " << GetParam() << " could not be loaded: " << load.error().message;
    }
    backend_ = PluginBackend(**load);
  }

  // One rapidcheck property per operator the property applies to, with the id
  // "<suite>/<test>/<operator>": the key of RC_PARAMS="reproduce=...".
  void CheckEachOperator(Applies applies, Property property) {
    const testing::TestInfo& test = *testing::UnitTest::GetInstance()->current_test_info();
    int checked = 0;
    for (const OperatorSpec& spec : LoadedSpecs().specs) {
      if (!applies(spec)) continue;
      ++checked;
      rc::detail::TestMetadata metadata;
      metadata.id =
          std::string(test.test_suite_name()) + "/" + test.name() + "/" + OperatorKey(spec);
      metadata.description = metadata.id;
      const rc::detail::TestResult result =
          rc::detail::checkTestable([&] { property(backend_, spec); }, metadata);
      if (!result.is<rc::detail::SuccessResult>()) {
        std::ostringstream message;
        rc::detail::printResultMessage(result, message);
        ADD_FAILURE() << OperatorKey(spec) << " on " << GetParam() << ":\n" << message.str();
      }
    }
    EXPECT_GT(checked, 0) << "no spec in " << DefaultSpecDir()
                          << " has an operator this property applies to";
  }

  Backend backend_;
};

TEST_P(BackendProperty, MatchesReference) {
  CheckEachOperator([](const OperatorSpec&) { return true; }, MatchesReference);
}
TEST_P(BackendProperty, ExclusiveIsShiftedInclusive) {
  CheckEachOperator(IsScanFamily, ExclusiveIsShiftedInclusive);
}
TEST_P(BackendProperty, ReverseIsFlippedForward) {
  CheckEachOperator(IsScanFamily, ReverseIsFlippedForward);
}
TEST_P(BackendProperty, LastInclusiveIsTotal) {
  CheckEachOperator(IsScanFamily, LastInclusiveIsTotal);
}
TEST_P(BackendProperty, ProductOfOnesIsOnes) {
  CheckEachOperator(IsProductScan, ProductOfOnesIsOnes);
}
TEST_P(BackendProperty, ScatterIsIdempotent) {
  CheckEachOperator(IsScatterFamily, ScatterIsIdempotent);
}

std::string TestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(BuiltIn, BackendProperty, testing::ValuesIn(BackendNames()), TestName);

}  // namespace
}  // namespace opcts
