// Process isolation: a worker process loads one backend and runs a stream of cases, sending one
// tab-separated result line per case (its index, group, status, figures, message) back over a
// pipe. The parent notices a crash (the pipe closes; the signal
// and the worker's last stderr lines say why) or a hang (no result within the case's time limit:
// the worker is killed), records that case, and starts a fresh worker for the rest.
//
//   auto w = Worker::Start(cases, "cpu-simd", "", FloatRules::kPlatform, limit, &error);
//   w->Run(0, cases.size());
//   Worker::Result r; std::string why;
//   switch (w->Next(limit, &r, &why)) { ... }
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/case_executor.h"
#include "conformance/resident_memory.h"
#include "reports/journal.h"

namespace opcts {

class Worker {
 public:
  struct StartError {
    std::string message;
    bool unavailable = false;  // the backend said it cannot run here (no device)
    bool crashed = false;      // it crashed or hung while loading: a backend fault, not bad input
  };

  // Forks a worker that loads `backend` and reports its info within `limit`; nullptr with
  // *error on failure (including a crash or hang while loading). The plugin's stdout and
  // stderr both go to a pipe whose last lines explain a crash; neither reaches opcts's output.
  // `float_rules` judges the float results of its cases.
  static std::unique_ptr<Worker> Start(const std::vector<CaseRecipe>& cases,
                                       const std::string& backend, const std::string& options,
                                       FloatRules float_rules, std::chrono::milliseconds limit,
                                       StartError* error);
  ~Worker();  // kills the worker's process group if it still runs, and reaps the worker

  const BackendRecord& info() const { return info_; }
  const std::string& plugin_path() const { return path_; }

  // Asks the worker to run cases [begin, end) in order.
  bool Run(size_t begin, size_t end);

  // kInterrupted: SIGINT or SIGTERM arrived (StopSignal) while waiting. kMemoryLimit: the
  // worker's resident memory passed the limit (set_memory_limit) and it was killed.
  enum class Event { kResult, kCrashed, kTimedOut, kInterrupted, kMemoryLimit };
  struct Result {
    size_t index = 0;  // into the cases the worker was started with
    CaseGroup group = CaseGroup::kValid;
    CaseOutcome outcome;
  };
  // Waits up to `limit` for the next case's result. kCrashed/kTimedOut fill *why; the worker is
  // then dead and must be replaced.
  Event Next(std::chrono::milliseconds limit, Result* result, std::string* why);
  // After a kResult: the worker reported its last result and exits (a guard-page fault it
  // attributed to that case); it must be replaced.
  bool exiting() const { return exiting_; }
  // Resident memory the worker may hold, checked every 20 ms while waiting; 0: no limit.
  void set_memory_limit(uint64_t bytes) { memory_limit_ = bytes; }
  // Its resident memory over the cases it finished (sampled as results arrived), under the name
  // `backend`: the journal's memory record, leaking or not.
  MemoryRecord MemorySummary(const std::string& backend);

 private:
  Worker() = default;
  bool ReadLine(std::chrono::milliseconds limit, std::string* line, bool* timed_out);
  // True (and the worker killed, *why set) once its resident memory passes memory_limit_.
  bool OverMemoryLimit(std::string* why);
  // Reads what the worker printed so far into output_.
  void DrainOutput();
  void Keep(const char* data, size_t size);
  // What was printed while case `index` ran, on one line; dropped from output_ with all before.
  std::string TakeCaseOutput(size_t index);
  // The last of output_ on one line (for a crash).
  std::string OutputTail() const;
  // Whether the worker process itself has ended (reaped here; its process group killed), even
  // while something it forked still holds the result pipe open.
  bool Exited();
  std::string DeathReason();

  pid_t pid_ = -1;
  int command_fd_ = -1, result_fd_ = -1, stderr_fd_ = -1;
  std::string buffer_;  // result bytes not yet split into lines
  std::string output_;  // what the worker printed (plugin stdout and stderr), case-marked
  BackendRecord info_;
  std::string path_;
  bool exiting_ = false;
  std::optional<int> wait_status_;  // set once the worker is reaped
  uint64_t memory_limit_ = 0;
  uint64_t cases_finished_ = 0;
  ResidentMemory memory_;
  bool over_memory_limit_ = false;
  std::string memory_why_;
  std::chrono::steady_clock::time_point memory_checked_{};
};

}  // namespace opcts
