// The shrinker on deliberately faulty backends: large failing cases shrink to small ones that
// fail the same way, passing and unshrinkable cases are left alone, and the minimal case's test
// vector fails on the backend as the case did.
#include "conformance/shrink.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "conformance/case_generator.h"
#include "conformance/property_case.h"
#include "conformance/scatter_form.h"
#include "conformance/vector_check.h"
#include "spec/element.h"

namespace opcts {
namespace {

std::unique_ptr<Plugin> Load(const std::string& path) {
  PluginLoad load = LoadPlugin(path, "");
  if (!load) ADD_FAILURE() << load.error().message;
  return load ? std::move(load).value() : nullptr;
}

std::unique_ptr<Plugin> Fault(const std::string& fault) {
  return Load(std::string(OPCTS_TEST_PLUGIN_DIR) + "/opcts-fault-" + fault + ".so");
}

// Generous: the search must end at its fixpoint, not by the clock, on a loaded machine too.
ShrinkOptions Unhurried() {
  ShrinkOptions options;
  options.seconds = 120;
  return options;
}

CaseOutcome Outcome(Status status, std::string message) {
  CaseOutcome o;
  o.status = status;
  o.message = std::move(message);
  return o;
}

void Report(const std::string& what, const ShrinkResult& r) {
  std::cout << what << ": " << r.original_size.Elements() << " elements rank "
            << r.original_size.Rank() << " -> " << r.minimal_size.Elements() << " elements rank "
            << r.minimal_size.Rank() << " (" << FormatShape(r.minimal_size.shape) << ") in "
            << r.seconds << " s, " << r.attempts << " attempts, " << r.steps.size() << " steps\n";
}

class ShrinkTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir())); }
  static void TearDownTestSuite() { delete specs_; }

  static const OperatorSpec& Spec(const std::string& name) { return *specs_->Find(name); }

  // A cumulative sum along `axis`, forward and inclusive, padded, of random values.
  static CaseRecipe LargeScan(DType dtype, std::vector<uint32_t> shape, int axis) {
    ScanChoices c;
    c.spec = &Spec("DML_CUMULATIVE_SUMMATION");
    c.dtype = dtype;
    c.shape = std::move(shape);
    c.axis = axis;
    c.input_layout = c.output_layout = Layout::kPadded;
    c.seed = 7;
    return BuildScanRecipe(c);
  }

  static SpecSet* specs_;
};
SpecSet* ShrinkTest::specs_ = nullptr;

TEST_F(ShrinkTest, FlippedFloat16BitShrinksAScanToOneZero) {
  const auto plugin = Fault("flip-bit-f16");
  ASSERT_TRUE(plugin);
  const CaseRecipe large = LargeScan(DType::kFloat16, {4, 8, 4, 32}, 3);
  const ShrinkResult r = Shrink(*plugin, large, Unhurried());
  Report("flip-bit-f16 scan", r);
  ASSERT_TRUE(r.Searched()) << r.refused;
  EXPECT_EQ(r.original_size.Elements(), 4096u);
  EXPECT_EQ(r.original_size.Rank(), 4u);
  EXPECT_FALSE(r.budget_spent);
  EXPECT_LE(r.minimal_size.Elements(), 8u);
  EXPECT_LE(r.minimal_size.Rank(), 2u);
  EXPECT_EQ(r.minimal_verdict.outcome.status, Status::kFail);
  EXPECT_EQ(FailureKind(r.minimal_verdict.outcome), FailureKind(r.original.outcome));
  // The values were simplified too: a single zero, whose flipped sum fails.
  const TensorData& input = *r.minimal.Tensor("InputTensor");
  ASSERT_EQ(ElementCount(input.desc), 1u);
  EXPECT_EQ(LoadBits(DType::kFloat16, input.Element(0)), 0u);
  EXPECT_TRUE(input.desc.strides.empty() ||
              input.desc.strides == PackedStrides(input.desc.sizes));  // packed
}

// The fault needs a scanned axis longer than 5: the minimal case keeps 6 elements along it and
// nothing else.
TEST_F(ShrinkTest, LongAxisFaultShrinksToSixElements) {
  const auto plugin = Fault("flip-sign-long-axis");
  ASSERT_TRUE(plugin);
  const CaseRecipe large = LargeScan(DType::kFloat32, {3, 5, 40, 6}, 2);
  const ShrinkResult r = Shrink(*plugin, large, Unhurried());
  Report("flip-sign-long-axis scan", r);
  ASSERT_TRUE(r.Searched()) << r.refused;
  EXPECT_EQ(r.original.outcome.status, Status::kFail);
  EXPECT_FALSE(r.budget_spent);
  EXPECT_EQ(r.minimal_size.shape, std::vector<uint32_t>{6});
  EXPECT_EQ(FailureKind(r.minimal_verdict.outcome), FailureKind(r.original.outcome));
  const TensorData& input = *r.minimal.Tensor("InputTensor");
  for (uint64_t i = 0; i < ElementCount(input.desc); ++i)  // +0 sums; -0 at position 5 fails
    EXPECT_EQ(LoadBits(DType::kFloat32, input.Element(i)), 0u) << i;
}

TEST_F(ShrinkTest, FlippedFloat16BitShrinksAScatter) {
  const auto plugin = Fault("flip-bit-f16");
  ASSERT_TRUE(plugin);
  ScatterChoices c;
  c.spec = &Spec("DML_SCATTER_ND");
  c.dtype = DType::kFloat16;
  c.shapes = *ShapeScatter(ScatterFormOf(*c.spec), {8, 8, 16}, {4, 4}, 2, 4);
  c.layout = Layout::kTransposed;
  c.seed = 3;
  const ShrinkResult r = Shrink(*plugin, BuildScatterRecipe(c), Unhurried());
  Report("flip-bit-f16 scatter", r);
  ASSERT_TRUE(r.Searched()) << r.refused;
  EXPECT_EQ(r.original_size.Elements(), 1024u);
  EXPECT_FALSE(r.budget_spent);
  EXPECT_LE(r.minimal_size.Elements(), 8u);
  EXPECT_LE(r.minimal_size.Rank(), 2u);
  EXPECT_EQ(FailureKind(r.minimal_verdict.outcome), FailureKind(r.original.outcome));
}

TEST_F(ShrinkTest, PassingCaseIsLeftAlone) {
  const auto plugin = Load(OPCTS_CPU_REFERENCE);
  ASSERT_TRUE(plugin);
  const ShrinkResult r = Shrink(*plugin, LargeScan(DType::kFloat16, {4, 8, 4, 32}, 3));
  EXPECT_FALSE(r.Failed());
  EXPECT_FALSE(r.Searched());
  EXPECT_EQ(r.original.outcome.status, Status::kPass);
  EXPECT_EQ(r.attempts, 0);
  EXPECT_TRUE(r.steps.empty());
}

TEST_F(ShrinkTest, TimeBoxStopsTheSearch) {
  const auto plugin = Fault("flip-bit-f16");
  ASSERT_TRUE(plugin);
  ShrinkOptions two_attempts;
  two_attempts.max_attempts = 2;
  const ShrinkResult r =
      Shrink(*plugin, LargeScan(DType::kFloat16, {4, 8, 4, 32}, 3), two_attempts);
  ASSERT_TRUE(r.Searched());
  EXPECT_TRUE(r.budget_spent);
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(FailureKind(r.minimal_verdict.outcome), FailureKind(r.original.outcome));
}

TEST_F(ShrinkTest, InvalidAndCrashedCasesAreRefused) {
  const auto plugin = Fault("accept-invalid");
  ASSERT_TRUE(plugin);
  const std::vector<CaseRecipe> cases = GenerateCases(*specs_, {.seed = 1, .long_axes = false});
  const auto invalid = std::find_if(cases.begin(), cases.end(), [](const CaseRecipe& c) {
    return c.group == CaseGroup::kInvalid && c.abi_fault == AbiFault::kNone;
  });
  ASSERT_NE(invalid, cases.end());
  const ShrinkResult r = Shrink(*plugin, *invalid);
  EXPECT_EQ(r.original.outcome.status, Status::kInvalidAccepted);
  EXPECT_TRUE(r.Failed());
  EXPECT_FALSE(r.Searched());
  EXPECT_NE(r.refused.find("invalid case is not shrunk"), std::string::npos) << r.refused;

  const CaseRecipe valid = LargeScan(DType::kFloat16, {2, 3}, 1);
  for (Status s : {Status::kCrash, Status::kTimeout, Status::kMemoryLimit})
    EXPECT_NE(ShrinkRefusal(valid, s).find("runs in this process"), std::string::npos);
  EXPECT_EQ(ShrinkRefusal(valid, Status::kFail), "");
}

// The minimal case written as a vector, read back as `opcts vectors` reads it: the reference
// accepts it, the faulty backend fails it the same way, a correct backend passes it.
TEST_F(ShrinkTest, VectorFileFailsTheSameWay) {
  const auto faulty = Fault("flip-sign-long-axis");
  const auto reference = Load(OPCTS_CPU_REFERENCE);
  ASSERT_TRUE(faulty && reference);
  const ShrinkResult r = Shrink(*faulty, LargeScan(DType::kFloat32, {3, 5, 40, 6}, 2));
  ASSERT_TRUE(r.Searched());
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("opcts-shrunk-" + std::to_string(getpid()) + ".json"))
                               .string();
  std::ofstream(file) << VectorToJson(r.vector).dump(1) << "\n";
  const Result<TestVector> v = LoadVectorFile(file, *specs_);
  std::filesystem::remove(file);
  ASSERT_TRUE(v.ok()) << v.error().message;
  const VectorCheck check = CheckVectorAgainstReference(*v);
  EXPECT_TRUE(check.ok) << check.message;
  const CaseVerdict on_faulty = RunVector(*faulty, *v);
  EXPECT_FALSE(on_faulty.acceptable);
  EXPECT_EQ(FailureKind(on_faulty.outcome), FailureKind(r.original.outcome));
  EXPECT_EQ(RunVector(*reference, *v).outcome.status, Status::kPass);
}

TEST(FailureKind, KeepsStatusTensorAndKindNotNumbers) {
  const CaseOutcome a = Outcome(Status::kFail,
                                "OutputTensor: 3 of 4096 elements wrong; first element [0,0,1,2]: "
                                "expected 5, got 6");
  const CaseOutcome b = Outcome(
      Status::kFail, "OutputTensor: 1 of 1 elements wrong; first element [0]: expected 0, got nan");
  EXPECT_EQ(FailureKind(a), "Fail: OutputTensor: wrong elements");
  EXPECT_EQ(FailureKind(a), FailureKind(b));
  const CaseOutcome guard = Outcome(Status::kFail,
                                    "OutputTensor: 1 byte(s) changed just past the end (outside "
                                    "TotalTensorSizeInBytes)");
  EXPECT_NE(FailureKind(a), FailureKind(guard));
  const CaseOutcome warning = Outcome(Status::kQualityWarning, a.message);
  EXPECT_NE(FailureKind(a), FailureKind(warning));
}

}  // namespace
}  // namespace opcts
