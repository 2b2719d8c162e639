// The regression corpus: every fuzz/regressions/*.json (a finding of `opcts fuzz`, its expected
// values the reference's) must be a consistent vector and must pass on every built-in backend,
// so a bug found stays found. The golden vectors are replayed the same way, so this can never
// pass by replaying nothing.
#include <iostream>

#include <gtest/gtest.h>

#include "base/cli_args.h"
#include "conformance/case_run.h"
#include "conformance/vector_check.h"
#include "fuzz/embedded_specs.h"

namespace opcts {
namespace {

const std::string kRegressions = OPCTS_FUZZ_REGRESSIONS_DIR;
const std::string kGolden = std::string(OPCTS_SOURCE_DIR) + "/conformance/vectors/golden";

std::vector<TestVector> LoadAll(const std::string& dir) {
  std::vector<TestVector> vectors;
  for (const std::string& file : ExpandPaths({dir}, ".json")) {
    Result<TestVector> r = LoadVectorFile(file, EmbeddedSpecSet());
    EXPECT_TRUE(r) << r.error().message;
    if (r) vectors.push_back(std::move(r).value());
  }
  return vectors;
}

// Replays `vectors` on every built-in backend that can run here; returns how many replays ran.
int ReplayOnBuiltins(const std::vector<TestVector>& vectors) {
  int replays = 0;
  for (const std::string& name : BuiltinBackendNames()) {
    PluginLoad load = LoadPlugin(name, "");
    if (IsUnavailable(load)) {
      std::cout << "[ note ] backend " << name << " cannot run here: " << load.error().message
                << "\n";
      continue;
    }
    EXPECT_TRUE(load.ok()) << load.error().message;
    if (!load) continue;
    for (const TestVector& v : vectors) {
      const CaseVerdict r = RunVector(**load, v);
      EXPECT_TRUE(r.acceptable) << v.file << " on " << name << ": " << StatusName(r.outcome.status)
                                << ": " << r.outcome.message;
      ++replays;
    }
  }
  return replays;
}

TEST(FuzzRegressions, EveryFindingPassesOnEveryBuiltinBackend) {
  const std::vector<TestVector> findings = LoadAll(kRegressions);
  if (findings.empty())
    std::cout << "\n*** fuzz/regressions/ holds no finding yet: only the golden vectors are "
                 "replayed. ***\n\n";
  else
    std::cout << "[ info ] replaying " << findings.size() << " fuzz findings\n";
  EXPECT_EQ(ReplayOnBuiltins(findings) == 0, findings.empty());
}

TEST(FuzzRegressions, GoldenVectorsPassOnEveryBuiltinBackend) {
  const std::vector<TestVector> golden = LoadAll(kGolden);
  ASSERT_GE(golden.size(), 10u);
  // cpu-reference and cpu-simd are always built.
  EXPECT_GE(ReplayOnBuiltins(golden), static_cast<int>(2 * golden.size()));
}

TEST(FuzzRegressions, EveryFindingIsAConsistentVector) {
  for (const TestVector& v : LoadAll(kRegressions)) {
    const VectorCheck check = CheckVectorAgainstReference(v);
    EXPECT_TRUE(check.ok) << v.file << ": " << check.message;
    EXPECT_EQ(v.name.rfind("fuzz.", 0), 0u)
        << v.file << ": findings are named fuzz.<operator>.<hash>";
  }
}

// A replay that cannot fail would prove nothing: a backend with one flipped bit must fail it.
TEST(FuzzRegressions, ReplayCatchesAFaultyBackend) {
  // ScatterND is data movement, bit-exact: writing 1.0 and -2.0 (float16 0x3C00, 0xC000) at
  // positions 2 and 0 of [0.5, 0.25, 0.125, -0.0] gives [-2.0, 0.25, 1.0, -0.0].
  const std::string json = R"({"format": "opcts-vector/1", "name": "fuzz.replay-self-test",
    "operator": "DML_SCATTER_ND", "parameters": {"InputDimensionCount": 1, "IndicesDimensionCount": 2},
    "tensors": {
      "InputTensor": {"dtype": "FLOAT16", "sizes": [1, 4], "data": ["0x3800", "0x3400", "0x3000", "0x8000"]},
      "IndicesTensor": {"dtype": "UINT32", "sizes": [2, 1], "data": [2, 0]},
      "UpdatesTensor": {"dtype": "FLOAT16", "sizes": [1, 2], "data": ["0x3c00", "0xc000"]},
      "OutputTensor": {"dtype": "FLOAT16", "sizes": [1, 4]}},
    "expected": {"OutputTensor": ["0xc000", "0x3400", "0x3c00", "0x8000"]}})";
  const Result<TestVector> r = ParseVector(json, "self-test.json", EmbeddedSpecSet());
  ASSERT_TRUE(r) << r.error().message;

  PluginLoad good = LoadPlugin("cpu-reference", "");
  ASSERT_TRUE(good.ok()) << good.error().message;
  const CaseVerdict pass = RunVector(**good, *r);
  EXPECT_TRUE(pass.acceptable) << StatusName(pass.outcome.status) << ": " << pass.outcome.message;

  PluginLoad faulty = LoadPlugin(OPCTS_FAULT_PLUGIN, "");
  ASSERT_TRUE(faulty.ok()) << faulty.error().message;
  const CaseVerdict fail = RunVector(**faulty, *r);
  EXPECT_FALSE(fail.acceptable);
  EXPECT_EQ(fail.outcome.status, Status::kFail) << fail.outcome.message;
}

}  // namespace
}  // namespace opcts
