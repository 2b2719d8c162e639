// Which mismatches end a differential target's process. A mismatch has a failure signature, the
// conformance reports' group key (reports/failure_cause.h: status, operator, dtype class,
// normalised cause). A campaign (`opcts fuzz`) sets, per process:
//   OPCTS_FUZZ_KNOWN=FILE       signatures found already ("SIGNATURE\tSOURCE" lines): a mismatch
//                               with one of them is counted and fuzzing goes on; a new one is
//                               appended before the process aborts, so sibling processes count it
//   OPCTS_FUZZ_ONLY=SIGNATURE   while one finding is minimized: only that signature aborts
//   OPCTS_FUZZ_REGRESSIONS=DIR  a regression vector of this operator that fails on the backend
//                               makes its signature known ("regression FILE")
//   OPCTS_FUZZ_WAIVERS=FILE     a mismatch a waiver covers is known ("waiver FILE:LINE")
//   OPCTS_FUZZ_HITS=FILE        the counts of known signatures ("SIGNATURE\tSOURCE\tCOUNT"
//                               lines), rewritten at most once a second and at exit
// Unset (a target run by hand, the replay tests), every mismatch aborts.
//
//   if (FindingFilter::Get().Tolerates(op, outcome, input)) return 0;  // known: counted
//   PrintFindingAndAbort(...);
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "conformance/case_run.h"
#include "reports/waivers.h"
#include "spec/operation.h"

namespace opcts {

// The signature of a case's outcome, its dtype the first output's.
std::string FuzzSignature(const Operation& op, const CaseOutcome& outcome);

// The id a waiver is matched against: "<operator key>.<dtype>.rank<R>.fuzz.<8 hex of the input>",
// so a waiver of "dml_scatter_nd.f16.*" covers fuzz findings as it covers conformance cases.
std::string FuzzCaseId(const Operation& op, const std::string& input);

class FindingFilter {
 public:
  // Reads the environment once; exits 2 with a message when a file it names is unreadable.
  static FindingFilter& Get();

  // True when the mismatch is known (counted) or, while minimizing, not the one minimized. False
  // when it must be reported: a new signature (then recorded in the known file first).
  bool Tolerates(const Operation& op, const CaseOutcome& outcome, const std::string& input);

  // The regression vectors of `op_name` in OPCTS_FUZZ_REGRESSIONS run on the backend; those that
  // fail make their signatures known. Called once the backend is loaded.
  void LoadRegressions(const std::string& op_name);

  void WriteHits();  // also at exit

 private:
  FindingFilter();
  void ReloadKnown();

  std::string known_path_, only_, hits_path_, regressions_dir_;
  std::vector<Waiver> waivers_;
  std::string today_;
  std::map<std::string, std::string> known_;  // signature -> source
  uintmax_t known_size_ = 0;                  // of the known file when last read
  std::map<std::pair<std::string, std::string>, uint64_t> hits_;  // (signature, source) -> count
  std::chrono::steady_clock::time_point last_write_;
};

}  // namespace opcts
