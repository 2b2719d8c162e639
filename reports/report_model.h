// What every report format shows, computed once from journals and waivers: effective statuses,
// per-backend claims, the operator x dtype x rank class x backend matrix, the level coverage of
// every backend and operator, failures grouped by cause, and the gate verdict.
//
//   auto report = opcts::BuildReport(journals, waivers, {.strict = false, .today = TodayUtc()});
//   if (!report) return Usage(report.error().message);
//   return report->Passed() ? 0 : 1;
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "reports/journal.h"
#include "reports/levels.h"
#include "reports/status.h"
#include "reports/waivers.h"

namespace opcts {

struct ReportOptions {
  bool strict = false;  // QualityWarning fails the gate too
  std::string today;    // YYYY-MM-DD, decides which waivers have expired
  // Levels the coverage must reach (--require-level, --require OP=LEVEL).
  std::vector<LevelRequirement> required;
  // Why the run stopped early, e.g. "interrupted by SIGINT"; "" for a run that ran to its end.
  // Fails the gate: the journal holds only the cases finished before it.
  std::string interrupted;
};

// Iterates in Status order (JOURNAL.md's), the order of the Markdown columns and gate reasons.
using StatusCounts = std::map<Status, uint64_t>;

// The counts by status name, alphabetically: the order of the JSON summary's by_status, the HTML
// titles and the terminal verdict (opcts-report/1 has always written them so).
std::vector<std::pair<std::string_view, uint64_t>> CountsByName(const StatusCounts& counts);

struct ReportCase {
  CaseRecord record;
  // record.status, or Waived when an active waiver covers it.
  Status status = Status::kInternalError;
  std::string waiver;  // "file:line: reason" of that waiver
  bool gate_failure = false;
};

struct BackendSummary {
  BackendRecord info;
  StatusCounts by_status;
  uint64_t cases = 0;
  std::map<std::string, uint64_t> behaviours;  // each of CaseRecord::behaviour -> cases
  // Passing cases that only the platform's float rules let pass (IsPlatformFloatBehaviour):
  // `--float-rules ieee` fails them.
  uint64_t platform_rule_passes = 0;
  // Its worker processes' resident memory (isolated runs; 0: not measured), and the worker
  // that leaked fastest if any did (MemoryRecord::leaking): reported; a gate failure if strict.
  uint64_t peak_resident_bytes = 0;
  std::optional<MemoryRecord> leak;
  bool ClaimHolds() const;  // no ClaimViolation among its cases
};

// The cases of one matrix row at one level (or one rank class).
struct MatrixCell {
  std::string column;  // the level, or the rank class
  StatusCounts by_status;
  uint64_t cases = 0, passing = 0;  // passing: IsPassing
  Status worst = Status::kPass;     // the most severe status in the cell (SeverityRank)
  // Its first gate failure, an index into Report::cases; SIZE_MAX when none.
  size_t first_failure = SIZE_MAX;
  uint64_t AsExpected() const;  // Pass plus InvalidRejected: the outcomes a backend aims for
  double PassRate() const;      // passing / cases
};

// One backend's cases of one operator and dtype, by feature level and by rank class.
struct MatrixRow {
  std::string backend, op, dtype;
  std::vector<MatrixCell> levels;        // ascending (CompareLevels); cases without a level out
  std::vector<MatrixCell> rank_classes;  // in RankClasses order, those present
  uint64_t cases = 0, passing = 0;
  // The highest level L such that every case of the row at a level <= L is passing; "" none.
  std::string highest_passing;
  double PassRate() const;  // passing / cases
};

// How far one backend's implementation of one operator is proven: cases are passing when
// IsPassing (Waived is not).
struct Coverage {
  std::string backend, op;
  std::vector<std::string> levels;  // the levels of its cases ("" left out), by CompareLevels
  // The highest level L such that every case at a level <= L is passing; "" when none.
  std::string highest_passing;
  uint64_t cases = 0, passing = 0;  // every case, those at level "" included
  double PassRate() const;          // passing / cases, 0 without cases
};

// Gate failures of one kind: same status, operator, dtype class and normalised cause
// (failure_cause.h), whatever their layouts, values, levels and numbers.
struct FailureGroup {
  Status status = Status::kFail;  // a gate failure
  std::string op, dtype_class, cause;
  std::vector<size_t> cases;            // indices into Report::cases
  size_t smallest = 0;                  // the case with the fewest elements (its first, if several)
  std::optional<ShrunkRecord> minimal;  // what shrinking `smallest` found (opcts run)
  // Cases by dtype, layout, value class, level and kind of value mismatch (MismatchKindOf; ""
  // for other failures): where and how the bug shows.
  std::map<std::string, uint64_t> by_dtype, by_layout, by_values, by_level, by_kind;
};

// The cell of `column` (a level or a rank class) among a row's `cells`, or nullptr.
const MatrixCell* FindColumn(const std::vector<MatrixCell>& cells, const std::string& column);

// The elements of a case's shape (1 for a scalar).
uint64_t ElementCount(const CaseRecord& record);
// "packed 30, strided 20, broadcast 12 (+2 more)": the largest `shown` counts first; "" (for an
// empty key) reads "(none)".
std::string TopCounts(const std::map<std::string, uint64_t>& counts, size_t shown = 4);
// Where a group shows: "dtypes FLOAT32 40, FLOAT16 22; layouts packed 30, ...; values ...;
// levels ..." and, for value mismatches, "; mismatches beyond the accuracy bound 60, ...".
std::string GroupBreakdown(const FailureGroup& group);

struct Report {
  std::vector<std::string> sources;
  std::vector<JournalHeader> headers;  // parallel to sources
  bool strict = false;
  std::string today;
  std::vector<BackendSummary> backends;  // in order of first appearance
  std::vector<ReportCase> cases;         // journal order
  StatusCounts by_status;                // effective statuses
  std::vector<MatrixRow> matrix;         // sorted by op, backend, dtype
  // Per operator of the matrix, the levels its cases have (ascending; maybe none).
  std::map<std::string, std::vector<std::string>> levels_of;
  std::vector<std::string> rank_classes;     // those present, in RankClass order
  std::vector<FailureGroup> failure_groups;  // every group of gate failures, largest first
  std::vector<std::string> gate_reasons;     // why the gate failed; empty when it passed
  std::vector<std::string> gate_problems;    // the reasons that are no case: interrupted or
                                             // incomplete runs, expired waivers, no evidence,
                                             // unmet requirements (also in gate_reasons)
  std::vector<std::string> warnings;         // journal warnings, unused or stale waivers
  uint64_t gate_failures = 0;                // cases that fail the gate
  // Per backend and operator, in order of first appearance.
  std::vector<Coverage> coverage;
  // The gate problems of ReportOptions::required (also in gate_problems), for `report diff`.
  std::vector<std::string> unmet_requirements;

  bool Passed() const { return gate_reasons.empty(); }
};

// A run option the report's journal headers record (runner.h RecordedOptions): "float_rules"
// ("platform", "ieee"), "backend_options" (what each backend's create() was given). The distinct
// non-empty values, joined by ", " when they differ; "" when no header records one (earlier opcts
// versions; a run without --backend-options).
std::string RecordedOptionOf(const Report& report, const std::string& key);

// "rank0", "rank1", "rank2-4", "rank5-8" or "rank9+" (only invalid cases exceed DirectML's 8).
std::string RankClass(size_t rank);
const std::vector<std::string>& RankClasses();

// 0 for the most severe status (Crash) up to 11 (Pass); decides a matrix cell's colour.
int SeverityRank(Status status);

// One line per backend and operator for a terminal: backend, operator, highest fully passing
// level (or "none"), pass rate "97.3 % (1234/1268)" and the levels present, under a heading
// line; "" when the report has no case. Journal text is made TerminalSafe.
// (coverage_table.cc)
std::string RenderCoverageTable(const Report& report);

// ErrorCode::kInvalidInput on a case id seen twice for the same backend.
Result<Report> BuildReport(const std::vector<SourcedJournal>& journals,
                           const std::vector<Waiver>& waivers, const ReportOptions& options);

}  // namespace opcts
