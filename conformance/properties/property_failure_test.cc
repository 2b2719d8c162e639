// The properties can fail. Each runs against a deliberately wrong backend, cpu-reference with
// the first element of every output corrupted (and judged again, as ExecuteCase would), and
// must report a failure that names the opcts case id. Where every case fails, the shrunk case
// must be the simplest one the spec admits.
#include <cmath>
#include <iostream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "conformance/judge.h"
#include "conformance/properties/properties.h"
#include "spec/element.h"

namespace opcts {
namespace {

using testing::ContainsRegex;
using testing::HasSubstr;

// A value far from the original whatever it was (NaN, inf and 0 included).
uint64_t Corrupted(DType t, uint64_t bits) {
  if (!IsFloat(t)) return bits ^ 1;
  const long double v = BitsToLongDouble(t, bits);
  return DoubleToBits(t, std::isfinite(v) && v != 0 ? static_cast<double>(v) * 4 : 1.0);
}

Backend CorruptingBackend(const Plugin& plugin) {
  const Backend good = PluginBackend(plugin);
  Backend bad = good;
  bad.name = "cpu-reference-corrupting-element-0";
  bad.run = [good](PreparedCase& prepared, CaseGroup group) {
    CaseVerdict verdict = good.run(prepared, group);
    CaseOutcome& outcome = verdict.outcome;
    for (const ExpectedTensor& e : prepared.expected().outputs) {
      const auto it = outcome.outputs.find(e.name);
      if (it == outcome.outputs.end()) continue;
      uint8_t* first = it->second.Element(0);  // logical element 0 is buffer element 0
      StoreBits(e.desc.dtype, first, Corrupted(e.desc.dtype, LoadBits(e.desc.dtype, first)));
      if (const Judgement j = JudgeTensor(e, it->second); j.verdict == Verdict::kFail) {
        outcome.status = Status::kFail;
        outcome.message = j.message;
        verdict.acceptable = false;
      }
    }
    return verdict;
  };
  return bad;
}

// Swallows rapidcheck's progress output: these failures are expected.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

using Property = void (*)(const Backend&, const OperatorSpec&);

// The failure's description, or "" (and a test failure) if the property held.
std::string FailureOf(Property property, const Backend& backend, const std::string& operator_name) {
  const OperatorSpec* spec = LoadedSpecs().Find(operator_name);
  if (spec == nullptr) {
    ADD_FAILURE() << "no spec for " << operator_name;
    return "";
  }
  QuietListener quiet;
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = 100;
  const rc::detail::TestResult result =
      rc::detail::checkProperty(rc::detail::toProperty([&] { property(backend, *spec); }),
                                {"PropertyCanFail", ""}, params, quiet);
  if (!result.is<rc::detail::FailureResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    ADD_FAILURE() << "the property held against a faulty backend:\n" << message.str();
    return "";
  }
  return result.get<rc::detail::FailureResult>().description;
}

class PropertyCanFail : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(LoadedSpecs().errors.empty()) << LoadedSpecs().errors.front();
    PluginLoad load = LoadPlugin("cpu-reference", "");
    if (!load) {
      std::cerr << "*** SKIPPING: cpu-reference could not be loaded: " << load.error().message
                << "\n";
      GTEST_SKIP() << "cpu-reference could not be loaded: " << load.error().message;
    }
    plugin_ = std::move(load).value();
    backend_ = CorruptingBackend(*plugin_);
  }

  std::string FailureOf(Property property, const std::string& operator_name) {
    return opcts::FailureOf(property, backend_, operator_name);
  }

  std::unique_ptr<Plugin> plugin_;
  Backend backend_;
};

// Every case fails, so shrinking must reach the simplest one: the lowest level (2_1: rank 4 only),
// its first dtype, sizes of 1, axis 0, forward, packed, seed 0.
TEST_F(PropertyCanFail, MatchesReferenceShrinksScanToSimplestCase) {
  EXPECT_THAT(
      FailureOf(MatchesReference, "DML_CUMULATIVE_SUMMATION"),
      HasSubstr(
          "case dml_cumulative_summation.prop.f32.rank4.1x1x1x1.axis0-fwd-incl.packed.random.s0 "
          "(level 2_1) on cpu-reference-corrupting-element-0: Fail"));
}

TEST_F(PropertyCanFail, MatchesReferenceShrinksScatterToSimplestCase) {
  EXPECT_THAT(
      FailureOf(MatchesReference, "DML_SCATTER_ND"),
      HasSubstr("case dml_scatter_nd.prop.f32.rank4.1x1x1x1.in1-idx1-1x1x1x1-u32.packed.unique.s0 "
                "(level 2_1)"));
}

TEST_F(PropertyCanFail, ExclusiveShiftShrinksToSimplestCase) {
  // One element: the exclusive result must be the identity 0, and the corruption made it 1.
  EXPECT_THAT(
      FailureOf(ExclusiveIsShiftedInclusive, "DML_CUMULATIVE_SUMMATION"),
      HasSubstr(
          "case dml_cumulative_summation.prop.f32.rank4.1x1x1x1.axis0-fwd-excl.packed.random.s0 "
          "(level 2_1) on cpu-reference-corrupting-element-0: not the inclusive scan shifted by "
          "one"));
}

TEST_F(PropertyCanFail, LastInclusiveIsTotalFails) {
  EXPECT_THAT(
      FailureOf(LastInclusiveIsTotal, "OPENVINO_CUMSUM_3"),
      HasSubstr("case openvino_cumsum_3.prop.f64.rank1.1.axis0-i64-fwd-incl.packed.random.s0 "
                "(level opset3)"));
}

TEST_F(PropertyCanFail, ProductOfOnesIsOnesFails) {
  EXPECT_THAT(
      FailureOf(ProductOfOnesIsOnes, "DML_CUMULATIVE_PRODUCT"),
      HasSubstr(
          "case dml_cumulative_product.prop.f32.rank4.1x1x1x1.axis0-fwd-incl.packed.ones.s0"));
}

// These fail only where element 0 is not its own partner, so the shrunk case depends on the
// first failure found: check the failure and its id, not the exact case.
TEST_F(PropertyCanFail, ReverseIsFlippedForwardFails) {
  EXPECT_THAT(FailureOf(ReverseIsFlippedForward, "DML_CUMULATIVE_PRODUCT"),
              HasSubstr("case dml_cumulative_product.prop."));
}

TEST_F(PropertyCanFail, ScatterIsIdempotentFails) {
  EXPECT_THAT(FailureOf(ScatterIsIdempotent, "DML_SCATTER_ND"),
              HasSubstr("scattering onto its own output changed it"));
}

// A real faulty plugin through the C ABI (conformance/testing): cpu-reference with the lowest
// bit of the first element of every FLOAT16 output flipped. Scatter is bit-exact, so every
// float16 case fails. Only float16 cases fail, so a shrink to a lower level may be refused (the
// later choices are drawn again there): the shrunk case is the simplest float16 one at some level.
TEST(PropertyCanFailOnFaultyPlugin, MatchesReferenceCatchesAFlippedFloat16Bit) {
  ASSERT_TRUE(LoadedSpecs().errors.empty()) << LoadedSpecs().errors.front();
  const PluginLoad load = LoadPlugin(OPCTS_FAULT_FLIP_BIT_F16, "");
  ASSERT_TRUE(load.ok()) << load.error().message;
  EXPECT_THAT(
      FailureOf(MatchesReference, PluginBackend(**load), "DML_SCATTER_ND"),
      ContainsRegex(
          "case "
          "dml_scatter_nd\\.prop\\.f16\\.rank[14]\\.(1|1x1x1x1)\\.in1-idx1-(1|1x1x1x1)-[iu](32|64)"
          "\\.packed\\.unique\\.s0 \\(level [0-9_]+\\) on fault-flip-bit-f16: Fail"));
}

}  // namespace
}  // namespace opcts
