#include "cli/cmd_report.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include "reports/atomic_file.h"
#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::CaseLine;
using testing::CaseLineWith;
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

// The names of the files in `dir`, sorted.
std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A journal of backend "ref" whose cases are `lines`.
std::string JournalText(const std::vector<std::string>& lines) {
  std::string text = HeaderLine("ref") + "\n";
  for (const auto& line : lines) text += line + "\n";
  return text;
}

std::string LeveledCase(const std::string& id, const std::string& level,
                        const std::string& status) {
  return CaseLineWith("ref", id, status,
                      {{"op", "DML_SCATTER_ND"}, {"level", level}, {"group", "valid"}});
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
  EXPECT_TRUE(Contains(ReadFile(dir / "r.json"), "\"format\": \"opcts-report/2\""));
}

TEST(ReportCli, PassingJournalExitsZero) {
  const CliRun run = Report({Testdata("shard0of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitPass) << run.err;
  EXPECT_EQ(
      run.out,
      "coverage per backend and operator:\n"
      "  backend        operator                  highest fully passing level  pass rate      "
      "levels\n"
      "  cpu-reference  DML_CUMULATIVE_SUMMATION  none                         100.0 % (2/2)  "
      "-\n"
      "opcts report: 2 cases (Pass 2): gate passed\n");
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
  EXPECT_EQ(run.err,
            "opcts report: /nonexistent/dir/r.html: cannot write: No such file or directory\n");
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

TEST(ReportCli, HelpAnywherePrintsUsage) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"x.jsonl", "--help"},
                                             {"--bogus", "-h"},
                                             {"diff", "base.jsonl", "--help"},
                                             {"merge", "-o", "out.jsonl", "-h", "shard.jsonl"}}) {
    const CliRun run = Report(args);
    EXPECT_EQ(run.code, kReportExitPass) << args[0];
    EXPECT_TRUE(Contains(run.out, "usage:\n  opcts report [--json F]")) << run.out;
    EXPECT_EQ(run.err, "");
  }
  // After "--", "-h" is a journal name.
  EXPECT_EQ(Report({"--", "-h"}).err, "opcts report: -h: cannot open for reading\n");
}

TEST(ReportCli, SingleValuedOptionGivenTwiceIsAUsageError) {
  const CliRun run = Report({"--json", "a.json", "--json=b.json", Testdata("shard0of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err.rfind("opcts report: option --json given twice\nusage:", 0), 0u) << run.err;
}

TEST(ReportCli, RepeatedWaiverFilesAllApply) {
  ScratchDir dir;
  WriteFile(dir / "a.yaml",
            "waivers:\n  - id: \"dml_cumulative_product.f32.rank2.axis0.s1\"\n"
            "    reason: first\n");
  WriteFile(dir / "b.yaml",
            "waivers:\n  - id: \"dml_cumulative_product.f32.rank2.axis1.s1\"\n"
            "    reason: second\n");
  const CliRun one = Report({"--waivers", dir / "a.yaml", Testdata("cpu_simd.jsonl")});
  EXPECT_EQ(one.code, kReportExitGateFailed);
  const CliRun both = Report(
      {"--waivers", dir / "a.yaml", "--waivers", dir / "b.yaml", Testdata("cpu_simd.jsonl")});
  EXPECT_EQ(both.code, kReportExitPass) << both.out;
  EXPECT_TRUE(Contains(both.out, "Waived 2")) << both.out;
}

TEST(ReportCli, RequireLevelGatesOnCoverage) {
  ScratchDir dir;
  WriteFile(dir / "j.jsonl",
            JournalText({LeveledCase("a", "2_1", "Pass"), LeveledCase("b", "3_0", "Pass"),
                         LeveledCase("c", "4_1", "NotSupported")}));
  EXPECT_EQ(Report({"--require-level", "3_0", dir / "j.jsonl"}).code, kReportExitPass);
  const CliRun run = Report({"--require-level=3_0", "--require", "dml_scatter_nd=4_1",
                             "--require-level", "opset3", dir / "j.jsonl"});
  EXPECT_EQ(run.code, kReportExitGateFailed) << run.err;
  EXPECT_TRUE(Contains(run.out,
                       "  - ref DML_SCATTER_ND: highest fully passing level is 3_0, below the "
                       "required 4_1 (1 of 3 cases up to 4_1 not passing)\n"))
      << run.out;
  EXPECT_TRUE(Contains(
      run.out, "  - --require-level opset3: no operator with levels like opset3 was run\n"));
  EXPECT_TRUE(Contains(run.out, "  ref      DML_SCATTER_ND  3_0  "));
}

TEST(ReportCli, MalformedRequirementIsAUsageError) {
  for (const auto& [option, value, message] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"--require-level", "", "--require-level \"\": the level is empty"},
           {"--require-level", "op=4_0", "--require-level takes a LEVEL; use --require OP=LEVEL"},
           {"--require", "4_0", "--require takes OP=LEVEL (e.g. dml_scatter_nd=4_1), not \"4_0\""},
           {"--require", "=4_0", "--require \"=4_0\": the operator before '=' is empty"},
           {"--require", "op=new", "the level \"new\" holds no number"}}) {
    const CliRun run = Report({option, value, Testdata("shard0of3.jsonl")});
    EXPECT_EQ(run.code, kReportExitBadInput) << option << " " << value;
    EXPECT_TRUE(Contains(run.err, message)) << run.err;
    EXPECT_TRUE(Contains(run.err, "usage:")) << run.err;
  }
  EXPECT_EQ(Report({"diff", "--require", "x", "a", "b"}).code, kReportExitBadInput);
}

TEST(ReportCli, VerdictNeutralisesTerminalEscapes) {
  ScratchDir dir;
  WriteFile(dir / "j.jsonl",
            HeaderLine("evil") + "\n" + CaseLine("\\u001b[2K\\rPass evil", "x", "Fail") + "\n");
  const CliRun run = Report({dir / "j.jsonl"});
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find('\r'), std::string::npos) << run.out;
  EXPECT_TRUE(Contains(run.out, "  - backend  Pass evil computed none of its 1 cases (1 Fail)"))
      << run.out;
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
  // "a" passed in BASE and is absent from NEW: missing and its coverage lost.
  EXPECT_EQ(Report({"diff", "--allow-missing", dir / "better.jsonl", dir / "fewer.jsonl"}).code,
            kReportExitGateFailed);
  EXPECT_EQ(Report({"diff", "--allow-missing", "--allow-coverage-loss", dir / "better.jsonl",
                    dir / "fewer.jsonl"})
                .code,
            kReportExitPass);
  // "b" failed in BASE: its absence loses no coverage.
  EXPECT_EQ(Report({"diff", "--allow-missing", dir / "base.jsonl", dir / "fewer.jsonl"}).code,
            kReportExitPass);
  EXPECT_EQ(Report({"diff", dir / "base.jsonl", "/nonexistent.jsonl"}).code, kReportExitBadInput);
}

TEST(ReportCli, DiffFailsWhenAPassingCaseTurnsNotSupported) {
  ScratchDir dir;
  const std::string header = HeaderLine("ref") + "\n";
  WriteFile(dir / "base.jsonl",
            header + CaseLine("ref", "a", "Pass") + "\n" + CaseLine("ref", "b", "Pass") + "\n");
  WriteFile(dir / "new.jsonl", header + CaseLine("ref", "a", "Pass") + "\n" +
                                   CaseLine("ref", "b", "NotSupported", "gave up") + "\n");
  CliRun run = Report({"diff", dir / "base.jsonl", dir / "new.jsonl"});
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_TRUE(Contains(run.out,
                       "Coverage lost (fails the diff) (1):\n  ref b: Pass -> "
                       "NotSupported\n    gave up\n"))
      << run.out;
  run = Report({"diff", "--allow-coverage-loss", dir / "base.jsonl", dir / "new.jsonl"});
  EXPECT_EQ(run.code, kReportExitPass);
  EXPECT_TRUE(Contains(run.out, "Coverage lost (allowed) (1):")) << run.out;
}

TEST(ReportCli, DiffAgainstAnEmptyNewFails) {
  ScratchDir dir;
  WriteFile(dir / "base.jsonl", HeaderLine("ref") + "\n" + CaseLine("ref", "a", "Pass") + "\n");
  WriteFile(dir / "empty.jsonl", HeaderLine("ref") + "\n");
  const CliRun run = Report({"diff", "--allow-missing", "--allow-coverage-loss", dir / "base.jsonl",
                             dir / "empty.jsonl"});
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_EQ(run.out, "diff: NEW " + dir / "empty.jsonl" +
                         " holds no case: nothing was compared, nothing was proven: REGRESSED\n");
}

TEST(ReportCli, DiffFailsOnAnUnmetRequirementOfNew) {
  ScratchDir dir;
  WriteFile(dir / "j.jsonl", JournalText({LeveledCase("a", "2_1", "Pass")}));
  const CliRun run =
      Report({"diff", "--require", "DML_SCATTER_ND=opset3", dir / "j.jsonl", dir / "j.jsonl"});
  EXPECT_EQ(run.code, kReportExitGateFailed);
  EXPECT_TRUE(Contains(run.out, "Required levels not met in NEW (fails the diff) (1):")) << run.out;
}

TEST(ReportCli, MergeWritesJournalAndRejectsBadShardSets) {
  ScratchDir dir;
  CliRun run = Report({"merge", "-o", dir / "all.jsonl", Testdata("shard1of3.jsonl"),
                       Testdata("shard0of3.jsonl"), Testdata("shard2of3.jsonl")});
  EXPECT_EQ(run.code, kReportExitPass) << run.err;
  EXPECT_TRUE(Contains(run.out, "3 shard(s), 6 cases")) << run.out;
  const auto merged = ReadJournal(dir / "all.jsonl");
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->cases.size(), 6u);
  ASSERT_EQ(merged->memory.size(), 1u) << "the worker memory of shard 1 is kept";
  EXPECT_EQ(merged->memory[0].peak_bytes, 35200000u);
  EXPECT_EQ(merged->header.shard_count, 1u);
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

TEST(ReportCli, MergeOfShardsWithoutCasesExitsTwo) {
  ScratchDir dir;
  WriteFile(dir / "s0.jsonl", HeaderLine("ref", 1, 0, 2) + "\n");
  WriteFile(dir / "s1.jsonl", HeaderLine("ref", 1, 1, 2) + "\n");
  const CliRun run = Report({"merge", "-o", dir / "all.jsonl", dir / "s0.jsonl", dir / "s1.jsonl"});
  EXPECT_EQ(run.code, kReportExitBadInput);
  EXPECT_EQ(run.err, "opcts report merge: the shards hold no case (nothing to merge)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "all.jsonl"));
}

TEST(ReportCli, WriteReportSetWritesFourFilesAndTheVerdict) {
  ScratchDir dir;
  std::ostringstream out, err;
  ReportOptions options;
  options.today = "2026-01-01";
  options.interrupted = "interrupted by SIGTERM";
  const int code = WriteReportSet({Testdata("shard0of3.jsonl")}, options, dir / "", out, err);
  EXPECT_EQ(code, kReportExitGateFailed) << err.str();
  EXPECT_EQ(Listing(dir / ""),
            (std::vector<std::string>{"junit.xml", "report.html", "summary.json", "summary.md"}));
  EXPECT_TRUE(Contains(out.str(), "coverage per backend and operator:\n")) << out.str();
  EXPECT_TRUE(Contains(out.str(), "): gate FAILED\n  - the run was interrupted by SIGTERM: "))
      << out.str();
  EXPECT_TRUE(Contains(ReadFile(dir / "summary.json"), "interrupted by SIGTERM"));
}

TEST(ReportCli, WriteReportSetThatCannotWriteClaimsNothing) {
  ScratchDir dir;
  WriteFile(dir / "summary.json", "the previous summary");
  std::filesystem::create_directory(dir / "junit.xml");  // in the way of the second file
  std::ostringstream out, err;
  const int code = WriteReportSet({Testdata("shard0of3.jsonl")}, {}, dir / "", out, err);
  EXPECT_EQ(code, kReportExitBadInput);
  EXPECT_EQ(err.str(), "opcts report: " + dir / "junit.xml" + ": cannot write: Is a directory\n");
  EXPECT_EQ(out.str(), "");  // no verdict, no "gate passed"
  EXPECT_EQ(Listing(dir / ""), (std::vector<std::string>{"junit.xml", "summary.json"}));
  EXPECT_TRUE(std::filesystem::is_directory(dir / "junit.xml"));
  EXPECT_TRUE(Contains(ReadFile(dir / "summary.json"), "\"format\": \"opcts-report/2\""));

  std::ostringstream missing_out, missing_err;
  EXPECT_EQ(WriteReportSet({Testdata("shard0of3.jsonl")}, {}, dir / "no/such/dir", missing_out,
                           missing_err),
            kReportExitBadInput);
  EXPECT_EQ(missing_err.str(), "opcts report: " + dir / "no/such/dir/summary.json" +
                                   ": cannot write: No such file or directory\n");
  EXPECT_EQ(WriteReportSet({"/nonexistent.jsonl"}, {}, dir / "", missing_out, missing_err),
            kReportExitBadInput);
}

TEST(ReportFiles, AtomicWriteReplacesWholeOrLeavesTheTargetAlone) {
  ScratchDir dir;
  WriteFile(dir / "r.json", "old");
  EXPECT_TRUE(WriteFileAtomically(dir / "r.json", "new text").ok());
  EXPECT_EQ(ReadFile(dir / "r.json"), "new text");
  std::filesystem::create_directory(dir / "d");
  WriteFile(dir / "d" + "/inside", "kept");
  const Result<void> directory = WriteFileAtomically(dir / "d", "text");
  EXPECT_EQ(directory.error().message, dir / "d" + ": cannot write: Is a directory");
  EXPECT_EQ(directory.error().code, ErrorCode::kIo);
  EXPECT_EQ(directory.error().native_code, EISDIR);
  EXPECT_EQ(ReadFile(dir / "d" + "/inside"), "kept");
  EXPECT_EQ(Listing(dir / ""), (std::vector<std::string>{"d", "r.json"}));  // no temporary left
  EXPECT_EQ(WriteFileAtomically(dir / "none/r.json", "x").error().message,
            dir / "none/r.json" + ": cannot write: No such file or directory");
}

}  // namespace
}  // namespace opcts
