// Test vectors are judged by the rule `opcts run` judges cases with: outside every support
// table a backend may refuse or must be right, so a vector there is checked against the
// reference, and demanding its rejection is an error in the vector.
#include "conformance/vector_check.h"

#include <gtest/gtest.h>

#include "conformance/case_run.h"
#include "conformance/plugin_loader.h"
#include "conformance/spec_set.h"

namespace opcts {
namespace {

// DML_CUMULATIVE_SUMMATION over BFLOAT16, a dtype none of its support tables lists.
TestVector Bfloat16Sum(const std::string& expected) {
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  const Result<TestVector> v = ParseVector(
      R"({"format":"opcts-vector/1","name":"bf16","operator":"DML_CUMULATIVE_SUMMATION",
          "parameters":{"Axis":3},
          "tensors":{"InputTensor":{"dtype":"BFLOAT16","sizes":[1,1,1,3],"data":[1,2,3]},
                     "OutputTensor":{"dtype":"BFLOAT16","sizes":[1,1,1,3]}},
          "expected":)" +
          expected + "}",
      "bf16.json", specs);
  EXPECT_TRUE(v) << v.error().message;
  return *v;
}

PluginLoad Load(const std::string& path) {
  PluginLoad load = LoadPlugin(path, "");
  EXPECT_TRUE(load.ok()) << load.error().message;
  return load;
}

std::string FaultPlugin(const std::string& fault) {
  return std::string(OPCTS_TEST_PLUGIN_DIR) + "/opcts-fault-" + fault + ".so";
}

TEST(VectorCheck, OutsideEveryTableARefusalOrARightAnswerPasses) {
  const TestVector v = Bfloat16Sum(R"({"OutputTensor":[1,3,6]})");
  const VectorCheck check = CheckVectorAgainstReference(v);
  EXPECT_TRUE(check.ok) << check.message;
  EXPECT_EQ(check.message, "valid, outside every support table");

  PluginLoad computes = Load(OPCTS_CPU_REFERENCE);
  const CaseVerdict right = RunVector(**computes, v);
  EXPECT_EQ(right.group, CaseGroup::kUnclaimed);
  EXPECT_EQ(right.outcome.status, Status::kPass) << right.outcome.message;
  EXPECT_TRUE(right.acceptable);

  PluginLoad refuses = Load(FaultPlugin("refuse-all"));
  const CaseVerdict refused = RunVector(**refuses, v);
  EXPECT_EQ(refused.outcome.status, Status::kNotSupported) << refused.outcome.message;
  EXPECT_TRUE(refused.acceptable);

  PluginLoad wrong = Load(FaultPlugin("skip-write"));  // answers OK, writes nothing
  const CaseVerdict unwritten = RunVector(**wrong, v);
  EXPECT_EQ(unwritten.outcome.status, Status::kFail) << unwritten.outcome.message;
  EXPECT_FALSE(unwritten.acceptable);
}

TEST(VectorCheck, DemandingRejectionOutsideEveryTableIsAnErrorInTheVector) {
  const TestVector v = Bfloat16Sum(R"("reject")");
  const VectorCheck check = CheckVectorAgainstReference(v);
  EXPECT_FALSE(check.ok);
  EXPECT_EQ(check.message.rfind("expects rejection, but the operation breaks no rule: outside "
                                "every support table a backend may refuse it or compute it",
                                0),
            0u)
      << check.message;
  // A backend that computes it right is not blamed for it.
  PluginLoad computes = Load(OPCTS_CPU_REFERENCE);
  const CaseVerdict verdict = RunVector(**computes, v);
  EXPECT_EQ(verdict.outcome.status, Status::kPass) << verdict.outcome.message;
  EXPECT_TRUE(verdict.acceptable);
}

TEST(VectorCheck, ARuleBrokenIsRejectedWhateverTheVectorSays) {
  // Axis 4 of a rank-4 tensor breaks the axis range: a vector may say reject, and one that gives
  // outputs instead is wrong; either way a backend must refuse it.
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  for (const char* expected : {R"("reject")", R"({"OutputTensor":[1]})"}) {
    std::string text =
        R"({"format":"opcts-vector/1","name":"axis","operator":"DML_CUMULATIVE_SUMMATION",
            "parameters":{"Axis":4},
            "tensors":{"InputTensor":{"dtype":"FLOAT32","sizes":[1,1,1,1],"data":[1]},
                       "OutputTensor":{"dtype":"FLOAT32","sizes":[1,1,1,1]}},
            "expected":)";
    text.append(expected).append("}");
    const Result<TestVector> v = ParseVector(text, "axis.json", specs);
    ASSERT_TRUE(v) << v.error().message;
    EXPECT_EQ(CheckVectorAgainstReference(*v).ok, v->expect_reject) << expected;
    PluginLoad accepts = Load(FaultPlugin("accept-invalid"));
    const CaseVerdict verdict = RunVector(**accepts, *v);
    EXPECT_EQ(verdict.group, CaseGroup::kInvalid);
    EXPECT_EQ(verdict.outcome.status, Status::kInvalidAccepted) << verdict.outcome.message;
  }
}

}  // namespace
}  // namespace opcts
