// A backend that crashes or hangs while starting is a recorded gate failure with a bounded cost,
// never a usage error, an unbounded wait, or a run with nothing in its journal.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "conformance/runner.h"
#include "reports/journal.h"

namespace opcts {
namespace {

class ContainmentTest : public ::testing::Test {
 protected:
  // Time limits far above what a start or a small case takes under the sanitizers on a loaded
  // two-core machine, and checks on the total far below what one limit per case would cost.
  static constexpr uint64_t kLimitMs = 1000;
  static constexpr uint64_t kForkChildLimitMs = 30000;

  static void SetUpTestSuite() { specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir())); }
  static void TearDownTestSuite() { delete specs_; }

  // Runs `plugin` (a file in the test-plugin directory, or an absolute path) on `filter`; the
  // journal's case records (its memory records in memory_).
  std::vector<CaseRecord> Run(const std::string& plugin, CaseFilter filter, uint64_t timeout_ms = 0,
                              uint64_t memory_limit_mib = 0) {
    RunOptions options;
    options.memory_limit_mib = memory_limit_mib;
    options.backends = {plugin[0] == '/' ? plugin
                                         : std::string(OPCTS_TEST_PLUGIN_DIR) + "/" + plugin};
    options.filter = std::move(filter);
    options.timeout_ms = timeout_ms;
    options.strict = strict_;
    options.progress = false;
    options.journal = (std::filesystem::temp_directory_path() /
                       ("opcts-containment-" + std::filesystem::path(plugin).filename().string() +
                        "-" + std::to_string(getpid()) + ".jsonl"))
                          .string();
    log_.str("");
    const auto start = std::chrono::steady_clock::now();
    result_ = RunConformance(*specs_, options, log_, log_);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto journal = ReadJournal(options.journal);
    std::filesystem::remove(options.journal);  // read: nothing left in the temp directory
    EXPECT_TRUE(journal) << journal.error().message << "\n" << log_.str();
    if (!journal) return {};
    EXPECT_EQ(journal->cases.size(), journal->header.planned_cases) << "nothing lost";
    memory_ = journal->memory;
    return journal->cases;
  }
  static CaseFilter Filter(const char* op, const char* dtype, uint64_t max_cases) {
    CaseFilter f;
    f.ops = {op};
    f.dtypes = {dtype};
    f.max_cases = max_cases;
    return f;
  }

  static SpecSet* specs_;
  bool strict_ = false;
  std::vector<MemoryRecord> memory_;  // the journal's, of the last Run
  std::ostringstream log_;
  RunResult result_;
  double seconds_ = 0;
};
SpecSet* ContainmentTest::specs_ = nullptr;

TEST_F(ContainmentTest, ACrashWhileLoadingIsARecordedGateFailure) {
  const auto records =
      Run("opcts-bad-crash-on-create.so", Filter("dml_cumulative_summation", "*", 20));
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  ASSERT_EQ(records.size(), 20u);
  for (const CaseRecord& r : records) {
    EXPECT_EQ(r.status, Status::kCrash) << r.id;
    EXPECT_NE(r.message.find(
                  "the backend did not start: worker died while loading the backend: signal 11"),
              std::string::npos)
        << r.message;
  }
  EXPECT_NE(log_.str().find("CRASHED while loading"), std::string::npos) << log_.str();
}

TEST_F(ContainmentTest, AHangWhileCreatingCostsOneTimeLimit) {
  const auto records =
      Run("opcts-bad-hang-on-create.so", Filter("dml_scatter_nd", "*", 50), kLimitMs);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  ASSERT_EQ(records.size(), 50u);
  for (const CaseRecord& r : records)
    EXPECT_NE(r.message.find("did not finish loading within " + std::to_string(kLimitMs) + " ms"),
              std::string::npos)
        << r.message;
  EXPECT_LT(seconds_, 10.0) << "one limit for the backend, not one per case (50 s)";
}

TEST_F(ContainmentTest, ABackendThatFailsToRestartTwiceIsMarkedFailedOnce) {
  const auto records =
      Run("opcts-fault-restart-hangs.so", Filter("dml_cumulative_product", "f16", 0), kLimitMs);
  std::remove(("/tmp/opcts-restart-hangs-" + std::to_string(getpid())).c_str());
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  ASSERT_GT(records.size(), 20u);
  size_t crashed = 0, restarts = 0, given_up = 0;
  for (const CaseRecord& r : records) {
    crashed += r.message.find("signal 11") != std::string::npos;
    restarts += r.message.find("could not restart the worker: did not finish loading within " +
                               std::to_string(kLimitMs) + " ms") != std::string::npos;
    given_up += r.message.find("the backend failed to restart twice") != std::string::npos;
  }
  EXPECT_EQ(crashed, 1u);
  EXPECT_EQ(restarts, 2u);
  EXPECT_GT(given_up, 10u);
  EXPECT_LT(seconds_, 10.0) << "two start limits, not one per remaining case (over 10 s)";
}

TEST_F(ContainmentTest, WritesIntoConstDescriptorsOrBindingsAreCaughtAndNamed) {
  CaseFilter filter = Filter("dml_cumulative_summation", "f32", 0);
  filter.dtypes.push_back("i32");
  const auto records = Run("opcts-fault-scribble-const.so", filter);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t descriptors = 0, bindings = 0;
  for (const CaseRecord& r : records) {
    if (r.group == CaseGroup::kInvalid) continue;
    EXPECT_EQ(r.status, Status::kFail) << r.id;
    descriptors +=
        r.dtype == "FLOAT32" &&
        r.message ==
            "query wrote into the const descriptors it was given: OutputTensor.Sizes changed";
    bindings +=
        r.dtype == "INT32" &&
        r.message == "execute wrote into the const bindings array: entry 0 (InputTensor) changed";
  }
  EXPECT_GT(descriptors, 10u);
  EXPECT_GT(bindings, 10u);
}

TEST_F(ContainmentTest, AFarWriteIsAFailNamingTheBufferNotACrash) {
  // Rank 1 only: each executed case restarts the worker (seconds under the sanitizers), and
  // these cases hold both written buffers and invalid descriptors between the writes.
  CaseFilter filter = Filter("dml_cumulative_summation", "f32", 0);
  filter.ids = {"*.rank1.*"};
  const auto records = Run("opcts-fault-write-far.so", filter);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t executed = 0, in_place = 0, invalid = 0;
  for (const CaseRecord& r : records) {
    if (r.group == CaseGroup::kInvalid) {
      ++invalid;
      EXPECT_EQ(r.status, Status::kInvalidRejected) << r.id;  // the next case is never blamed
      continue;
    }
    ++executed;
    in_place += r.layout == "in-place";
    EXPECT_EQ(r.status, Status::kFail) << r.id;
    const std::string buffer =
        r.layout == "in-place" ? "InputTensor" : "OutputTensor";  // the one written
    EXPECT_EQ(r.message.rfind(
                  buffer + ": accessed byte 1048576 past the end (an inaccessible guard page", 0),
              0u)
        << r.id << ": " << r.message;
  }
  EXPECT_GT(executed, 10u);
  EXPECT_GT(in_place, 0u);
  EXPECT_GT(executed, in_place);
  EXPECT_GT(invalid, 0u);
}

TEST_F(ContainmentTest, AWriteAfterExecuteReturnedIsCaughtAndSaysSo) {
  const auto records =
      Run("opcts-fault-late-write.so", Filter("dml_cumulative_summation", "i32", 0));
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t late = 0;
  for (const CaseRecord& r : records) {
    if (r.message.find("after the execute that owned it had returned") == std::string::npos)
      continue;
    ++late;
    EXPECT_TRUE(r.status == Status::kFail || r.status == Status::kCrash) << StatusName(r.status);
  }
  EXPECT_GE(late, 1u) << log_.str();  // each restarted worker starts such a thread again
}

TEST_F(ContainmentTest, AWorkerOverTheMemoryLimitIsStoppedAndTheRunGoesOn) {
  const auto records =
      Run("opcts-fault-memory-hog.so", Filter("dml_cumulative_summation", "f32", 60), 0, 256);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t over = 0, passed_after = 0;
  for (const CaseRecord& r : records) {
    if (r.status == Status::kMemoryLimit) {
      ++over;
      EXPECT_NE(r.message.find("over the limit of 256 MiB (--memory-limit)"), std::string::npos)
          << r.message;
    } else if (over > 0 && r.status == Status::kPass) {
      ++passed_after;
    }
  }
  EXPECT_GE(over, 1u);
  EXPECT_GT(passed_after, 0u) << "a new worker takes the next cases";
}

TEST_F(ContainmentTest, ALeakIsReportedWithItsFigureAndFailsAStrictGate) {
  const CaseFilter filter = Filter("dml_cumulative_summation", "f32", 150);
  Run("opcts-fault-leak-10mib.so", filter);
  EXPECT_EQ(result_.exit_code, 0) << "every case passes; the leak is reported\n" << log_.str();
  ASSERT_EQ(memory_.size(), 1u) << "one worker ran them all";
  EXPECT_TRUE(memory_[0].leaking);
  EXPECT_GT(memory_[0].growth_per_case, 9.0 * (1 << 20));
  EXPECT_LT(memory_[0].growth_per_case, 11.0 * (1 << 20));
  EXPECT_GT(memory_[0].last_bytes, memory_[0].first_bytes + (uint64_t{1} << 30));
  EXPECT_NE(log_.str().find("resident memory grew steadily from"), std::string::npos) << log_.str();

  strict_ = true;
  Run("opcts-fault-leak-10mib.so", filter);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  EXPECT_NE(log_.str().find("leaks memory (strict)"), std::string::npos) << log_.str();
}

TEST_F(ContainmentTest, ASoundBackendIsNotCalledLeaking) {
  CaseFilter filter = Filter("dml_cumulative_summation", "f32", 400);
  filter.dtypes.push_back("f16");
  Run(OPCTS_CPU_REFERENCE, filter);
  EXPECT_EQ(result_.exit_code, 0) << log_.str();
  ASSERT_EQ(memory_.size(), 1u);
  EXPECT_FALSE(memory_[0].leaking) << DescribeLeak(memory_[0]);
  EXPECT_EQ(memory_[0].cases, 400u);
  EXPECT_GT(memory_[0].peak_bytes, 0u);
}

TEST_F(ContainmentTest, AForkedChildCannotDelayResultsOrOutliveTheRun) {
  const std::string note = "/tmp/opcts-fork-child-" + std::to_string(getpid());
  std::remove(note.c_str());
  CaseFilter filter = Filter("dml_cumulative_product", "f32", 0);
  filter.dtypes.push_back("f16");
  filter.ids = {"*.rank1.*fwd-incl*"};  // 9 crashes, each a restart
  const auto records = Run("opcts-fault-fork-child.so", filter, kForkChildLimitMs);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t crashes = 0;
  for (const CaseRecord& r : records) {
    if (r.dtype != "FLOAT16" || r.group == CaseGroup::kInvalid) continue;
    EXPECT_EQ(r.status, Status::kCrash)
        << r.id << ": " << r.message;  // not Timeout: the child holds the pipe
    crashes += r.message.find("signal 11") != std::string::npos;
  }
  EXPECT_GT(crashes, 3u);
  EXPECT_LT(seconds_, kForkChildLimitMs / 1000.0)
      << "each crash noticed at once: one missed costs the whole time limit";
  std::ifstream in(note);
  int child = 0;
  ASSERT_TRUE(in >> child) << "the plugin did not fork";
  // Gone, or a zombie: killed, and waiting for whoever adopted it to reap it. The SIGKILL is
  // sent before the run returns; the kernel may take a moment to deliver it.
  std::string line;
  for (int tries = 0; tries < 100; ++tries) {
    std::ifstream status("/proc/" + std::to_string(child) + "/status");
    line.clear();
    while (std::getline(status, line) && line.rfind("State:", 0) != 0) {
    }
    if (line.empty() || line.find("Z (zombie)") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(line.empty() || line.find("Z (zombie)") != std::string::npos)
      << "the forked child " << child << " outlived the run: " << line;
  std::remove(note.c_str());
}

TEST_F(ContainmentTest, ACrashInABackendThreadIsAttributedAsSuch) {
  const auto records =
      Run("opcts-fault-thread-crash.so", Filter("dml_cumulative_summation", "i32", 0));
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t attributed = 0;
  for (const CaseRecord& r : records) {
    if (r.status != Status::kCrash) continue;
    EXPECT_NE(r.message.find("signal 11"), std::string::npos) << r.message;
    // Outside any call ("it may come from an earlier case"), or during a later case's call.
    attributed += r.message.find("in a thread of the backend, ") != std::string::npos;
  }
  EXPECT_GE(attributed, 1u) << log_.str();
}

TEST_F(ContainmentTest, AFailureKeepsWhatTheBackendPrintedDuringItsCase) {
  CaseFilter filter = Filter("dml_cumulative_summation", "f32", 0);
  filter.dtypes.push_back("f16");
  const auto records = Run("opcts-fault-print-stdout.so", filter);
  EXPECT_EQ(result_.exit_code, 1) << log_.str();
  size_t quoted = 0;
  for (const CaseRecord& r : records) {
    if (r.group == CaseGroup::kInvalid) continue;
    if (r.dtype == "FLOAT32") {
      EXPECT_EQ(r.status, Status::kPass) << r.id;
      EXPECT_EQ(r.message.find("backend output"), std::string::npos) << r.message;
    } else {
      EXPECT_EQ(r.status, Status::kFail) << r.id;
      // This case's output only: one line, not the output of the cases before it.
      quoted +=
          r.message.size() > 57 && r.message.substr(r.message.size() - 57) ==
                                       "; backend output: Pass forged.case: printed by the plugin";
    }
  }
  EXPECT_GT(quoted, 10u);
}

}  // namespace
}  // namespace opcts
