#include "reports/report_cli.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::CaseLine;
using testing::HeaderLine;
using testing::ReadFile;
using testing::ScratchDir;
using testing::Testdata;
using testing::WriteFile;

struct CliRun {
  int code;
  std::string out, err;
};

CliRun Report(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = ReportMain(args, out, err);
  return {code, out.str(), err.str()};
}

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(ReportCli, RendersEveryFormatAndFailsTheGate) {
  ScratchDir dir;
  const CliRun run =
      Report({"--json", dir / "r.json", "--junit", dir / "r.xml", "--markdown", dir / "r.md",
              "--html=" + dir / "r.html", Testdata("cpu_simd.jsonl"), Testdata("vulkan.jsonl")});
  EXPECT_EQ(run.code, kReportExitGateFailed) << run.err;
  EXPECT_TRUE(Contains(run.out, "opcts report: 12 cases (")) << run.out;
  EXPECT_TRUE(Contains(run.out, "): gate FAILED\n  - 2 case(s) with status Fail\n")) << run.out;
  for (const char* name : {"r.json", "r.xml", "r.md", "r.html"}) {
    EXPECT_GT(std::filesystem::file_size(dir / name), 500u) << name;
  }
  EXPECT_TRUE(Contains(ReadFile(dir / "r.json"), "\"format\": \"opcts-report/1\""));
}

TEST(ReportCli, PassingJournalExitsZero) {
  const CliRun run = Report({Testdata("shard0of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitPass) << run.err;
  EXPECT_EQ(run.out, "opcts report: 2 cases (Pass 2): gate passed\n");
}

TEST(ReportCli, ActiveWaiversLetTheGatePass) {
  const CliRun run = Report(
      {"--waivers", Testdata("waivers.yaml"), "--today", "2026-01-01", Testdata("cpu_simd.jsonl")});
  EXPECT_EQ(run.code, kReportExitPass) << run.out << run.err;
  EXPECT_TRUE(Contains(run.out, "Waived 2")) << run.out;
  // The vulkan and openvino waivers match nothing in this journal.
  EXPECT_TRUE(Contains(run.err,
                       "waivers.yaml:7: waiver for id \"dml_scatter_nd.i32.*\" (backend "
                       "\"vulkan\") matched no failing case"))
      << run.err;
}

TEST(ReportCli, ExpiredWaiverFailsTheGate) {
  const CliRun run = Report(
      {"--waivers", Testdata("waivers.yaml"), "--today", "2100-01-01", Testdata("cpu_simd.jsonl")});
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_TRUE(Contains(run.out,
                       "waivers.yaml:3: waiver for id \"dml_cumulative_product.f32.*\" "
                       "(backend \"cpu-simd\") expired on 2099-12-31 and still matches 2 "
                       "failing case(s)"))
      << run.out;
}

TEST(ReportCli, StrictFailsOnQualityWarning) {
  const std::vector<std::string> base = {"--waivers", Testdata("waivers.yaml"), "--today",
                                         "2026-01-01", Testdata("cpu_simd.jsonl")};
  std::vector<std::string> strict = base;
  strict.insert(strict.begin(), "--strict");
  EXPECT_EQ(Report(base).code, kReportExitPass);
  const CliRun run = Report(strict);
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_TRUE(Contains(run.out, "1 case(s) with status QualityWarning")) << run.out;
}

TEST(ReportCli, MarkdownToStdoutMovesVerdictToStderr) {
  const CliRun run = Report({"--markdown", "-", Testdata("shard0of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitPass);
  EXPECT_EQ(run.out.rfind("## opcts conformance: ✅ passed", 0), 0u) << run.out;
  EXPECT_TRUE(Contains(run.err, "gate passed"));
}

TEST(ReportCli, BadInputExitsTwoNamingFileAndLine) {
  ScratchDir dir;
  WriteFile(dir / "bad.jsonl",
            HeaderLine("b") + "\n{\"type\":\"case\",\n" + CaseLine("b", "x", "Pass") + "\n");
  CliRun run = Report({dir / "bad.jsonl"});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err, "opcts report: " + dir / "bad.jsonl" + ":2: not valid JSON\n");

  run = Report({"/nonexistent/j.jsonl"});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err, "opcts report: /nonexistent/j.jsonl: cannot open for reading\n");

  WriteFile(dir / "w.yaml", "waivers:\n  - id: x\n    reason: r\n    expires: soon\n");
  run = Report({"--waivers", dir / "w.yaml", Testdata("cpu_simd.jsonl")});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err, "opcts report: " + dir / "w.yaml" +
                         ":4: field \"expires\": \"soon\" is not a date YYYY-MM-DD\n");

  run = Report({Testdata("cpu_simd.jsonl"), Testdata("cpu_simd.jsonl")});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_TRUE(Contains(run.err, "also appears in")) << run.err;

  run = Report({"--html", "/nonexistent/dir/r.html", Testdata("shard0of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err, "opcts report: /nonexistent/dir/r.html: cannot write\n");
}

TEST(ReportCli, TornLastLineIsAWarning) {
  ScratchDir dir;
  const std::string line = CaseLine("b", "y", "Pass");
  WriteFile(dir / "torn.jsonl",
            HeaderLine("b") + "\n" + CaseLine("b", "x", "Pass") + "\n" + line.substr(0, 25));
  const CliRun run = Report({dir / "torn.jsonl"});
  EXPECT_EQ(run.code, kReportExitPass);
  EXPECT_TRUE(Contains(run.err, "torn.jsonl:3: dropped an incomplete last line")) << run.err;
}

TEST(ReportCli, UsageErrorsExitTwo) {
  for (const auto& args : std::vector<std::vector<std::string>>{{},
                                                                {"--bogus", "x.jsonl"},
                                                                {"--json"},
                                                                {"--strict"},
                                                                {"--today", "tomorrow", "x"},
                                                                {"diff", "only-one.jsonl"},
                                                                {"merge", "shard.jsonl"},
                                                                {"merge", "-o", "out.jsonl"}}) {
    const CliRun run = Report(args);
    EXPECT_EQ(run.code, kReportExitBadInput) << (args.empty() ? "(none)" : args[0]);
    EXPECT_TRUE(Contains(run.err, "opcts report: ")) << run.err;
  }
  const CliRun help = Report({"--help"});
  EXPECT_EQ(help.code, kReportExitPass);
  EXPECT_TRUE(Contains(help.out, "opcts report merge -o OUT SHARD_JOURNAL..."));
}

TEST(ReportCli, DiffExitCodes) {
  ScratchDir dir;
  const std::string header = HeaderLine("ref") + "\n";
  WriteFile(dir / "base.jsonl",
            header + CaseLine("ref", "a", "Pass") + "\n" + CaseLine("ref", "b", "Fail") + "\n");
  WriteFile(dir / "worse.jsonl",
            header + CaseLine("ref", "a", "Crash") + "\n" + CaseLine("ref", "b", "Fail") + "\n");
  WriteFile(dir / "better.jsonl",
            header + CaseLine("ref", "a", "Pass") + "\n" + CaseLine("ref", "b", "Pass") + "\n");
  WriteFile(dir / "fewer.jsonl", header + CaseLine("ref", "a", "Pass") + "\n");

  CliRun run = Report({"diff", dir / "base.jsonl", dir / "worse.jsonl"});
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_TRUE(Contains(run.out, "Regressions (1):\n  ref a: Pass -> Crash\n")) << run.out;

  run = Report({"diff", dir / "base.jsonl", dir / "better.jsonl"});
  EXPECT_EQ(run.code, kReportExitPass) << run.out;
  EXPECT_TRUE(Contains(run.out, "Fixed (1):\n  ref b: Fail -> Pass\n")) << run.out;

  EXPECT_EQ(Report({"diff", dir / "base.jsonl", dir / "fewer.jsonl"}).code, kReportExitGateFailed);
  EXPECT_EQ(Report({"diff", "--allow-missing", dir / "base.jsonl", dir / "fewer.jsonl"}).code,
            kReportExitPass);
  EXPECT_EQ(Report({"diff", dir / "base.jsonl", "/nonexistent.jsonl"}).code, kReportExitBadInput);
}

TEST(ReportCli, MergeWritesJournalAndRejectsBadShardSets) {
  ScratchDir dir;
  CliRun run = Report({"merge", "-o", dir / "all.jsonl", Testdata("shard1of3.jsonl"),
                       Testdata("shard0of3.jsonl"), Testdata("shard2of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitPass) << run.err;
  EXPECT_TRUE(Contains(run.out, "3 shard(s), 6 cases")) << run.out;
  const auto merged = ReadJournal(dir / "all.jsonl");
  ASSERT_TRUE(merged.value) << merged.error;
  EXPECT_EQ(merged.value->cases.size(), 6u);
  EXPECT_EQ(merged.value->header.shard_count, 1u);
  // The merged journal renders and passes (all 6 planned cases present).
  EXPECT_EQ(Report({dir / "all.jsonl"}).code, kReportExitPass);

  run = Report(
      {"merge", "-o", dir / "x.jsonl", Testdata("shard0of3.jsonl"), Testdata("shard2of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err, "opcts report: missing shard(s) 1 of 3 (shards are numbered 0 to 2)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "x.jsonl"));

  run = Report({"merge", "-o", dir / "x.jsonl", Testdata("shard0of3.jsonl"),
                Testdata("shard0of3.jsonl"), Testdata("shard1of3.jsonl"),
                Testdata("shard2of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_TRUE(Contains(run.err, "shard 0/3 given twice")) << run.err;
}

}  // namespace
}  // namespace opcts
