#include "conformance/mutants/mutant_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "conformance/runner.h"
#include "reports/journal.h"
#include "reports/status.h"

namespace opcts {
namespace {

using Clock = std::chrono::steady_clock;

// Prefixes every line written through it with the microseconds since construction, so the
// parent learns when each failing case was judged.
class TimestampBuf : public std::streambuf {
 public:
  explicit TimestampBuf(std::streambuf* sink) : sink_(sink) {}

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    if (line_start_) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_);
      const std::string stamp = std::to_string(us.count()) + "\t";
      sink_->sputn(stamp.data(), static_cast<std::streamsize>(stamp.size()));
    }
    line_start_ = c == '\n';
    return sink_->sputc(static_cast<char>(c));
  }
  int sync() override { return sink_->pubsync(); }

 private:
  std::streambuf* sink_;
  Clock::time_point start_ = Clock::now();
  bool line_start_ = true;
};

std::string JournalPath(const ChildOptions& o, const RunRequest& r) {
  return o.work_dir + "/" + r.name + ".jsonl";
}
std::string LogPath(const ChildOptions& o, const RunRequest& r) {
  return o.work_dir + "/" + r.name + ".log";
}

// The child: one strict run (strict changes only what is printed and the exit code, not the
// journal: QualityWarning lines get timestamps too), then _exit without running the parent's
// destructors.
[[noreturn]] void ChildMain(const SpecSet& specs, const RunRequest& r, const ChildOptions& o) {
  alarm(o.timeout_s);
  std::ofstream log(LogPath(o, r));
  TimestampBuf stamped(log.rdbuf());
  std::ostream out(&stamped);
  RunOptions options;
  options.backends = {r.plugin};
  options.journal = JournalPath(o, r);
  options.progress = false;
  options.strict = true;
  const RunResult result = RunConformance(specs, options, out, out);
  out.flush();
  log.flush();
  _exit(result.exit_code == 2 ? 2 : 0);
}

// Seconds from the "running N cases" line to the line printed for each failing case id.
std::map<std::string, double> CaseTimes(const std::string& log_path) {
  std::map<std::string, double> times;
  std::ifstream log(log_path);
  double start = 0;
  for (std::string line; std::getline(log, line);) {
    std::istringstream fields(line);
    double us = 0;
    std::string status, backend, id;
    if (!(fields >> us >> status)) continue;
    if (status == "running") start = us;
    if (!StatusNamed(status) || !(fields >> backend >> id) || id.empty() || id.back() != ':')
      continue;
    id.pop_back();
    times.emplace(id, (us - start) / 1e6);
  }
  return times;
}

uint64_t Elements(const std::vector<uint32_t>& shape) {
  uint64_t n = 1;
  for (uint32_t s : shape) n *= s;
  return n;
}

// Judges a finished child from its exit status, journal and log.
RunReport Collect(const SpecSet& specs, const RunRequest& r, const ChildOptions& o, int wait_status,
                  double seconds) {
  RunReport report;
  report.journal = JournalPath(o, r);
  report.seconds = seconds;
  const bool signalled = WIFSIGNALED(wait_status);
  if (!signalled && WEXITSTATUS(wait_status) != 0) {
    report.error = "the run could not start (exit " + std::to_string(WEXITSTATUS(wait_status)) +
                   "); see " + LogPath(o, r);
    return report;
  }
  const Result<Journal> journal = ReadJournal(report.journal);
  if (!journal) {
    report.error = journal.error().message;
    return report;
  }
  const std::map<std::string, double> times = CaseTimes(LogPath(o, r));
  for (const CaseRecord& c : journal->cases) {
    if (!IsGateFailure(c.status, /*strict=*/true)) continue;
    auto t = times.find(c.id);
    report.hits.push_back(
        {c.status, c.id, c.message, t == times.end() ? seconds : t->second, Elements(c.shape)});
  }
  if (signalled) {  // over the time limit, or the harness died: in the case after the last line
    const int signal = WTERMSIG(wait_status);
    const std::vector<CaseRecipe> cases = SelectCases(specs, 1, CaseFilter{});
    const size_t done = journal->cases.size();
    CaseHit hit{signal == SIGALRM ? Status::kTimeout : Status::kCrash,
                done < cases.size() ? cases[done].id : "(after the last case)",
                std::string("signal ") + std::to_string(signal) + " (" + strsignal(signal) + ")",
                seconds, 0};
    if (done < cases.size()) hit.elements = Elements(cases[done].shape);
    report.hits.push_back(std::move(hit));
  }
  return report;
}

}  // namespace

std::vector<RunReport> RunInChildren(const SpecSet& specs, const std::vector<RunRequest>& runs,
                                     const ChildOptions& options) {
  std::vector<RunReport> reports(runs.size());
  std::map<pid_t, std::pair<size_t, Clock::time_point>> running;
  size_t next = 0;
  std::fflush(nullptr);  // children must not inherit and repeat buffered output
  while (next < runs.size() || !running.empty()) {
    while (running.size() < std::max(1u, options.jobs) && next < runs.size()) {
      const pid_t pid = fork();
      if (pid == 0) ChildMain(specs, runs[next], options);
      if (pid < 0) {
        reports[next++].error = std::string("fork failed: ") + std::strerror(errno);
        continue;
      }
      running[pid] = {next++, Clock::now()};
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) {  // no children left to wait for: should not happen, but never spin
      for (const auto& [lost, job] : running)
        reports[job.first].error = std::string("waitpid: ") + std::strerror(errno);
      break;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const auto [index, started] = it->second;
    running.erase(it);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    reports[index] = Collect(specs, runs[index], options, status, seconds);
  }
  return reports;
}

}  // namespace opcts
