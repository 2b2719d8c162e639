// Compares two runs case by case (keyed by backend and case id) for `opcts report diff`.
// A regression is a case that fails the gate in NEW but did not in BASE, including a case that
// is new in NEW and fails. A case present in BASE but absent from NEW is "missing": it also
// fails the diff unless allowed, because a run that quietly covers less must not look clean.
#pragma once

#include <string>
#include <vector>

#include "reports/report_model.h"

namespace opcts {

struct DiffEntry {
  std::string backend, id;
  std::string base_status, new_status;  // "" where the case is absent
  std::string message, repro;           // from NEW where present, else from BASE
};

struct JournalDiff {
  std::vector<DiffEntry> regressions;  // gate failure in NEW, not in BASE (or absent there)
  std::vector<DiffEntry> fixed;        // gate failure in BASE, not in NEW (and present there)
  std::vector<DiffEntry> changed;      // other status changes, e.g. Fail -> Crash, Pass -> Waived
  std::vector<DiffEntry> missing;      // in BASE, absent from NEW
  std::vector<DiffEntry> added;        // in NEW only, not failing
  std::vector<std::string> warnings;   // different seeds or filters between the runs

  bool Regressed(bool allow_missing) const;
};

JournalDiff DiffReports(const Report& base, const Report& next);

// Human-readable listing, one section per non-empty category.
std::string RenderDiff(const JournalDiff& diff, bool allow_missing);

}  // namespace opcts
