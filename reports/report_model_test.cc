#include "reports/report_model.h"

#include <gtest/gtest.h>

#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::LoadJournals;
using testing::Testdata;

constexpr char kToday[] = "2026-01-01";

Report Build(const std::vector<std::string>& names, const std::vector<Waiver>& waivers = {},
             bool strict = false, const std::string& today = kToday) {
  auto report = BuildReport(LoadJournals(names), waivers, {strict, today});
  EXPECT_TRUE(report.value) << report.error;
  return report.value ? std::move(*report.value) : Report{};
}

std::vector<Waiver> FixtureWaivers() {
  auto waivers = LoadWaivers(Testdata("waivers.yaml"));
  EXPECT_TRUE(waivers.value) << waivers.error;
  return waivers.value ? *waivers.value : std::vector<Waiver>{};
}

const MatrixCell* FindCell(const Report& report, const std::string& backend, const std::string& op,
                           const std::string& dtype, const std::string& rank_class) {
  for (const auto& cell : report.matrix) {
    if (cell.backend == backend && cell.op == op && cell.dtype == dtype &&
        cell.rank_class == rank_class) {
      return &cell;
    }
  }
  return nullptr;
}

TEST(RankClass, BucketsRanks) {
  EXPECT_EQ(RankClass(0), "rank0");
  EXPECT_EQ(RankClass(1), "rank1");
  EXPECT_EQ(RankClass(2), "rank2-4");
  EXPECT_EQ(RankClass(4), "rank2-4");
  EXPECT_EQ(RankClass(5), "rank5-8");
  EXPECT_EQ(RankClass(8), "rank5-8");
  EXPECT_EQ(RankClass(9), "rank9+");
}

TEST(CauseOf, BlanksNumbers) {
  EXPECT_EQ(CauseOf("index 3: got 1.5e-07 expected 0x3f80"), "index #: got # expected #");
  EXPECT_EQ(CauseOf("index 12: got -2 expected 3."), "index #: got -# expected #.");
  EXPECT_EQ(CauseOf("float16 rank4\nline"), "float# rank# line");
  EXPECT_EQ(CauseOf(""), "");
}

TEST(Report, CountsStatusesAcrossTwoBackends) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  EXPECT_EQ(report.cases.size(), 12u);
  EXPECT_EQ(report.by_status, (StatusCounts{{"Pass", 4},
                                            {"QualityWarning", 1},
                                            {"Fail", 2},
                                            {"NotSupported", 1},
                                            {"InvalidRejected", 1},
                                            {"ClaimViolation", 1},
                                            {"Crash", 1},
                                            {"InvalidAccepted", 1}}));
  EXPECT_EQ(report.gate_failures, 5u);
  EXPECT_FALSE(report.Passed());
  EXPECT_EQ(report.gate_reasons,
            (std::vector<std::string>{
                "2 case(s) with status Fail", "1 case(s) with status InvalidAccepted",
                "1 case(s) with status ClaimViolation", "1 case(s) with status Crash"}));
  EXPECT_TRUE(report.gate_problems.empty());
  EXPECT_TRUE(report.warnings.empty());
}

TEST(Report, BackendClaims) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  ASSERT_EQ(report.backends.size(), 2u);
  EXPECT_EQ(report.backends[0].info.name, "cpu-simd");
  EXPECT_EQ(report.backends[0].info.feature_level, "5_0");
  EXPECT_EQ(report.backends[0].info.extra_support, std::vector<std::string>{"openvino.opset3"});
  EXPECT_EQ(report.backends[0].cases, 8u);
  EXPECT_TRUE(report.backends[0].ClaimHolds());
  EXPECT_EQ(report.backends[1].info.name, "vulkan");
  EXPECT_EQ(report.backends[1].info.device, "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_EQ(report.backends[1].cases, 4u);
  EXPECT_FALSE(report.backends[1].ClaimHolds());
}

TEST(Report, MatrixCellsByOpDtypeRankClassBackend) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  EXPECT_EQ(report.rank_classes,
            (std::vector<std::string>{"rank1", "rank2-4", "rank5-8", "rank9+"}));
  EXPECT_EQ(report.matrix.size(), 11u);
  const MatrixCell* product =
      FindCell(report, "cpu-simd", "DML_CUMULATIVE_PRODUCT", "FLOAT32", "rank2-4");
  ASSERT_TRUE(product);
  EXPECT_EQ(product->cases, 2u);
  EXPECT_EQ(product->worst, "Fail");
  const MatrixCell* sum_rank1 =
      FindCell(report, "cpu-simd", "DML_CUMULATIVE_SUMMATION", "FLOAT32", "rank1");
  ASSERT_TRUE(sum_rank1);
  EXPECT_EQ(sum_rank1->worst, "Pass");
  const MatrixCell* scatter = FindCell(report, "vulkan", "DML_SCATTER_ND", "INT32", "rank5-8");
  ASSERT_TRUE(scatter);
  EXPECT_EQ(scatter->worst, "Crash");
  const MatrixCell* invalid = FindCell(report, "cpu-simd", "DML_SCATTER_ND", "INT32", "rank9+");
  ASSERT_TRUE(invalid);
  EXPECT_EQ(invalid->worst, "InvalidRejected");
  EXPECT_EQ(invalid->AsExpected(), 1u);
  EXPECT_EQ(product->AsExpected(), 0u);
  EXPECT_FALSE(FindCell(report, "vulkan", "DML_CUMULATIVE_PRODUCT", "FLOAT32", "rank2-4"));
}

TEST(Report, FailuresGroupedByCauseLargestFirst) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  ASSERT_EQ(report.failure_groups.size(), 4u);
  const FailureGroup& first = report.failure_groups[0];
  EXPECT_EQ(first.status, "Fail");
  EXPECT_EQ(first.op, "DML_CUMULATIVE_PRODUCT");
  EXPECT_EQ(first.cause, "index #: got # expected # <script>document.title='pwned'</script>");
  ASSERT_EQ(first.cases.size(), 2u);
  EXPECT_EQ(report.cases[first.cases[0]].record.id, "dml_cumulative_product.f32.rank2.axis1.s1");
  EXPECT_EQ(report.cases[first.cases[1]].record.id, "dml_cumulative_product.f32.rank2.axis0.s1");
  for (size_t i = 1; i < report.failure_groups.size(); ++i) {
    EXPECT_EQ(report.failure_groups[i].cases.size(), 1u);
  }
}

TEST(Report, StrictMakesQualityWarningFail) {
  const Report report = Build({"cpu_simd.jsonl"}, {}, /*strict=*/true);
  EXPECT_EQ(report.gate_failures, 3u);
  EXPECT_EQ(report.gate_reasons,
            (std::vector<std::string>{"2 case(s) with status Fail",
                                      "1 case(s) with status QualityWarning"}));
}

TEST(Report, ActiveExpiredAndUnmatchedWaivers) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"}, FixtureWaivers());
  const std::string file = Testdata("waivers.yaml");
  EXPECT_EQ(report.by_status.count("Fail"), 0u);
  EXPECT_EQ(report.by_status.at("Waived"), 2u);
  EXPECT_EQ(report.by_status.at("Crash"), 1u);  // its waiver expired
  EXPECT_EQ(report.gate_failures, 3u);
  for (const auto& item : report.cases) {
    if (item.status != "Waived") continue;
    EXPECT_EQ(item.record.status, "Fail");
    EXPECT_FALSE(item.gate_failure);
    EXPECT_EQ(item.waiver, file + ":3: known float32 product drift (issue 12)");
  }
  EXPECT_EQ(report.gate_problems,
            std::vector<std::string>{file + ":7: waiver for id \"dml_scatter_nd.i32.*\" (backend "
                                            "\"vulkan\") expired on 2025-06-30 and still matches 1 "
                                            "failing case(s); fix them or renew the waiver"});
  EXPECT_EQ(report.gate_reasons.back(), report.gate_problems.back());
  EXPECT_EQ(report.warnings, std::vector<std::string>{
                                 file + ":11: waiver for id \"openvino_cumsum_3.*\" (backend "
                                        "\"cpu-simd\") matched no failing case; remove it if the "
                                        "failure is fixed"});
}

TEST(Report, WaiverAppliesThroughItsExpiryDay) {
  const Report report =
      Build({"vulkan.jsonl"}, FixtureWaivers(), /*strict=*/false, /*today=*/"2025-06-30");
  EXPECT_EQ(report.by_status.at("Waived"), 1u);
  EXPECT_EQ(report.by_status.count("Crash"), 0u);
  EXPECT_TRUE(report.gate_problems.empty());
}

TEST(Report, WaiversOnlyCoverGateFailures) {
  Waiver waiver;
  waiver.id_glob = "*";
  waiver.reason = "everything";
  waiver.location = "w.yaml:1";
  const Report report = Build({"cpu_simd.jsonl"}, {waiver});
  EXPECT_EQ(report.by_status.at("Waived"), 2u);          // the two Fail cases
  EXPECT_EQ(report.by_status.at("Pass"), 3u);            // untouched
  EXPECT_EQ(report.by_status.at("QualityWarning"), 1u);  // not a gate failure unless strict
  EXPECT_TRUE(report.Passed());
}

TEST(Report, DuplicateCaseIsAnError) {
  const auto report = BuildReport(LoadJournals({"cpu_simd.jsonl", "cpu_simd.jsonl"}), {}, {});
  EXPECT_FALSE(report.value);
  EXPECT_EQ(report.error,
            "cpu_simd.jsonl: case \"dml_cumulative_summation.f32.rank1.axis0.s1\" on backend "
            "\"cpu-simd\" also appears in cpu_simd.jsonl (merge shards with `opcts report merge`, "
            "which checks them)");
}

TEST(Report, IncompleteRunFailsTheGate) {
  auto journals = LoadJournals({"vulkan.jsonl"});
  ASSERT_EQ(journals.size(), 1u);
  journals[0].journal.cases.resize(1);  // as if killed after the first case
  const auto report = BuildReport(journals, {}, {});
  ASSERT_TRUE(report.value) << report.error;
  EXPECT_EQ(report.value->gate_failures, 0u);
  EXPECT_FALSE(report.value->Passed());
  EXPECT_EQ(report.value->gate_problems,
            std::vector<std::string>{
                "vulkan.jsonl: only 1 of 4 planned cases are present (run incomplete?)"});
}

TEST(Report, AllPassingJournalPasses) {
  const Report report = Build({"shard0of3.jsonl"});
  EXPECT_TRUE(report.Passed());
  EXPECT_EQ(report.gate_failures, 0u);
  EXPECT_TRUE(report.failure_groups.empty());
}

}  // namespace
}  // namespace opcts
