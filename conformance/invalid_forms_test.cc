// The invalid forms below the Operation (AbiFault) reach a backend as their names say: the
// cpu-reference backend's own rejection message names the broken field, and a backend that
// accepts everything is caught executing each one.
#include <map>

#include <gtest/gtest.h>

#include "conformance/case_filter.h"
#include "conformance/case_run.h"
#include "conformance/plugin_loader.h"
#include "conformance/spec_set.h"

namespace opcts {
namespace {

// What cpu-reference (backends/common/plugin_support.cc) answers each form of a
// DML_CUMULATIVE_SUMMATION case with; the binding size itself depends on the base case.
const std::map<std::string, std::string> kRejections = {
    {"tensor-desc-null", "query answered INVALID: InputTensor is null"},
    {"data-type-zero", "query answered INVALID: InputTensor.DataType 0 is not a known data type"},
    {"data-type-past-last",
     "query answered INVALID: InputTensor.DataType 13 is not a known data type"},
    {"binding-count-below", "execute answered INVALID: binding_count 1 is not 2"},
    {"binding-count-above", "execute answered INVALID: binding_count 3 is not 2"},
    {"binding-size-mismatch", "execute answered INVALID: bindings[0] (InputTensor).size_in_bytes "},
};

class InvalidFormsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir()));
    CaseFilter filter;
    filter.ops = {"dml_cumulative_summation"};
    for (const CaseRecipe& c : SelectCases(*specs_, 1, filter))
      if (c.abi_fault != AbiFault::kNone) cases_[c.violates] = c;
  }
  static void TearDownTestSuite() { delete specs_; }

  static SpecSet* specs_;
  static std::map<std::string, CaseRecipe> cases_;  // by the form's name
};
SpecSet* InvalidFormsTest::specs_ = nullptr;
std::map<std::string, CaseRecipe> InvalidFormsTest::cases_;

TEST_F(InvalidFormsTest, EachReachesTheBackendAsNamed) {
  PluginLoad load = LoadPlugin(OPCTS_CPU_REFERENCE, "");
  ASSERT_TRUE(load.ok()) << load.error().message;
  ASSERT_EQ(cases_.size(), kRejections.size());
  for (const auto& [form, message] : kRejections) {
    ASSERT_TRUE(cases_.count(form)) << form;
    PreparedCase prepared(cases_.at(form));
    const CaseVerdict v = RunCase(**load, prepared, CaseGroup::kInvalid);
    EXPECT_EQ(v.outcome.status, Status::kInvalidRejected) << form;
    EXPECT_NE(v.outcome.message.find(message), std::string::npos)
        << form << ": " << v.outcome.message;
  }
}

TEST_F(InvalidFormsTest, AcceptingOneIsInvalidAccepted) {
  PluginLoad load =
      LoadPlugin(std::string(OPCTS_TEST_PLUGIN_DIR) + "/opcts-fault-accept-invalid.so", "");
  ASSERT_TRUE(load.ok()) << load.error().message;
  ASSERT_FALSE(cases_.empty());
  for (const auto& [form, recipe] : cases_) {
    PreparedCase prepared(recipe);
    const CaseVerdict v = RunCase(**load, prepared, CaseGroup::kInvalid);
    EXPECT_EQ(v.outcome.status, Status::kInvalidAccepted) << form << ": " << v.outcome.message;
    EXPECT_FALSE(v.acceptable);
  }
}

}  // namespace
}  // namespace opcts
