// The campaign's parts that need no libFuzzer: reading a process's output, sharing the time
// between targets, running processes under deadlines. (fuzz/campaign_test.sh runs whole
// campaigns in the fuzz build.)
#include "fuzz/campaign.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "fuzz/libfuzzer_log.h"
#include "fuzz/process_pool.h"

namespace opcts {
namespace {

TEST(LibFuzzerLog, ReadsStatusLinesAndFinalStats) {
  const std::optional<CoveragePoint> p = ParseStatusLine(
      "#4096\tpulse  cov: 812 ft: 2301 corp: 101/3270b lim: 43 exec/s: 2048 rss: 61Mb");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->executions, 4096u);
  EXPECT_EQ(p->cov, 812u);
  EXPECT_EQ(p->features, 2301u);
  EXPECT_EQ(p->corpus, 101u);
  EXPECT_FALSE(ParseStatusLine("INFO: Seed: 1969255159"));
  EXPECT_FALSE(ParseStatusLine("#12 something without coverage"));

  ProcessLog log;
  log.Read(0.5, "#2\tINITED cov: 10 ft: 20 corp: 3/9b exec/s: 0 rss: 40Mb");
  log.Read(0.6, "#9\tNEW    cov: 11 ft: 22 corp: 4/12b lim: 4 exec/s: 0 rss: 40Mb");
  log.Read(0.7, "#10\tREDUCE cov: 11 ft: 22 corp: 4/11b lim: 4 exec/s: 0 rss: 40Mb");
  EXPECT_EQ(log.executions, 10u);
  EXPECT_EQ(log.coverage.size(), 2u) << "a line that changes nothing within a second is no point";
  log.Read(2.0, "stat::number_of_executed_units: 1234");
  log.Read(2.1, "#99\tDONE   cov: 11 ft: 22 corp: 4/11b lim: 4 exec/s: 0 rss: 40Mb");
  EXPECT_EQ(log.executions, 1234u) << "the final count wins over later status lines";
}

TEST(LibFuzzerLog, AMismatchIsKnownByItsSignatureLine) {
  ProcessLog log;
  log.Read(1.0,
           "==opcts-fuzz== Fail on DML_SCATTER_ND: x: Fail: OutputTensor: 1 of 4 elements wrong");
  log.Read(1.0,
           "==opcts-fuzz== signature: Fail DML_SCATTER_ND (float): OutputTensor: wrong elements");
  log.Read(1.0, "==opcts-fuzz== the case (expected: the reference):");
  log.Read(1.1, "==123== ERROR: libFuzzer: deadly signal");
  log.Read(1.1, "SUMMARY: libFuzzer: deadly signal");
  log.Read(1.2, "artifact_prefix='/w/'; Test unit written to /w/crash-abc");
  EXPECT_EQ(log.artifact, "/w/crash-abc");
  EXPECT_EQ(log.found_at, 1.0);
  EXPECT_EQ(log.summary, "Fail on DML_SCATTER_ND: x: Fail: OutputTensor: 1 of 4 elements wrong");
  EXPECT_EQ(log.Signature("opcts_fuzz_dml_scatter_nd"),
            "Fail DML_SCATTER_ND (float): OutputTensor: wrong elements");
}

TEST(LibFuzzerLog, OtherFindingsAreKnownByKindAndSummaryWithoutNumbers) {
  ProcessLog a, b;
  a.Read(1, "==7== ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010");
  a.Read(1, "SUMMARY: AddressSanitizer: SEGV /src/x.cc:12:3 in Parse");
  a.Read(1, "artifact_prefix='/w/'; Test unit written to /w/crash-1");
  b.Read(2, "SUMMARY: AddressSanitizer: SEGV /src/x.cc:40:9 in Parse");
  b.Read(2, "artifact_prefix='/w/'; Test unit written to /w/crash-2");
  EXPECT_EQ(a.Signature("t"), "Crash t: AddressSanitizer: SEGV /src/x.cc:#:# in Parse");
  EXPECT_EQ(a.Signature("t"), b.Signature("t"));
  ProcessLog hang;
  hang.Read(3, "==7== ERROR: libFuzzer: timeout after 5 seconds");
  hang.Read(3, "artifact_prefix='/w/'; Test unit written to /w/timeout-9");
  EXPECT_EQ(hang.Signature("t"), "Timeout t: libFuzzer: timeout after # seconds");
  ProcessLog thrown;
  thrown.Read(1, "terminate called after throwing an instance of 'std::bad_alloc'");
  thrown.Read(1, "  what():  std::bad_alloc");
  thrown.Read(1, "SUMMARY: libFuzzer: deadly signal");
  EXPECT_EQ(thrown.summary, "uncaught exception: std::bad_alloc");
}

TEST(PlanWindows, TheTargetsShareTheProcessesAndTheTime) {
  // 10 targets on 2 processes over 60 s: five rounds of 12 s.
  EXPECT_EQ(PlanWindows(60, 2, 10).parts, 1u);
  EXPECT_DOUBLE_EQ(PlanWindows(60, 2, 10).length, 12);
  // 3 targets on 2: two rounds of 30 s, one process idle in the second.
  EXPECT_DOUBLE_EQ(PlanWindows(60, 2, 3).length, 30);
  // One target on 4 processes: 4 windows side by side, the whole time.
  EXPECT_EQ(PlanWindows(60, 4, 1).parts, 4u);
  EXPECT_DOUBLE_EQ(PlanWindows(60, 4, 1).length, 60);
  // Never past the time asked.
  for (uint64_t jobs = 1; jobs <= 5; ++jobs)
    for (size_t targets = 1; targets <= 11; ++targets) {
      const Windows w = PlanWindows(60, jobs, targets);
      const uint64_t rounds = (targets * w.parts + jobs - 1) / jobs;
      EXPECT_LE(static_cast<double>(rounds) * w.length, 60.0 + 1e-9);
      EXPECT_GE(w.parts * jobs, 1u);
    }
}

std::string TempLog(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "opcts-pool-test";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / name);
  return (dir / name).string();
}

Command Cmd(std::vector<std::string> argv, const std::string& log, double deadline,
            size_t job = 0) {
  Command c;
  c.argv = std::move(argv);
  c.log = log;
  c.deadline = deadline;
  c.job = job;
  return c;
}

TEST(ProcessPool, LinesComeWithTheirJobAndAreLogged) {
  ProcessPool pool(2, ProcessPool::Clock::now());
  const std::string log = TempLog("lines.log");
  pool.Add(Cmd({"/bin/sh", "-c", "echo one; echo two >&2; printf three"}, log, 30, 7));
  std::vector<std::string> lines;
  int code = -1;
  pool.Run([](Command&, double) {},
           [&](size_t job, double, std::string_view line) {
             EXPECT_EQ(job, 7u);
             lines.emplace_back(line);
           },
           [&](size_t, int c, double) -> std::optional<Command> {
             code = c;
             return std::nullopt;
           });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "three"}));
  std::ifstream in(log);
  std::string all((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(all, "one\ntwo\nthree\n");
}

TEST(ProcessPool, ADeadlineStopsTheCommandAndWhatItStarted) {
  const auto start = ProcessPool::Clock::now();
  ProcessPool pool(1, start);
  // The shell ignores SIGINT; its child sleeps: SIGKILL of the group ends both.
  pool.Add(Cmd({"/bin/sh", "-c", "trap '' INT; sleep 30 & wait"}, TempLog("d.log"), 0.3));
  int code = -1;
  pool.Run([](Command&, double) {}, [](size_t, double, std::string_view) {},
           [&](size_t, int c, double) -> std::optional<Command> {
             code = c;
             return std::nullopt;
           });
  EXPECT_NE(code, 0);
  EXPECT_LT(pool.Now(), 5.0) << "the deadline plus the grace before SIGKILL";
}

TEST(ProcessPool, AnExitMayStartAFollowUpAndSlotsBoundTheProcesses) {
  ProcessPool pool(2, ProcessPool::Clock::now());
  const std::string marks = TempLog("marks");
  for (size_t job = 0; job < 3; ++job)
    pool.Add(Cmd({"/bin/sh", "-c", "echo start >> " + marks + "; sleep 0.2; echo end >> " + marks},
                 TempLog("s.log"), 30, job));
  int starts = 0, follow_ups = 0;
  pool.Run([&](Command&, double) { ++starts; }, [](size_t, double, std::string_view) {},
           [&](size_t job, int, double) -> std::optional<Command> {
             if (job != 0 || follow_ups++ > 0) return std::nullopt;
             return Cmd({"/bin/true"}, TempLog("f.log"), 30);
           });
  EXPECT_EQ(starts, 4);
  EXPECT_EQ(follow_ups,
            2);  // job 0 asked twice: once after its first run, once after the follow-up
  // At most two ran at once: the third started only after an end.
  std::ifstream in(marks);
  int running = 0, most = 0;
  for (std::string line; std::getline(in, line);) {
    running += line == "start" ? 1 : -1;
    most = std::max(most, running);
  }
  EXPECT_EQ(most, 2);
}

TEST(ProcessPool, ACommandThatCannotStartExitsWith127) {
  ProcessPool pool(1, ProcessPool::Clock::now());
  pool.Add(Cmd({"/nonexistent/opcts-target"}, TempLog("n.log"), 30));
  int code = -1;
  pool.Run([](Command&, double) {}, [](size_t, double, std::string_view) {},
           [&](size_t, int c, double) -> std::optional<Command> {
             code = c;
             return std::nullopt;
           });
  EXPECT_EQ(code, 127);
}

}  // namespace
}  // namespace opcts
