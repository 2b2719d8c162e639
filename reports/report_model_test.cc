#include "reports/report_model.h"

#include <gtest/gtest.h>

#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::CaseLineWith;
using testing::HeaderLine;
using testing::LoadJournals;
using testing::Testdata;

constexpr char kToday[] = "2026-01-01";

Report Build(const std::vector<std::string>& names, const std::vector<Waiver>& waivers = {},
             bool strict = false, const std::string& today = kToday) {
  auto report = BuildReport(LoadJournals(names), waivers, {strict, today, {}, ""});
  EXPECT_TRUE(report.ok()) << report.error().message;
  return report.ok() ? std::move(report).value() : Report{};
}

// A case line of backend "ref" with an operator, level and group.
std::string Case(const std::string& id, const std::string& op, const std::string& level,
                 const std::string& status, const std::string& group = "valid") {
  return CaseLineWith("ref", id, status, {{"op", op}, {"level", level}, {"group", group}});
}

// A report on one inline journal of backend "ref" holding `lines`.
Report BuildInline(const std::vector<std::string>& lines, const ReportOptions& options = {}) {
  std::string text = HeaderLine("ref") + "\n";
  for (const auto& line : lines) text += line + "\n";
  auto journal = ParseJournal(text, "inline.jsonl");
  EXPECT_TRUE(journal.ok()) << journal.error().message;
  auto report = BuildReport({{"inline.jsonl", *journal}}, {}, options);
  EXPECT_TRUE(report.ok()) << report.error().message;
  return report.ok() ? std::move(report).value() : Report{};
}

ReportOptions Requiring(std::vector<LevelRequirement> required) {
  ReportOptions options;
  options.required = std::move(required);
  return options;
}

// Scatter cases of "ref": 2_1 and 3_0 pass, 4_1 has one NotSupported, 5_0 passes.
std::vector<std::string> ScatterLines() {
  return {Case("s.a", "DML_SCATTER_ND", "3_0", "Pass"),
          Case("s.b", "DML_SCATTER_ND", "2_1", "Pass"),
          Case("s.c", "DML_SCATTER_ND", "4_1", "Pass"),
          Case("s.d", "DML_SCATTER_ND", "4_1", "NotSupported", "unclaimed"),
          Case("s.e", "DML_SCATTER_ND", "5_0", "Pass"),
          Case("s.f", "DML_SCATTER_ND", "", "Fail"),
          Case("s.g", "DML_SCATTER_ND", "3_0", "InvalidRejected", "invalid")};
}

const Coverage* FindCoverage(const Report& report, const std::string& backend,
                             const std::string& op) {
  for (const auto& entry : report.coverage) {
    if (entry.backend == backend && entry.op == op) return &entry;
  }
  return nullptr;
}

std::vector<Waiver> FixtureWaivers() {
  auto waivers = LoadWaivers(Testdata("waivers.yaml"));
  EXPECT_TRUE(waivers.ok()) << waivers.error().message;
  return waivers.ok() ? *waivers : std::vector<Waiver>{};
}

const MatrixRow* FindRow(const Report& report, const std::string& backend, const std::string& op,
                         const std::string& dtype) {
  for (const auto& row : report.matrix)
    if (row.backend == backend && row.op == op && row.dtype == dtype) return &row;
  return nullptr;
}

const MatrixCell* FindCell(const Report& report, const std::string& backend, const std::string& op,
                           const std::string& dtype, const std::string& rank_class) {
  const MatrixRow* row = FindRow(report, backend, op, dtype);
  return row == nullptr ? nullptr : FindColumn(row->rank_classes, rank_class);
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

TEST(Report, SeverityRankPutsCrashFirstAndPassLast) {
  const std::vector<Status> expected = {
      Status::kCrash,        Status::kInternalError,   Status::kTimeout,
      Status::kMemoryLimit,  Status::kClaimViolation,  Status::kInvalidAccepted,
      Status::kFail,         Status::kQualityWarning,  Status::kWaived,
      Status::kNotSupported, Status::kInvalidRejected, Status::kPass};
  ASSERT_EQ(expected.size(), AllStatuses().size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(SeverityRank(expected[i]), static_cast<int>(i)) << StatusName(expected[i]);
  }
}

TEST(StatusCounts, ByNameIsAlphabetical) {
  const StatusCounts counts = {
      {Status::kPass, 3}, {Status::kFail, 1}, {Status::kCrash, 2}, {Status::kWaived, 4}};
  EXPECT_EQ(CountsByName(counts), (std::vector<std::pair<std::string_view, uint64_t>>{
                                      {"Crash", 2}, {"Fail", 1}, {"Pass", 3}, {"Waived", 4}}));
}

TEST(Report, CountsStatusesAcrossTwoBackends) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  EXPECT_EQ(report.cases.size(), 12u);
  EXPECT_EQ(report.by_status, (StatusCounts{{Status::kPass, 4},
                                            {Status::kQualityWarning, 1},
                                            {Status::kFail, 2},
                                            {Status::kNotSupported, 1},
                                            {Status::kInvalidRejected, 1},
                                            {Status::kClaimViolation, 1},
                                            {Status::kCrash, 1},
                                            {Status::kInvalidAccepted, 1}}));
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
  EXPECT_EQ(report.matrix.size(), 9u);  // backend x operator x dtype
  const MatrixCell* product =
      FindCell(report, "cpu-simd", "DML_CUMULATIVE_PRODUCT", "FLOAT32", "rank2-4");
  ASSERT_TRUE(product);
  EXPECT_EQ(product->cases, 2u);
  EXPECT_EQ(product->worst, Status::kFail);
  const MatrixCell* sum_rank1 =
      FindCell(report, "cpu-simd", "DML_CUMULATIVE_SUMMATION", "FLOAT32", "rank1");
  ASSERT_TRUE(sum_rank1);
  EXPECT_EQ(sum_rank1->worst, Status::kPass);
  const MatrixCell* scatter = FindCell(report, "vulkan", "DML_SCATTER_ND", "INT32", "rank5-8");
  ASSERT_TRUE(scatter);
  EXPECT_EQ(scatter->worst, Status::kCrash);
  const MatrixCell* invalid = FindCell(report, "cpu-simd", "DML_SCATTER_ND", "INT32", "rank9+");
  ASSERT_TRUE(invalid);
  EXPECT_EQ(invalid->worst, Status::kInvalidRejected);
  EXPECT_EQ(invalid->AsExpected(), 1u);
  EXPECT_EQ(product->AsExpected(), 0u);
  EXPECT_FALSE(FindCell(report, "vulkan", "DML_CUMULATIVE_PRODUCT", "FLOAT32", "rank2-4"));
  EXPECT_EQ(report.cases[product->first_failure].record.id,
            "dml_cumulative_product.f32.rank2.axis1.s1");
  EXPECT_EQ(sum_rank1->first_failure, SIZE_MAX);
}

TEST(Report, MatrixRowsByFeatureLevel) {
  const std::vector<std::string> lines = {
      Case("a", "DML_SCATTER_ND", "2_1", "Pass"), Case("b", "DML_SCATTER_ND", "3_0", "Pass"),
      Case("c", "DML_SCATTER_ND", "4_1", "Fail"), Case("d", "DML_SCATTER_ND", "4_1", "Pass"),
      Case("e", "DML_SCATTER_ND", "5_0", "Pass"), Case("f", "DML_SCATTER_ND", "3_0", "Pass")};
  const Report report = BuildInline(lines);
  ASSERT_EQ(report.matrix.size(), 1u);
  const MatrixRow& row = report.matrix[0];
  EXPECT_EQ(report.levels_of.at("DML_SCATTER_ND"),
            (std::vector<std::string>{"2_1", "3_0", "4_1", "5_0"}));
  ASSERT_EQ(row.levels.size(), 4u);
  EXPECT_EQ(row.levels[1].column, "3_0");
  EXPECT_EQ(row.levels[1].cases, 2u);
  EXPECT_EQ(row.levels[2].passing, 1u);
  EXPECT_EQ(row.levels[2].worst, Status::kFail);
  EXPECT_EQ(report.cases[row.levels[2].first_failure].record.id, "c");
  EXPECT_EQ(row.highest_passing, "3_0") << "4_1 has a failure, so 5_0 does not count";
  EXPECT_EQ(row.passing, 5u);
  EXPECT_DOUBLE_EQ(row.PassRate(), 5.0 / 6.0);
}

TEST(Report, FailuresGroupedByCauseLargestFirst) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  ASSERT_EQ(report.failure_groups.size(), 4u);
  const FailureGroup& first = report.failure_groups[0];
  EXPECT_EQ(first.status, Status::kFail);
  EXPECT_EQ(first.op, "DML_CUMULATIVE_PRODUCT");
  EXPECT_EQ(first.cause, "index #: got # expected # <script>document.title='pwned'</script>");
  ASSERT_EQ(first.cases.size(), 2u);
  EXPECT_EQ(report.cases[first.cases[0]].record.id, "dml_cumulative_product.f32.rank2.axis1.s1");
  EXPECT_EQ(report.cases[first.cases[1]].record.id, "dml_cumulative_product.f32.rank2.axis0.s1");
  for (size_t i = 1; i < report.failure_groups.size(); ++i) {
    EXPECT_EQ(report.failure_groups[i].cases.size(), 1u);
  }
}

TEST(Report, AGroupKnowsItsSmallestCaseAndWhereItShows) {
  const auto fail = [](const std::string& id, const std::string& dtype, const std::string& shape,
                       const std::string& layout, const std::string& level,
                       const std::string& got) {
    return CaseLineWith("ref", id, "Fail",
                        {{"op", "DML_CUMULATIVE_SUMMATION"},
                         {"dtype", dtype},
                         {"shape", nlohmann::json::parse(shape)},
                         {"layout", layout},
                         {"level", level},
                         {"message",
                          "OutputTensor: 2 of 9 elements wrong; first element [1,2]: "
                          "expected 3 ± 1e-06, got " +
                              got}});
  };
  const Report report = BuildInline({fail("a", "FLOAT32", "[4,4,4]", "packed", "2_1", "4"),
                                     fail("b", "FLOAT16", "[2,3]", "strided", "4_0", "-3"),
                                     fail("c", "FLOAT32", "[5,5]", "packed", "2_1", "0.5"),
                                     fail("d", "INT32", "[2]", "packed", "2_1", "7")});
  ASSERT_EQ(report.failure_groups.size(), 2u) << "floats in one group, integers in another";
  const FailureGroup& floats = report.failure_groups[0];
  EXPECT_EQ(floats.dtype_class, "float");
  EXPECT_EQ(floats.cause, "OutputTensor: wrong elements");
  EXPECT_EQ(floats.cases.size(), 3u);
  EXPECT_EQ(report.cases[floats.smallest].record.id, "b");
  EXPECT_EQ(GroupBreakdown(floats),
            "dtypes FLOAT32 2, FLOAT16 1; layouts packed 2, strided 1; values (none) 3; levels "
            "2_1 2, 4_0 1; mismatches beyond the accuracy bound 2, the wrong sign 1");
  EXPECT_EQ(report.failure_groups[1].dtype_class, "integer");
  EXPECT_EQ(report.failure_groups[1].cause, "OutputTensor: wrong elements");
  EXPECT_EQ(report.failure_groups[1].by_kind.at("a wrong value"), 1u);
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
  EXPECT_EQ(report.by_status.count(Status::kFail), 0u);
  EXPECT_EQ(report.by_status.at(Status::kWaived), 2u);
  EXPECT_EQ(report.by_status.at(Status::kCrash), 1u);  // its waiver expired
  EXPECT_EQ(report.gate_failures, 3u);
  for (const auto& item : report.cases) {
    if (item.status != Status::kWaived) continue;
    EXPECT_EQ(item.record.status, Status::kFail);
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
  EXPECT_EQ(report.by_status.at(Status::kWaived), 1u);
  EXPECT_EQ(report.by_status.count(Status::kCrash), 0u);
  EXPECT_TRUE(report.gate_problems.empty());
}

TEST(Report, WaiversOnlyCoverGateFailures) {
  Waiver waiver;
  waiver.id_glob = "*";
  waiver.reason = "everything";
  waiver.location = "w.yaml:1";
  const Report report = Build({"cpu_simd.jsonl"}, {waiver});
  EXPECT_EQ(report.by_status.at(Status::kWaived), 2u);          // the two Fail cases
  EXPECT_EQ(report.by_status.at(Status::kPass), 3u);            // untouched
  EXPECT_EQ(report.by_status.at(Status::kQualityWarning), 1u);  // not a gate failure unless strict
  EXPECT_TRUE(report.Passed());
}

TEST(Report, DuplicateCaseIsAnError) {
  const auto report = BuildReport(LoadJournals({"cpu_simd.jsonl", "cpu_simd.jsonl"}), {}, {});
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(report.error().message,
            "cpu_simd.jsonl: case \"dml_cumulative_summation.f32.rank1.axis0.s1\" on backend "
            "\"cpu-simd\" also appears in cpu_simd.jsonl (merge shards with `opcts report merge`, "
            "which checks them)");
}

TEST(Report, IncompleteRunFailsTheGate) {
  auto journals = LoadJournals({"vulkan.jsonl"});
  ASSERT_EQ(journals.size(), 1u);
  journals[0].journal.cases.resize(1);  // as if killed after the first case
  const auto report = BuildReport(journals, {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->gate_failures, 0u);
  EXPECT_FALSE(report->Passed());
  EXPECT_EQ(report->gate_problems,
            std::vector<std::string>{
                "vulkan.jsonl: only 1 of 4 planned cases are present (run incomplete?)"});
}

TEST(Levels, CompareByTheNumbersTheyHold) {
  EXPECT_LT(CompareLevels("4_1", "5_0"), 0);
  EXPECT_GT(CompareLevels("5_0", "4_1"), 0);
  EXPECT_LT(CompareLevels("2_1", "10_0"), 0);  // numerically, not as text
  EXPECT_LT(CompareLevels("opset3", "opset11"), 0);
  EXPECT_EQ(CompareLevels("4_0", "4_0"), 0);
  EXPECT_EQ(CompareLevels("04_1", "4_1"), 0);
  EXPECT_LT(CompareLevels("4", "4_0"), 0);  // a prefix first
  EXPECT_GT(CompareLevels("123456789012345678901234_0", "9_9"), 0);
  EXPECT_LT(CompareLevels("", "0_0"), 0);
  EXPECT_LT(CompareLevels("", "opset"), 0);
  EXPECT_GT(CompareLevels("2_1", ""), 0);
  EXPECT_EQ(CompareLevels("", ""), 0);
}

TEST(Levels, SameSchemeMeansSameSkeleton) {
  EXPECT_TRUE(SameLevelScheme("4_0", "5_1"));
  EXPECT_TRUE(SameLevelScheme("2_1", "10_12"));
  EXPECT_TRUE(SameLevelScheme("opset3", "OPSET11"));
  EXPECT_FALSE(SameLevelScheme("4_0", "opset3"));
  EXPECT_FALSE(SameLevelScheme("4_0", "4_0_1"));
  EXPECT_FALSE(SameLevelScheme("", "4_0"));
  EXPECT_TRUE(SameLevelScheme("", ""));
}

TEST(Levels, ParseRequirement) {
  auto global = ParseLevelRequirement("5_0");
  ASSERT_TRUE(global.ok()) << global.error().message;
  EXPECT_EQ(global->op, "");
  EXPECT_EQ(global->level, "5_0");
  auto one_op = ParseLevelRequirement("dml_cumulative_summation=4_0");
  ASSERT_TRUE(one_op.ok()) << one_op.error().message;
  EXPECT_EQ(one_op->op, "dml_cumulative_summation");
  EXPECT_EQ(one_op->level, "4_0");
  EXPECT_EQ(ParseLevelRequirement("=4_0").error().message,
            "\"=4_0\": the operator before '=' is empty");
  EXPECT_EQ(ParseLevelRequirement("DML_X=").error().message,
            "\"DML_X=\": the level after '=' is empty");
  EXPECT_EQ(ParseLevelRequirement("").error().message, "\"\": the level is empty");
  EXPECT_EQ(ParseLevelRequirement("a=b=1").error().message, "\"a=b=1\": more than one '='");
  EXPECT_EQ(ParseLevelRequirement("latest").error().message,
            "\"latest\": the level \"latest\" holds no number (levels look like 4_1 or opset3)");
}

TEST(Coverage, HighestLevelUpToWhichEveryCasePasses) {
  const Report report = BuildInline(ScatterLines());
  ASSERT_EQ(report.coverage.size(), 1u);
  const Coverage& entry = report.coverage[0];
  EXPECT_EQ(entry.backend, "ref");
  EXPECT_EQ(entry.op, "DML_SCATTER_ND");
  EXPECT_EQ(entry.levels, (std::vector<std::string>{"2_1", "3_0", "4_1", "5_0"}));
  EXPECT_EQ(entry.highest_passing, "3_0");  // 4_1 holds a NotSupported; 5_0 does not count
  EXPECT_EQ(entry.cases, 7u);               // the level "" case counts here only
  EXPECT_EQ(entry.passing, 5u);
  EXPECT_DOUBLE_EQ(entry.PassRate(), 5.0 / 7.0);
}

TEST(Coverage, FixtureEntriesInFirstAppearanceOrder) {
  const Report report = Build({"cpu_simd.jsonl", "vulkan.jsonl"});
  std::vector<std::string> names;
  for (const auto& entry : report.coverage) names.push_back(entry.backend + " " + entry.op);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "cpu-simd DML_CUMULATIVE_SUMMATION", "cpu-simd DML_CUMULATIVE_PRODUCT",
                       "cpu-simd DML_SCATTER_ND", "vulkan DML_CUMULATIVE_SUMMATION",
                       "vulkan DML_SCATTER_ND", "vulkan OPENVINO_CUMSUM_3"}));
  const Coverage* sum = FindCoverage(report, "cpu-simd", "DML_CUMULATIVE_SUMMATION");
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum->highest_passing, "2_1");  // QualityWarning passes unless strict
  EXPECT_EQ(sum->passing, 3u);
  const Coverage* product = FindCoverage(report, "cpu-simd", "DML_CUMULATIVE_PRODUCT");
  ASSERT_TRUE(product);
  EXPECT_EQ(product->highest_passing, "");
  EXPECT_EQ(product->passing, 0u);
  const Coverage* vulkan_sum = FindCoverage(report, "vulkan", "DML_CUMULATIVE_SUMMATION");
  ASSERT_TRUE(vulkan_sum);
  EXPECT_EQ(vulkan_sum->levels, (std::vector<std::string>{"2_1", "4_0"}));
  EXPECT_EQ(vulkan_sum->highest_passing, "2_1");  // 4_0 holds the ClaimViolation
}

TEST(Coverage, StrictQualityWarningAndWaivedAreNotPassing) {
  const Report strict = Build({"cpu_simd.jsonl"}, {}, /*strict=*/true);
  const Coverage* sum = FindCoverage(strict, "cpu-simd", "DML_CUMULATIVE_SUMMATION");
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum->highest_passing, "");
  EXPECT_EQ(sum->passing, 2u);
  Waiver waiver;
  waiver.id_glob = "*";
  waiver.reason = "everything";
  waiver.location = "w.yaml:1";
  const Report waived = Build({"cpu_simd.jsonl"}, {waiver});
  const Coverage* product = FindCoverage(waived, "cpu-simd", "DML_CUMULATIVE_PRODUCT");
  ASSERT_TRUE(product);
  EXPECT_EQ(product->passing, 0u);
  EXPECT_EQ(product->highest_passing, "");
}

TEST(Coverage, TableForTheTerminal) {
  EXPECT_EQ(RenderCoverageTable(Build({"cpu_simd.jsonl"})),
            "coverage per backend and operator:\n"
            "  backend   operator                  highest fully passing level  pass rate      "
            "levels\n"
            "  cpu-simd  DML_CUMULATIVE_SUMMATION  2_1                          100.0 % (3/3)  "
            "2_1\n"
            "  cpu-simd  DML_CUMULATIVE_PRODUCT    none                         0.0 % (0/2)    "
            "3_1\n"
            "  cpu-simd  DML_SCATTER_ND            3_0                          66.6 % (2/3)   "
            "3_0, 5_0\n");
  EXPECT_EQ(RenderCoverageTable(BuildInline({})), "");
}

TEST(Coverage, TableNeutralisesTerminalEscapes) {
  const std::string table =
      RenderCoverageTable(BuildInline({Case("x", "\x1b[2J\x1b]0;title\x07OP\nX", "1_0", "Pass")}));
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << table;
  EXPECT_NE(table.find("  ref      OP X      1_0"), std::string::npos) << table;
}

TEST(Report, RequiredLevelAboveAFailingLevelFailsTheGate) {
  const Report report = BuildInline(ScatterLines(), Requiring({{"", "4_1"}}));
  EXPECT_FALSE(report.Passed());
  const std::string problem =
      "ref DML_SCATTER_ND: highest fully passing level is 3_0, below the required 4_1 "
      "(1 of 5 cases up to 4_1 not passing)";
  EXPECT_EQ(report.unmet_requirements, std::vector<std::string>{problem});
  EXPECT_EQ(report.gate_problems, std::vector<std::string>{problem});
  EXPECT_EQ(report.gate_reasons.back(), problem);
}

TEST(Report, RequiredLevelUpToWhichEveryCasePassesHolds) {
  for (const char* level : {"2_1", "3_0", "3_5", "4_0"}) {
    const Report report = BuildInline(ScatterLines(), Requiring({{"", level}}));
    EXPECT_TRUE(report.unmet_requirements.empty()) << level << ": " << report.unmet_requirements[0];
  }
  // Levels without a case (the spec defines none there) do not count against it.
  const Report sparse = BuildInline(
      {Case("a", "OP", "2_1", "Pass"), Case("b", "OP", "5_0", "Fail")}, Requiring({{"op", "4_1"}}));
  EXPECT_TRUE(sparse.unmet_requirements.empty()) << sparse.unmet_requirements[0];
}

TEST(Report, RequirementOnAFailingFirstLevelSaysNone) {
  const Report report =
      BuildInline({Case("a", "OP", "2_1", "Waived"), Case("b", "OP", "2_1", "Pass")},
                  Requiring({{"OP", "2_1"}}));
  EXPECT_EQ(report.unmet_requirements,
            std::vector<std::string>{"ref OP: highest fully passing level is none, below the "
                                     "required 2_1 (1 of 2 cases up to 2_1 not passing)"});
}

TEST(Report, RequirementNamingAnOperatorAppliesIgnoringCase) {
  const auto lines = ScatterLines();
  EXPECT_TRUE(
      BuildInline(lines, Requiring({{"dml_scatter_nd", "3_0"}})).unmet_requirements.empty());
  EXPECT_EQ(
      BuildInline(lines, Requiring({{"dml_scatter_nd", "5_0"}})).unmet_requirements,
      std::vector<std::string>{"ref DML_SCATTER_ND: highest fully passing level is 3_0, below "
                               "the required 5_0 (1 of 6 cases up to 5_0 not passing)"});
}

TEST(Report, RequirementThatNothingRanForFails) {
  const auto lines = ScatterLines();
  EXPECT_EQ(BuildInline(lines, Requiring({{"DML_CUMULATIVE_SUMMATION", "4_0"}})).unmet_requirements,
            std::vector<std::string>{"--require DML_CUMULATIVE_SUMMATION=4_0: no case of operator "
                                     "DML_CUMULATIVE_SUMMATION was run"});
  EXPECT_EQ(BuildInline(lines, Requiring({{"", "opset3"}})).unmet_requirements,
            std::vector<std::string>{
                "--require-level opset3: no operator with levels like opset3 was run"});
  EXPECT_EQ(BuildInline(lines, Requiring({{"", "1_0"}})).unmet_requirements,
            std::vector<std::string>{"--require-level 1_0: no case at level 1_0 or below was run"});
  EXPECT_EQ(BuildInline(lines, Requiring({{"dml_scatter_nd", "opset3"}})).unmet_requirements,
            std::vector<std::string>{"--require dml_scatter_nd=opset3: ref DML_SCATTER_ND has "
                                     "levels like 2_1, not like opset3"});
}

TEST(Report, GlobalRequirementAppliesOnlyToItsScheme) {
  auto lines = ScatterLines();
  lines.push_back(Case("o.a", "OPENVINO_CUMSUM_3", "opset3", "Fail"));
  EXPECT_EQ(BuildInline(lines, Requiring({{"", "3_0"}})).unmet_requirements.size(), 0u);
  EXPECT_EQ(BuildInline(lines, Requiring({{"", "opset3"}})).unmet_requirements,
            std::vector<std::string>{"ref OPENVINO_CUMSUM_3: highest fully passing level is none, "
                                     "below the required opset3 (1 of 1 cases up to opset3 not "
                                     "passing)"});
}

TEST(Report, EmptyJournalFailsTheGate) {
  const Report report = BuildInline({});
  EXPECT_FALSE(report.Passed());
  EXPECT_EQ(report.gate_problems,
            std::vector<std::string>{"no case was judged (an empty selection proves nothing)"});
}

TEST(Report, BackendThatComputedNothingFailsTheGate) {
  const Report report = BuildInline({Case("a", "OP", "2_1", "NotSupported", "unclaimed"),
                                     Case("b", "OP", "2_1", "NotSupported"),
                                     Case("c", "OP", "2_1", "InvalidRejected", "invalid")});
  EXPECT_FALSE(report.Passed());
  EXPECT_EQ(report.gate_problems,
            std::vector<std::string>{"backend ref computed none of its 3 cases (2 NotSupported, "
                                     "1 InvalidRejected): nothing was proven"});
}

TEST(Report, InvalidOnlyRunNeedsNoComputedCase) {
  const Report report = BuildInline({Case("c", "OP", "2_1", "InvalidRejected", "invalid")});
  EXPECT_TRUE(report.Passed()) << report.gate_reasons[0];
}

TEST(Report, InterruptedRunFailsTheGate) {
  ReportOptions options;
  options.interrupted = "interrupted by SIGINT";
  const Report report = BuildInline({Case("a", "OP", "2_1", "Pass")}, options);
  EXPECT_FALSE(report.Passed());
  EXPECT_EQ(report.gate_problems,
            std::vector<std::string>{"the run was interrupted by SIGINT: the journal holds only "
                                     "the cases finished before it"});
}

TEST(Report, ALeakIsReportedAndFailsOnlyAStrictGate) {
  const std::string sound =
      R"({"type":"memory","backend":"ref","cases":2,"resident_first":100,"resident_last":120,)"
      R"("resident_peak":300,"growth_per_case":1.5,"leaking":false})";
  const std::string leak =
      R"({"type":"memory","backend":"ref","cases":200,"resident_first":1048576,)"
      R"("resident_last":210763776,"resident_peak":210763776,"growth_per_case":1048576,)"
      R"("leaking":true})";
  const std::vector<std::string> lines = {Case("c.a", "DML_SCATTER_ND", "2_1", "Pass"), sound,
                                          leak};
  const Report report = BuildInline(lines);
  ASSERT_EQ(report.backends.size(), 1u);
  EXPECT_EQ(report.backends[0].peak_resident_bytes, 210763776u);
  ASSERT_TRUE(report.backends[0].leak);
  EXPECT_EQ(report.backends[0].leak->cases, 200u);
  EXPECT_TRUE(report.Passed());

  ReportOptions strict;
  strict.strict = true;
  const Report strict_report = BuildInline(lines, strict);
  ASSERT_EQ(strict_report.gate_reasons.size(), 1u);
  EXPECT_EQ(strict_report.gate_reasons[0],
            "backend ref leaks memory (strict): resident memory grew steadily from 1.0 MiB to "
            "201 MiB over 200 cases (1.0 MiB per case)");
  EXPECT_TRUE(BuildInline({lines[0], sound}, strict).Passed());
}

TEST(Report, AGroupCarriesItsShrunkCase) {
  ShrunkRecord shrunk{"ref",
                      "c.b",
                      {2},
                      2,
                      40,
                      "shrunk/ref.c.b.json",
                      "opcts vectors --backend ref shrunk/ref.c.b.json"};
  const std::string line = ToJsonLine(shrunk);
  const auto fail = [](const std::string& id, const std::string& shape) {
    return CaseLineWith("ref", id, "Fail",
                        {{"op", "DML_SCATTER_ND"}, {"shape", nlohmann::json::parse(shape)}});
  };
  const Report report = BuildInline({fail("c.a", "[8,8]"), fail("c.b", "[5,8]"), line});
  ASSERT_EQ(report.failure_groups.size(), 1u);
  ASSERT_TRUE(report.failure_groups[0].minimal);
  EXPECT_EQ(report.failure_groups[0].minimal->repro, shrunk.repro);
  EXPECT_EQ(report.failure_groups[0].minimal->shape, (std::vector<uint32_t>{2}));
  EXPECT_EQ(report.failure_groups[0].minimal->original_elements, 40u);
  // Only the shrunk record of the group's smallest case counts.
  shrunk.id = "c.a";
  EXPECT_FALSE(BuildInline({fail("c.a", "[8,8]"), fail("c.b", "[5,8]"), ToJsonLine(shrunk)})
                   .failure_groups[0]
                   .minimal);
}

TEST(Report, AllPassingJournalPasses) {
  const Report report = Build({"shard0of3.jsonl"});
  EXPECT_TRUE(report.Passed());
  EXPECT_EQ(report.gate_failures, 0u);
  EXPECT_TRUE(report.failure_groups.empty());
}

}  // namespace
}  // namespace opcts
