// The gate never goes green without evidence: every ABI answer maps to an honest status, a run
// of nothing or of refusals fails, and a journal of another run is not resumed.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "conformance/case_executor.h"
#include "conformance/runner.h"
#include "reports/journal.h"

namespace opcts {
namespace {

std::string FaultPlugin(const std::string& fault) {
  return std::string(OPCTS_TEST_PLUGIN_DIR) + "/opcts-fault-" + fault + ".so";
}

// Per process: two test runs on one machine (a CI checkout beside a developer's) must not share
// a journal.
std::string TempJournal(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("opcts-gate-" + name + "-" + std::to_string(getpid()) + ".jsonl"))
      .string();
}

class GateTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir())); }
  static void TearDownTestSuite() { delete specs_; }

  RunResult Run(RunOptions options) {
    options.progress = false;
    log_.str("");
    return RunConformance(*specs_, options, log_, log_);
  }
  std::vector<CaseRecord> Journal(const std::string& path) {
    auto journal = ReadJournal(path);
    EXPECT_TRUE(journal) << journal.error().message;
    return journal ? journal->cases : std::vector<CaseRecord>{};
  }

  static SpecSet* specs_;
  std::ostringstream log_;
};
SpecSet* GateTest::specs_ = nullptr;

TEST_F(GateTest, AnEmptySelectionIsAUsageError) {
  RunOptions options;
  options.backends = {OPCTS_CPU_REFERENCE};
  options.filter.ids = {"no.such.case"};
  EXPECT_EQ(Run(options).exit_code, 2);
  EXPECT_NE(log_.str().find("no case matches --id no.such.case"), std::string::npos) << log_.str();
}

TEST_F(GateTest, APluginThatRefusesEverythingFailsTheGate) {
  RunOptions options;
  options.backends = {FaultPlugin("refuse-all")};
  options.filter.ops = {"dml_cumulative_summation"};
  options.journal = TempJournal("refuse-all");
  const RunResult result = Run(options);
  EXPECT_EQ(result.exit_code, 1) << log_.str();
  EXPECT_EQ(result.failures, 0u) << "no single case fails: the verdict comes from the coverage";
  EXPECT_NE(log_.str().find("computed none of its"), std::string::npos) << log_.str();
  for (const CaseRecord& r : Journal(options.journal))
    EXPECT_TRUE(r.status == Status::kNotSupported || r.status == Status::kInvalidRejected)
        << r.id << " " << StatusName(r.status);
}

TEST_F(GateTest, AnUnknownStatusCodeFailsWhateverTheCase) {
  RunOptions options;
  options.backends = {FaultPlugin("unknown-status")};
  options.filter.ops = {"dml_cumulative_summation"};
  options.filter.dtypes = {"f32", "i32"};
  options.journal = TempJournal("unknown-status");
  EXPECT_EQ(Run(options).exit_code, 1) << log_.str();
  size_t query77 = 0, invalid77 = 0, execute_minus1 = 0;
  for (const CaseRecord& r : Journal(options.journal)) {
    if (r.message.find("query answered unknown status 77") != std::string::npos) {
      EXPECT_EQ(r.status, Status::kFail) << r.id;  // invalid cases included: 77 is no rejection
      ++query77;
      invalid77 += r.group == CaseGroup::kInvalid;
    } else if (r.dtype == "FLOAT32") {
      EXPECT_EQ(r.group, CaseGroup::kInvalid)
          << r.id << " (only an invalid case's output may be no FLOAT32)";
    } else if (r.group != CaseGroup::kInvalid) {
      EXPECT_EQ(r.status, Status::kFail) << r.id;
      execute_minus1 += r.message.find("execute answered unknown status -1") != std::string::npos;
    }
  }
  EXPECT_GT(query77, 10u);
  EXPECT_GT(invalid77, 0u);
  EXPECT_GT(execute_minus1, 10u);
}

TEST_F(GateTest, ExecuteErrorAfterQueryOkFailsClaimedOrNot) {
  RunOptions options;
  options.backends = {FaultPlugin("execute-error-f16")};
  options.filter.ops = {"dml_cumulative_product"};
  options.filter.dtypes = {"f16"};
  options.journal = TempJournal("execute-error");
  EXPECT_EQ(Run(options).exit_code, 1) << log_.str();
  size_t executed = 0;
  for (const CaseRecord& r : Journal(options.journal)) {
    if (r.group == CaseGroup::kInvalid) continue;
    ++executed;
    EXPECT_EQ(r.status, Status::kFail) << r.id;
    EXPECT_NE(r.message.find("query accepted the case, then execute answered ERROR: device lost"),
              std::string::npos)
        << r.message;
  }
  EXPECT_GT(executed, 10u);

  // Beyond the claim too: a refusal belongs at query, not after it.
  PluginLoad load = LoadPlugin(FaultPlugin("execute-error-f16"), "");
  ASSERT_TRUE(load.ok()) << load.error().message;
  CaseFilter filter;
  filter.ops = {"dml_cumulative_product"};
  filter.dtypes = {"f16"};
  filter.max_cases = 1;
  const std::vector<CaseRecipe> cases = SelectCases(*specs_, 1, filter);
  ASSERT_EQ(cases.size(), 1u);
  PreparedCase prepared(Materialize(cases[0]));
  const CaseVerdict unclaimed = RunCase(**load, prepared, CaseGroup::kUnclaimed);
  EXPECT_EQ(unclaimed.outcome.status, Status::kFail) << unclaimed.outcome.message;
  EXPECT_FALSE(unclaimed.acceptable);
}

TEST_F(GateTest, RefusingOutOfRangeIndicesAtExecuteIsConformant) {
  for (const std::string& options_text : {std::string("out_of_range=refuse"), std::string("")}) {
    RunOptions options;
    options.backends = {OPCTS_CPU_REFERENCE};
    options.backend_options = options_text;
    options.filter.ops = {"dml_scatter_nd"};
    options.filter.ids = {"*.out-of-range.*"};
    options.journal = TempJournal("oob");
    EXPECT_EQ(Run(options).exit_code, 0) << options_text << "\n" << log_.str();
    const std::vector<CaseRecord> records = Journal(options.journal);
    ASSERT_GT(records.size(), 10u);
    const std::string expected_message = options_text.empty()
                                             ? "out-of-range indices skipped"
                                             : "refused the data at execute, which the spec allows";
    for (const CaseRecord& r : records) {
      EXPECT_EQ(r.status, Status::kPass) << r.id << ": " << r.message;
      EXPECT_NE(r.message.find(expected_message), std::string::npos) << r.message;
      EXPECT_EQ(r.behaviour, options_text.empty() ? kSkipped : kRefusedAtExecute) << r.id;
    }
  }
}

// NAME@OPTIONS gives one backend its own create() options: the same plugin runs twice in one
// run, each under its own name, and each record's repro carries its backend's options.
TEST_F(GateTest, EachBackendMayHaveItsOwnOptions) {
  RunOptions options;
  const std::string refusing = std::string(OPCTS_CPU_REFERENCE) + "@out_of_range=refuse";
  options.backends = {OPCTS_CPU_REFERENCE, refusing};
  options.filter.ops = {"dml_scatter_nd"};
  options.filter.ids = {"*.out-of-range.*"};
  options.journal = TempJournal("own-options");
  ASSERT_EQ(Run(options).exit_code, 0) << log_.str();
  std::map<std::string, size_t> by_backend;
  for (const CaseRecord& r : Journal(options.journal)) {
    ++by_backend[r.backend];
    const bool refuses = r.backend == "cpu-reference@out_of_range=refuse";
    EXPECT_EQ(r.behaviour, refuses ? kRefusedAtExecute : kSkipped) << r.backend << " " << r.id;
    EXPECT_EQ(r.repro.find("--backend-options out_of_range=refuse") != std::string::npos, refuses)
        << r.repro;
  }
  ASSERT_EQ(by_backend.size(), 2u) << log_.str();
  EXPECT_GT(by_backend["cpu-reference"], 10u);
  EXPECT_EQ(by_backend["cpu-reference"], by_backend["cpu-reference@out_of_range=refuse"]);
}

// One backend given twice would write records that merge into one another: refused before any
// case runs.
TEST_F(GateTest, OneBackendTwiceIsAUsageError) {
  RunOptions options;
  options.backends = {OPCTS_CPU_REFERENCE, OPCTS_CPU_REFERENCE};
  options.filter.max_cases = 5;
  options.journal = TempJournal("twice");
  std::filesystem::remove(options.journal);
  EXPECT_EQ(Run(options).exit_code, 2);
  EXPECT_NE(log_.str().find("already has a backend named 'cpu-reference'"), std::string::npos)
      << log_.str();
  EXPECT_FALSE(std::filesystem::exists(options.journal));
}

TEST_F(GateTest, ARequiredLevelFailsTheGateUnlessEveryCaseUpToItPasses) {
  RunOptions options;
  options.backends = {FaultPlugin("refuse-all")};
  options.filter.ops = {"dml_scatter_nd"};
  options.required = {{"", "3_0"}};
  EXPECT_EQ(Run(options).exit_code, 1) << log_.str();
  EXPECT_NE(log_.str().find("required 3_0"), std::string::npos) << log_.str();

  // DML_SCATTER_ND's last table is 4_1: a backend passing every case meets 5_0 as well.
  options.backends = {OPCTS_CPU_REFERENCE};
  options.required = {{"", "5_0"}};
  EXPECT_EQ(Run(options).exit_code, 0) << log_.str();
}

TEST_F(GateTest, ResumeRefusesAJournalOfAnotherRun) {
  RunOptions options;
  options.backends = {OPCTS_CPU_REFERENCE};
  options.filter.ops = {"openvino_cumsum_3"};
  options.filter.max_cases = 20;
  options.journal = TempJournal("resume");
  ASSERT_EQ(Run(options).exit_code, 0) << log_.str();

  RunOptions resumed = options;
  resumed.journal.clear();
  resumed.resume = options.journal;
  EXPECT_EQ(Run(resumed).exit_code, 0) << "the same run resumes:\n" << log_.str();

  RunOptions other_seed = resumed;
  other_seed.seed = 2;
  EXPECT_EQ(Run(other_seed).exit_code, 2);
  EXPECT_NE(log_.str().find("seed 1 in the journal, 2 now"), std::string::npos) << log_.str();

  RunOptions other_filter = resumed;
  other_filter.filter.dtypes = {"f32"};
  EXPECT_EQ(Run(other_filter).exit_code, 2);
  EXPECT_NE(log_.str().find("filter dtype: '*' in the journal, 'f32' now"), std::string::npos)
      << log_.str();

  RunOptions other_backend = resumed;
  other_backend.backends = {FaultPlugin("leak")};
  EXPECT_EQ(Run(other_backend).exit_code, 2);
  EXPECT_NE(log_.str().find("backends 'cpu-reference"), std::string::npos) << log_.str();
  EXPECT_NE(log_.str().find("'fault-leak"), std::string::npos) << log_.str();

  RunOptions other_options = resumed;
  other_options.timeout_ms = 100;
  EXPECT_EQ(Run(other_options).exit_code, 2);
  EXPECT_NE(log_.str().find("option timeout_ms"), std::string::npos) << log_.str();

  // A journal that repeats a case id is no journal opcts wrote.
  std::string text;
  {
    std::ifstream in(options.journal);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t second_line = text.find('\n') + 1;
  const std::string first_case =
      text.substr(second_line, text.find('\n', second_line) + 1 - second_line);
  std::ofstream(options.journal, std::ios::app) << first_case;
  EXPECT_EQ(Run(resumed).exit_code, 2);
  EXPECT_NE(log_.str().find("twice"), std::string::npos) << log_.str();
}

}  // namespace
}  // namespace opcts

namespace opcts {
namespace {

// The ABI grows by new operator codes: a built-in that does not know one must refuse it at
// query (NOT_SUPPORTED, with a message), never claim it and return OK without writing.
TEST(BuiltinBackends, RefuseAnOperatorTheyDoNotKnow) {
  // The built-ins sit beside cpu-reference (this test binary is not where opcts looks).
  const std::string dir = std::filesystem::path(OPCTS_CPU_REFERENCE).parent_path().string();
  ASSERT_EQ(setenv("OPCTS_PLUGIN_DIR", dir.c_str(), 1), 0);
  const std::vector<std::string> names = BuiltinBackendNames();
  ASSERT_FALSE(names.empty()) << "no built-in backend in " << BuiltinPluginDir();
  for (const std::string& name : names) {
    PluginLoad load = LoadPlugin(name, "");
    if (!load && IsUnavailable(load)) {
      std::cout << "SKIPPED " << name << ": unavailable here (" << load.error().message << ")\n";
      continue;
    }
    ASSERT_TRUE(load.ok()) << name << ": " << load.error().message;
    const opcts_dml_cumulative_desc desc{};  // what a future operator's struct holds is unknown
    const opcts_op_desc unknown{0xFFFFu, &desc};
    char message[256] = "";
    EXPECT_EQ((*load)->api().query((*load)->instance(), &unknown, message, sizeof message),
              OPCTS_STATUS_NOT_SUPPORTED)
        << name;
    EXPECT_NE(std::string(message).find("65535"), std::string::npos) << name << ": " << message;
  }
}

}  // namespace
}  // namespace opcts
