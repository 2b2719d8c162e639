// The conformance run: every generated case that passes the filters, through every backend,
// one journal line per case and backend, a summary table, and a gate verdict.
//
//   RunOptions o;
//   o.backends = {"cpu-simd"};
//   RunResult r = RunConformance(specs, o, std::cout);
//   return r.exit_code;   // 0 only when nothing failed
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/case_executor.h"
#include "conformance/spec_set.h"
#include "reports/journal.h"

namespace opcts {

struct CaseFilter {
  std::string op = "*", dtype = "*", level = "*", id = "*";  // fnmatch globs
  uint32_t shard_index = 0, shard_count = 1;
  uint64_t max_cases = 0;  // 0: no budget
  bool Matches(const CaseRecipe& c) const;
};

struct RunOptions {
  std::vector<std::string> backends;  // names of built-ins or paths; empty: every built-in
  std::string backend_options;        // passed to each backend's create()
  CaseFilter filter;
  uint64_t seed = 1;
  bool strict = false;             // QualityWarning fails the gate
  bool allow_unavailable = false;  // a backend that cannot run here is a warning, not a failure
  std::string journal;             // "" : no journal
  std::string resume;              // a journal to continue: its cases are skipped, new ones appended
  bool isolation = true;           // run cases in worker processes (crash and hang safe)
  uint64_t timeout_ms = 0;         // per-case limit; 0: 5 s + 1 ms per 1 000 elements
  bool progress = true;
};

struct RunResult {
  int exit_code = 0;  // 0 pass, 1 a gate failure, 2 bad input
  uint64_t cases = 0, failures = 0;
};

RunResult RunConformance(const SpecSet& specs, const RunOptions& options, std::ostream& out);

// The cases a run with these options would execute, in order (filters and shard applied).
std::vector<CaseRecipe> SelectCases(const SpecSet& specs, uint64_t seed, const CaseFilter& filter);

// What a backend claims: its DirectML feature level ("5_0") and extra support words.
struct BackendClaims {
  std::string feature_level;
  std::vector<std::string> extra_support;
};
// Whether the claims cover a case at `level` of `spec`.
bool Claims(const BackendClaims& claims, const OperatorSpec& spec, const std::string& level);
bool Claims(const Plugin& plugin, const OperatorSpec& spec, const std::string& level);
// valid (within the claims), unclaimed, or invalid.
CaseGroup GroupFor(const CaseRecipe& c, const BackendClaims& claims);
// The journal line of one case on one backend.
CaseRecord MakeRecord(const CaseRecipe& c, const std::string& backend, const std::string& plugin_path,
                      uint64_t seed, CaseGroup group, const CaseOutcome& outcome);
// The per-case time limit.
uint64_t TimeLimitMs(const CaseRecipe& c, const RunOptions& options);

}  // namespace opcts
