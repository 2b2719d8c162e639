// The conformance run: every generated case that passes the filters, through every backend,
// one journal line per case and backend, a summary table, and a gate verdict.
//
//   RunOptions o;
//   o.backends = {"cpu-simd"};
//   RunResult r = RunConformance(specs, o, std::cout, std::cerr);
//   return r.exit_code;   // 0 only when every case passed the gate and the coverage proves it
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/case_executor.h"
#include "conformance/case_filter.h"
#include "conformance/case_run.h"
#include "conformance/spec_set.h"
#include "reports/journal.h"
#include "reports/report_model.h"

namespace opcts {

struct RunOptions {
  // Built-in names or paths, each with its own create() options after an '@' if it has some
  // (ParseBackendArg); empty: every built-in.
  std::vector<std::string> backends;
  std::string backend_options;  // the create() options of each backend without its own
  CaseFilter filter;
  uint64_t seed = 1;
  bool strict = false;                             // QualityWarning fails the gate
  FloatRules float_rules = FloatRules::kPlatform;  // --float-rules: which rules judge floats
  std::vector<LevelRequirement> required;  // --require-level / --require: the coverage floor
  bool allow_unavailable = false;  // a backend that cannot run here is a warning, not a failure
  std::string journal;             // "" : no journal
  std::string resume;             // a journal to continue: its cases are skipped, new ones appended
  bool isolation = true;          // run cases in worker processes (crash and hang safe)
  uint64_t timeout_ms = 0;        // per-case limit; 0: 5 s + 1 ms per 1 000 elements
  uint64_t memory_limit_mib = 0;  // a worker's resident memory; 0: half the machine's memory
  // Isolated runs: where the smallest case of each failure group, shrunk, is saved
  // (group_shrink.h); "": no shrinking.
  std::string shrink_dir;
  bool progress = true;
};

struct RunResult {
  int exit_code = 0;  // 0 pass, 1 a gate failure, 2 bad input, 128 + signal when stopped
  uint64_t cases = 0, failures = 0;
  int stop_signal = 0;  // SIGINT or SIGTERM when the run was stopped early
};

// Results and the verdict go to `out`; errors (bad input, an unwritable journal) to `err`.
RunResult RunConformance(const SpecSet& specs, const RunOptions& options, std::ostream& out,
                         std::ostream& err);

// What the reports of a run judge by: its strictness and required levels, and the signal that
// stopped it (0: none), which marks them interrupted.
ReportOptions RunReportOptions(const RunOptions& options, int stop_signal);

// The journal header's record of the options that decide what a run records; --resume
// refuses a journal whose options differ.
std::map<std::string, std::string> RecordedOptions(const RunOptions& options);

// How `resumed` differs from the run about to start ("" when it may be continued): seed,
// filters, shard, options or backends.
std::string ResumeMismatch(const JournalHeader& resumed, const JournalHeader& now);

// The per-case time limit.
uint64_t TimeLimitMs(const CaseRecipe& c, const RunOptions& options);
// The resident memory a worker may hold, in bytes.
uint64_t MemoryLimitBytes(const RunOptions& options);
// The limit for loading and creating a backend in a worker: --timeout-ms, else 60 s (a GPU
// driver can take a while).
uint64_t StartLimitMs(const RunOptions& options);

}  // namespace opcts
