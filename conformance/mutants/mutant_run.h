// Runs the default conformance run (every case, seed 1, no filters) against several backend
// plugins, each in its own child process, `jobs` at a time. The runner already isolates a
// backend's crash or hang to its case; the child adds parallel runs and a whole-run time limit,
// and a run that dies anyway is attributed to the case it was in.
//
//   std::vector<RunReport> r = RunInChildren(specs, {{"none", "plugins/opcts-mutant-none.so"}},
//                                            {.work_dir = "build/mutants-work"});
//   for (const CaseHit& h : r[0].hits) std::cout << h.status << " " << h.id << "\n";
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/spec_set.h"
#include "reports/status.h"

namespace opcts {

struct RunRequest {
  std::string name;    // names the journal and log in the work dir: <name>.jsonl, <name>.log
  std::string plugin;  // path to the .so
};

struct ChildOptions {
  std::string work_dir;
  unsigned jobs = 2;
  unsigned timeout_s = 120;  // a run still going after this is killed: a Timeout hit
};

// A case that failed the strict gate (a gate failure or a QualityWarning).
struct CaseHit {
  Status status = Status::kFail;
  std::string id, message;
  double seconds = 0;     // from the run's first case until this one was judged
  uint64_t elements = 0;  // of the case's main tensor: how big a human has to read
};

struct RunReport {
  std::string error;          // set when the run could not be judged (bad plugin, bad journal)
  std::vector<CaseHit> hits;  // in run order; a crash or timeout ends with the case it hit
  std::string journal;        // path, for repro lines
  double seconds = 0;         // the whole child, wall clock
};

std::vector<RunReport> RunInChildren(const SpecSet& specs, const std::vector<RunRequest>& runs,
                                     const ChildOptions& options);

}  // namespace opcts
