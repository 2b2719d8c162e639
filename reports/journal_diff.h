// Compares two runs case by case (keyed by backend and case id) for `opcts report diff`.
// A regression is a case that fails the gate in NEW but did not in BASE, including a case that
// is new in NEW and fails. A case present in BASE but absent from NEW is "missing", and a case
// that passed in BASE but is NotSupported or absent in NEW has its coverage lost: both fail the
// diff unless allowed, because a run that quietly proves less must not look clean. So does a
// level NEW was required to reach (ReportOptions::required) and did not.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/report_model.h"

namespace opcts {

struct DiffEntry {
  std::string backend, id;
  std::optional<Status> base_status, new_status;  // nullopt where the case is absent
  std::string message, repro;                     // from NEW where present, else from BASE
};

// What the diff forgives (--allow-missing, --allow-coverage-loss); each only its own category.
struct DiffAllowances {
  bool missing = false;
  bool coverage_loss = false;
};

struct JournalDiff {
  std::vector<DiffEntry> regressions;    // gate failure in NEW, not in BASE (or absent there)
  std::vector<DiffEntry> fixed;          // gate failure in BASE, not in NEW (and present there)
  std::vector<DiffEntry> changed;        // other status changes, e.g. Fail -> Crash, Pass -> Waived
  std::vector<DiffEntry> missing;        // in BASE, absent from NEW
  std::vector<DiffEntry> coverage_lost;  // Pass or QualityWarning in BASE; NotSupported or
                                         // absent in NEW (an absent one is also missing)
  std::vector<DiffEntry> added;          // in NEW only, not failing
  std::vector<std::string> unmet_requirements;  // NEW's Report::unmet_requirements
  std::vector<std::string> warnings;  // different seeds, filters or options between the runs

  bool Regressed(const DiffAllowances& allow) const;
};

JournalDiff DiffReports(const Report& base, const Report& next);

// Human-readable listing, one section per non-empty category; journal text is TerminalSafe.
std::string RenderDiff(const JournalDiff& diff, const DiffAllowances& allow);

}  // namespace opcts
