// --float-rules, proven with a backend that follows Direct3D's FLOAT32 rules instead of IEEE 754
// (platform_float_plugin.cc): its DirectML results pass under the default platform rules with
// what it did recorded in the journal, exactly those results fail under `--float-rules ieee`, and
// on OpenVINO, whose documents grant no rule, they fail either way. Its IEEE mode is the control:
// everything passes, under both rules.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "base/shell_output.h"
#include "base/shell_word.h"
#include "conformance/case_run.h"
#include "conformance/plugin_loader.h"
#include "conformance/runner.h"
#include "conformance/vector_check.h"
#include "reports/html_report.h"
#include "reports/journal.h"
#include "reports/json_summary.h"
#include "reports/markdown_report.h"
#include "reports/report_model.h"

namespace opcts {
namespace {

constexpr const char* kFlushes = "flushes FLOAT32 subnormals";
constexpr const char* kTruncates = "truncates FLOAT32 arithmetic";
const std::string kBoth = std::string(kFlushes) + " and " + kTruncates;

const SpecSet& Specs() {
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  return specs;
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("opcts-platform-float-" + name)).string();
}

struct PluginRun {
  RunResult result;
  Journal journal;
  std::string log;

  std::set<std::string> WithStatus(Status status) const {
    std::set<std::string> ids;
    for (const CaseRecord& r : journal.cases)
      if (r.status == status) ids.insert(r.id);
    return ids;
  }
  std::set<std::string> WithBehaviour() const {
    std::set<std::string> ids;
    for (const CaseRecord& r : journal.cases)
      if (!r.behaviour.empty()) ids.insert(r.id);
    return ids;
  }
};

// A run of the FLOAT32 cases of `ops` on the plugin in `mode`, judged with `rules`.
RunOptions PluginOptions(const std::string& mode, const std::vector<std::string>& ops,
                         FloatRules rules) {
  RunOptions options;
  options.backends = {OPCTS_PLATFORM_FLOAT_PLUGIN};
  options.backend_options = "mode=" + mode;
  options.filter.ops = ops;
  options.filter.dtypes = {"FLOAT32"};
  options.float_rules = rules;
  options.progress = false;
  return options;
}

PluginRun RunPlugin(const std::string& mode, const std::vector<std::string>& ops,
                    FloatRules rules) {
  EXPECT_TRUE(Specs().errors.empty());
  RunOptions options = PluginOptions(mode, ops, rules);
  options.journal =
      TempPath(mode + "-" + ops[0] + "-" + std::string(FloatRulesName(rules)) + ".jsonl");
  PluginRun run;
  std::ostringstream log;
  run.result = RunConformance(Specs(), options, log, log);
  run.log = log.str();
  Result<Journal> journal = ReadJournal(options.journal);
  EXPECT_TRUE(journal) << journal.error().message;
  if (journal) run.journal = std::move(journal).value();
  EXPECT_EQ(run.journal.header.options["float_rules"], FloatRulesName(rules));
  EXPECT_GT(run.journal.cases.size(), 100u);
  return run;
}

const std::vector<std::string> kDirectML = {"dml_cumulative_summation", "dml_cumulative_product"};
const std::vector<std::string> kOpenVINO = {"openvino_cumsum_3"};

// Under the platform rules every case passes the gate, those needing the rules saying what they
// did; under IEEE exactly those fail, and every other case keeps its status.
void ExpectPlatformRulesDecide(const std::string& mode, const std::set<std::string>& allowed) {
  const PluginRun platform = RunPlugin(mode, kDirectML, FloatRules::kPlatform);
  const PluginRun ieee = RunPlugin(mode, kDirectML, FloatRules::kIeee);
  EXPECT_EQ(platform.result.exit_code, 0) << platform.log;
  const std::set<std::string> needed = platform.WithBehaviour();
  EXPECT_FALSE(needed.empty()) << mode << ": no generated case shows the behaviour";
  for (const CaseRecord& r : platform.journal.cases) {
    EXPECT_FALSE(IsGateFailure(r.status, false)) << r.id << ": " << r.message;
    if (r.behaviour.empty()) continue;
    EXPECT_EQ(r.status, Status::kPass) << r.id;
    EXPECT_EQ(allowed.count(r.behaviour), 1u) << r.id << ": " << r.behaviour;
    EXPECT_NE(r.message.find("passes under the DirectML platform rules: " + r.behaviour),
              std::string::npos)
        << r.id << ": " << r.message;
  }
  EXPECT_EQ(ieee.result.exit_code, 1) << ieee.log;
  EXPECT_EQ(ieee.WithStatus(Status::kFail), needed);
  EXPECT_TRUE(ieee.WithBehaviour().empty());
  ASSERT_EQ(ieee.journal.cases.size(), platform.journal.cases.size());
  for (size_t i = 0; i < ieee.journal.cases.size(); ++i) {
    const CaseRecord& r = ieee.journal.cases[i];
    if (!needed.count(r.id)) {
      EXPECT_EQ(r.status, platform.journal.cases[i].status) << r.id;
    }
  }
}

TEST(PlatformFloat, IeeeControlPassesUnderBothRules) {
  for (const FloatRules rules : {FloatRules::kPlatform, FloatRules::kIeee}) {
    for (const auto& ops : {kDirectML, kOpenVINO}) {
      const PluginRun run = RunPlugin("ieee", ops, rules);
      EXPECT_EQ(run.result.exit_code, 0) << run.log;
      EXPECT_TRUE(run.WithBehaviour().empty());
      EXPECT_TRUE(run.WithStatus(Status::kFail).empty()) << run.log;
      EXPECT_FALSE(run.WithStatus(Status::kPass).empty());
    }
  }
}

TEST(PlatformFloat, FlushingPassesOnlyUnderThePlatformRules) {
  ExpectPlatformRulesDecide("flush", {kFlushes});
}

TEST(PlatformFloat, TruncationPassesOnlyUnderThePlatformRules) {
  ExpectPlatformRulesDecide("truncate", {kTruncates});
}

TEST(PlatformFloat, BothBehavioursAreRecorded) {
  ExpectPlatformRulesDecide("flush-truncate", {kFlushes, kTruncates, kBoth});
}

TEST(PlatformFloat, OpenVINOGrantsNoRule) {
  const PluginRun platform = RunPlugin("flush-truncate", kOpenVINO, FloatRules::kPlatform);
  const PluginRun ieee = RunPlugin("flush-truncate", kOpenVINO, FloatRules::kIeee);
  EXPECT_EQ(platform.result.exit_code, 1) << platform.log;
  EXPECT_EQ(ieee.result.exit_code, 1) << ieee.log;
  EXPECT_FALSE(platform.WithStatus(Status::kFail).empty());
  EXPECT_EQ(platform.WithStatus(Status::kFail), ieee.WithStatus(Status::kFail));
  EXPECT_TRUE(platform.WithBehaviour().empty());
}

// Hand-checked vectors (testing/float_rules/*.json) that need one rule each.
struct VectorRule {
  const char* file;
  const char* mode;
  const char* behaviour;  // under the platform rules; "" : no rule helps (OpenVINO)
};

void PrintTo(const VectorRule& v, std::ostream* out) {
  *out << v.file << " (mode=" << v.mode << ")";
}

class PlatformFloatVector : public testing::TestWithParam<VectorRule> {};

TEST_P(PlatformFloatVector, PassesOnlyWhereARuleAllowsIt) {
  const VectorRule& v = GetParam();
  const Result<TestVector> vector =
      LoadVectorFile(std::string(OPCTS_FLOAT_RULES_VECTORS) + "/" + v.file, Specs());
  ASSERT_TRUE(vector) << vector.error().message;
  // The expected values are IEEE 754's: right under the strict rules, and the IEEE control agrees.
  EXPECT_TRUE(CheckVectorAgainstReference(*vector, FloatRules::kIeee).ok);
  const PluginLoad control = LoadPlugin(OPCTS_PLATFORM_FLOAT_PLUGIN, "mode=ieee");
  ASSERT_TRUE(control) << control.error().message;
  EXPECT_EQ(RunVector(**control, *vector, {.float_rules = FloatRules::kIeee}).outcome.status,
            Status::kPass);

  const PluginLoad plugin = LoadPlugin(OPCTS_PLATFORM_FLOAT_PLUGIN, std::string("mode=") + v.mode);
  ASSERT_TRUE(plugin) << plugin.error().message;
  const CaseVerdict platform = RunVector(**plugin, *vector, {.float_rules = FloatRules::kPlatform});
  const CaseVerdict ieee = RunVector(**plugin, *vector, {.float_rules = FloatRules::kIeee});
  EXPECT_EQ(ieee.outcome.status, Status::kFail) << ieee.outcome.message;
  EXPECT_EQ(ieee.outcome.behaviour, "");
  if (std::string(v.behaviour).empty()) {
    EXPECT_EQ(platform.outcome.status, Status::kFail) << platform.outcome.message;
    EXPECT_EQ(platform.outcome.behaviour, "");
  } else {
    EXPECT_EQ(platform.outcome.status, Status::kPass) << platform.outcome.message;
    EXPECT_EQ(platform.outcome.behaviour, v.behaviour);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Vectors, PlatformFloatVector,
    testing::Values(VectorRule{"dml_cumulative_summation_flush.json", "flush", kFlushes},
                    VectorRule{"dml_cumulative_summation_truncation.json", "truncate", kTruncates},
                    VectorRule{"openvino_cumsum_flush.json", "flush", ""},
                    VectorRule{"openvino_cumsum_truncation.json", "truncate", ""}),
    [](const auto& info) {
      std::string name = std::filesystem::path(info.param.file).stem().string();
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

// The journal says which rules judged it and which options created the backend: a resumed run
// must use the same rules, and the reports show both and count the cases only the platform's rules
// passed.
TEST(PlatformFloat, JournalAndReportsSayWhichRulesJudged) {
  const PluginRun run = RunPlugin("flush", {"dml_cumulative_summation"}, FloatRules::kPlatform);
  const std::string journal = TempPath("flush-dml_cumulative_summation-platform.jsonl");
  RunOptions resume = PluginOptions("flush", {"dml_cumulative_summation"}, FloatRules::kIeee);
  resume.resume = journal;
  std::ostringstream log;
  EXPECT_EQ(RunConformance(Specs(), resume, log, log).exit_code, 2);
  EXPECT_NE(log.str().find("option float_rules: 'platform' in the journal, 'ieee' now"),
            std::string::npos)
      << log.str();

  const Result<Report> report = BuildReport({{journal, run.journal}}, {}, {});
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->backends.size(), 1u);
  EXPECT_EQ(report->backends[0].platform_rule_passes, run.WithBehaviour().size());
  EXPECT_EQ(report->backends[0].behaviours.at(kFlushes), run.WithBehaviour().size());
  EXPECT_EQ(RecordedOptionOf(*report, "float_rules"), "platform");
  EXPECT_EQ(RecordedOptionOf(*report, "backend_options"), "mode=flush");
  const std::string markdown = RenderMarkdown(*report);
  EXPECT_NE(markdown.find("Backends created with `--backend-options mode=flush`. Float results "
                          "judged with `--float-rules platform`."),
            std::string::npos)
      << markdown;
  EXPECT_NE(RenderHtml(*report).find("<td>mode=flush</td><td>platform</td>"), std::string::npos);
  const nlohmann::json summary = nlohmann::json::parse(RenderJsonSummary(*report));
  EXPECT_EQ(summary["sources"][0]["backend_options"], "mode=flush");
  EXPECT_EQ(summary["sources"][0]["float_rules"], "platform");
  EXPECT_NE(markdown.find(std::to_string(run.WithBehaviour().size()) +
                          " case(s) passed only under the platform's float rules"),
            std::string::npos)
      << markdown;
}

std::string Output(const std::string& arguments, int* exit_code) {
  ShellOutput run = RunShell(std::string(OPCTS_BINARY) + " " + arguments + " 2>&1");
  *exit_code = run.exit_code;
  return std::move(run.output);
}

// A repro reruns the case as the run did: the plugin's options and the float rules are part of
// it. Here they decide the verdict: under the platform rules (the default) the same case passes.
// The options are the run's --backend-options, or the backend's own (NAME@OPTIONS).
class PlatformFloatRepro : public ::testing::TestWithParam<bool> {};

TEST_P(PlatformFloatRepro, CarriesTheBackendOptionsAndTheFloatRules) {
  const bool own = GetParam();
  RunOptions options = PluginOptions("flush", {"dml_cumulative_summation"}, FloatRules::kIeee);
  if (own) {
    options.backends = {std::string(OPCTS_PLATFORM_FLOAT_PLUGIN) + "@mode=flush"};
    options.backend_options.clear();
  }
  options.journal = TempPath(own ? "repro-own.jsonl" : "repro.jsonl");
  options.shrink_dir = TempPath(own ? "repro-own-shrunk" : "repro-shrunk");
  std::filesystem::remove_all(options.shrink_dir);
  std::ostringstream log;
  ASSERT_EQ(RunConformance(Specs(), options, log, log).exit_code, 1) << log.str();
  Result<Journal> journal = ReadJournal(options.journal);
  ASSERT_TRUE(journal) << journal.error().message;
  const std::string flags = " --backend " + ShellWord(OPCTS_PLATFORM_FLOAT_PLUGIN) +
                            " --backend-options mode=flush --float-rules ieee ";
  // The repro fails as the run did; without its --float-rules it passes.
  const auto expect_reproduces = [](std::string repro) {
    ASSERT_EQ(repro.rfind("opcts ", 0), 0u) << repro;
    int exit_code = 0;
    const std::string text = Output(repro.substr(6), &exit_code);
    EXPECT_EQ(exit_code, 1) << repro << "\n" << text;
    const size_t rules = repro.find(" --float-rules ieee");
    ASSERT_NE(rules, std::string::npos) << repro;
    repro.erase(rules, 19);
    Output(repro.substr(6), &exit_code);
    EXPECT_EQ(exit_code, 0) << repro;
  };
  const auto failed = std::find_if(journal->cases.begin(), journal->cases.end(),
                                   [](const CaseRecord& r) { return r.status == Status::kFail; });
  ASSERT_NE(failed, journal->cases.end());
  EXPECT_EQ(failed->repro, "opcts repro" + flags + "--seed 1 " + failed->id);
  expect_reproduces(failed->repro);
  ASSERT_FALSE(journal->shrunk.empty()) << log.str();
  EXPECT_EQ(journal->shrunk[0].repro, "opcts vectors" + flags + journal->shrunk[0].file);
  EXPECT_EQ(std::filesystem::path(journal->shrunk[0].file).parent_path(), options.shrink_dir);
  expect_reproduces(journal->shrunk[0].repro);
}
INSTANTIATE_TEST_SUITE_P(Options, PlatformFloatRepro, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Own" : "ForTheRun"; });

TEST(PlatformFloat, CommandLine) {
  int exit_code = 0;
  for (const char* command : {"run", "vectors x.json", "repro x"}) {
    const std::string text = Output(std::string(command) + " --float-rules strict", &exit_code);
    EXPECT_EQ(exit_code, 2) << command << ": " << text;
    EXPECT_NE(text.find("unknown --float-rules 'strict' (expected platform or ieee)"),
              std::string::npos)
        << command << ": " << text;
  }
  const std::string rules = Output("spec float-rules", &exit_code);
  EXPECT_EQ(exit_code, 0) << rules;
  EXPECT_NE(rules.find("directml (DML_CUMULATIVE_PRODUCT, DML_CUMULATIVE_SUMMATION, "
                       "DML_SCATTER_ND):\n  FLOAT32: subnormal inputs and results may be flushed "
                       "to sign-preserved zero; results may round toward zero instead of to "
                       "nearest; arithmetic only (data movement stays bit-exact)\n"),
            std::string::npos)
      << rules;
  EXPECT_NE(rules.find("openvino (OPENVINO_CUMSUM_3): IEEE 754 only\n"), std::string::npos)
      << rules;
  EXPECT_NE(rules.find("onnx (ONNX_CUMSUM, ONNX_SCATTER_ND): IEEE 754 only\n"), std::string::npos)
      << rules;
}

}  // namespace
}  // namespace opcts
