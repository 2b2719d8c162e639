#include "reports/report_model.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>
#include <unordered_map>

#include "reports/failure_cause.h"

namespace opcts {
namespace {

struct WaiverUse {
  uint64_t waived = 0;        // failures it waived (active waivers)
  uint64_t expired_hits = 0;  // failures it would have waived had it not expired
};

BackendSummary& FindOrAddBackend(std::vector<BackendSummary>& backends, const std::string& name) {
  for (auto& backend : backends) {
    if (backend.info.name == name) return backend;
  }
  backends.push_back({});
  backends.back().info.name = name;
  return backends.back();
}

void AddHeaderBackends(const SourcedJournal& journal, Report& report) {
  for (const auto& info : journal.journal.header.backends) {
    const bool known = std::any_of(report.backends.begin(), report.backends.end(),
                                   [&](const auto& b) { return b.info.name == info.name; });
    BackendSummary& backend = FindOrAddBackend(report.backends, info.name);
    if (!known) {
      backend.info = info;
    } else if (backend.info.version != info.version || backend.info.device != info.device ||
               backend.info.feature_level != info.feature_level) {
      report.warnings.push_back(journal.source + ": backend \"" + info.name +
                                "\" differs from an earlier journal (version, device or level); "
                                "the report shows the first");
    }
  }
}

// Applies the first active waiver matching a gate failure; remembers expired ones that match.
void ApplyWaivers(const std::vector<Waiver>& waivers, const std::string& today, ReportCase& item,
                  std::vector<WaiverUse>& uses) {
  const auto matches = [&](const Waiver& waiver) {
    return GlobMatch(waiver.id_glob, item.record.id) &&
           GlobMatch(waiver.backend_glob, item.record.backend);
  };
  for (size_t i = 0; i < waivers.size(); ++i) {
    if (!IsExpired(waivers[i], today) && matches(waivers[i])) {
      item.status = Status::kWaived;
      item.waiver = waivers[i].location + ": " + waivers[i].reason;
      item.gate_failure = false;
      ++uses[i].waived;
      return;
    }
  }
  for (size_t i = 0; i < waivers.size(); ++i) {
    if (IsExpired(waivers[i], today) && matches(waivers[i])) ++uses[i].expired_hits;
  }
}

void AddWaiverVerdicts(const std::vector<Waiver>& waivers, const std::vector<WaiverUse>& uses,
                       Report& report) {
  for (size_t i = 0; i < waivers.size(); ++i) {
    const Waiver& waiver = waivers[i];
    const std::string what = waiver.location + ": waiver for id \"" + waiver.id_glob +
                             "\" (backend \"" + waiver.backend_glob + "\")";
    if (uses[i].expired_hits > 0) {
      report.gate_problems.push_back(what + " expired on " + *waiver.expires +
                                     " and still matches " + std::to_string(uses[i].expired_hits) +
                                     " failing case(s); fix them or renew the waiver");
    } else if (uses[i].waived == 0) {
      report.warnings.push_back(what +
                                " matched no failing case; remove it if the failure is fixed");
    }
  }
}

}  // namespace

uint64_t ElementCount(const CaseRecord& record) {
  uint64_t elements = 1;
  for (uint32_t size : record.shape) elements *= size;
  return elements;
}

const MatrixCell* FindColumn(const std::vector<MatrixCell>& cells, const std::string& column) {
  for (const MatrixCell& cell : cells)
    if (cell.column == column) return &cell;
  return nullptr;
}

std::string TopCounts(const std::map<std::string, uint64_t>& counts, size_t shown) {
  std::vector<std::pair<std::string, uint64_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (size_t i = 0; i < sorted.size() && i < shown; ++i)
    text += (i ? ", " : "") + (sorted[i].first.empty() ? "(none)" : sorted[i].first) + " " +
            std::to_string(sorted[i].second);
  if (sorted.size() > shown) text += " (+" + std::to_string(sorted.size() - shown) + " more)";
  return text;
}

std::string GroupBreakdown(const FailureGroup& group) {
  std::string text = "dtypes " + TopCounts(group.by_dtype) + "; layouts " +
                     TopCounts(group.by_layout) + "; values " + TopCounts(group.by_values) +
                     "; levels " + TopCounts(group.by_level);
  if (!group.by_kind.empty()) text += "; mismatches " + TopCounts(group.by_kind, 9);
  return text;
}

namespace {

void Tally(Report& report) {
  // Keyed by the status's name: groups of one size stay in the order of the names.
  std::map<std::tuple<std::string_view, std::string, std::string, std::string>, FailureGroup>
      groups;
  for (size_t i = 0; i < report.cases.size(); ++i) {
    const ReportCase& item = report.cases[i];
    const CaseRecord& record = item.record;
    ++report.by_status[item.status];
    BackendSummary& backend = FindOrAddBackend(report.backends, record.backend);
    ++backend.by_status[item.status];
    ++backend.cases;
    bool platform_rules = false;
    for (const std::string& behaviour : SplitBehaviours(record.behaviour)) {
      ++backend.behaviours[behaviour];
      platform_rules |= IsPlatformFloatBehaviour(behaviour);
    }
    if (platform_rules && IsPassing(item.status, report.strict)) ++backend.platform_rule_passes;

    if (item.gate_failure) {
      ++report.gate_failures;
      const std::string cause = NormalizedCause(record);
      const std::string dtype_class = DtypeClass(record.dtype);
      FailureGroup& group = groups[{StatusName(item.status), record.op, dtype_class, cause}];
      if (group.cases.empty()) {
        group.status = item.status;
        group.op = record.op;
        group.dtype_class = dtype_class;
        group.cause = cause;
        group.smallest = i;
      }
      group.cases.push_back(i);
      if (ElementCount(record) < ElementCount(report.cases[group.smallest].record))
        group.smallest = i;
      ++group.by_dtype[record.dtype];
      ++group.by_layout[record.layout];
      ++group.by_values[record.values];
      ++group.by_level[record.level];
      if (std::string kind = MismatchKindOf(record); !kind.empty()) ++group.by_kind[kind];
    }
  }
  for (auto& [key, group] : groups) report.failure_groups.push_back(std::move(group));
  std::stable_sort(report.failure_groups.begin(), report.failure_groups.end(),
                   [](const auto& a, const auto& b) { return a.cases.size() > b.cases.size(); });
}

void AddGateReasons(Report& report) {
  for (const auto& [status, count] : report.by_status) {
    if (!IsGateFailure(status, report.strict)) continue;
    report.gate_reasons.push_back(std::to_string(count) + " case(s) with status " +
                                  std::string(StatusName(status)));
  }
  report.gate_reasons.insert(report.gate_reasons.end(), report.gate_problems.begin(),
                             report.gate_problems.end());
}

// A run killed early leaves fewer case lines than its header planned; that must not pass.
void CheckCompleteness(const SourcedJournal& journal, Report& report) {
  const uint64_t planned = journal.journal.header.planned_cases;
  const uint64_t present = journal.journal.cases.size();
  if (planned > present) {
    report.gate_problems.push_back(journal.source + ": only " + std::to_string(present) + " of " +
                                   std::to_string(planned) +
                                   " planned cases are present (run incomplete?)");
  } else if (planned != 0 && planned < present) {
    report.warnings.push_back(journal.source + ": " + std::to_string(present) + " cases but only " +
                              std::to_string(planned) + " planned");
  }
}

bool LevelLess(const std::string& a, const std::string& b) {
  const int order = CompareLevels(a, b);
  return order < 0 || (order == 0 && a < b);
}

// Walks the levels upwards until one holds a case that is not passing. Levels that compare
// equal ("4_0", "4.0") stand or fall together.
std::string HighestPassing(const std::vector<std::string>& levels,
                           const std::map<std::string, bool>& level_passes) {
  std::string highest;
  for (size_t i = 0; i < levels.size();) {
    bool all_pass = true;
    size_t end = i;
    for (; end < levels.size() && CompareLevels(levels[end], levels[i]) == 0; ++end) {
      all_pass = all_pass && level_passes.at(levels[end]);
    }
    if (!all_pass) break;
    highest = levels[end - 1];
    i = end;
  }
  return highest;
}

void AddCoverage(Report& report) {
  std::vector<std::map<std::string, bool>> level_passes;  // parallel to report.coverage
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (const auto& item : report.cases) {
    const CaseRecord& record = item.record;
    const auto [it, inserted] = index.emplace(std::pair(record.backend, record.op), index.size());
    if (inserted) {
      report.coverage.push_back({record.backend, record.op, {}, "", 0, 0});
      level_passes.emplace_back();
    }
    Coverage& entry = report.coverage[it->second];
    const bool passing = IsPassing(item.status, report.strict);
    ++entry.cases;
    entry.passing += passing;
    if (record.level.empty()) continue;
    const auto level = level_passes[it->second].emplace(record.level, true).first;
    level->second = level->second && passing;
  }
  for (size_t i = 0; i < report.coverage.size(); ++i) {
    Coverage& entry = report.coverage[i];
    for (const auto& [level, passes] : level_passes[i]) entry.levels.push_back(level);
    std::sort(entry.levels.begin(), entry.levels.end(), LevelLess);
    entry.highest_passing = HighestPassing(entry.levels, level_passes[i]);
  }
}

void Count(const ReportCase& item, size_t index, bool passing, MatrixCell& cell) {
  if (cell.cases == 0) cell.worst = item.status;
  ++cell.by_status[item.status];
  ++cell.cases;
  cell.passing += passing;
  if (SeverityRank(item.status) < SeverityRank(cell.worst)) cell.worst = item.status;
  if (item.gate_failure && cell.first_failure == SIZE_MAX) cell.first_failure = index;
}

// Rows by backend, operator and dtype; columns by level and rank class.
void AddMatrix(Report& report) {
  struct Building {
    MatrixRow row;
    std::map<std::string, MatrixCell> levels;
    std::map<size_t, MatrixCell> rank_classes;  // by RankClasses index
  };
  std::map<std::tuple<std::string, std::string, std::string>, Building> rows;
  std::map<std::string, std::set<std::string>> levels_of;
  std::set<size_t> ranks_seen;
  for (size_t i = 0; i < report.cases.size(); ++i) {
    const ReportCase& item = report.cases[i];
    const CaseRecord& record = item.record;
    const bool passing = IsPassing(item.status, report.strict);
    Building& b = rows[{record.op, record.backend, record.dtype}];
    b.row.backend = record.backend;
    b.row.op = record.op;
    b.row.dtype = record.dtype;
    ++b.row.cases;
    b.row.passing += passing;
    if (!record.level.empty()) {
      levels_of[record.op].insert(record.level);
      Count(item, i, passing, b.levels[record.level]);
    }
    const std::string rank_class = RankClass(record.shape.size());
    const size_t rank = static_cast<size_t>(
        std::find(RankClasses().begin(), RankClasses().end(), rank_class) - RankClasses().begin());
    ranks_seen.insert(rank);
    Count(item, i, passing, b.rank_classes[rank]);
  }
  for (const auto& [key, b] : rows) levels_of[b.row.op];  // an operator without levels too
  for (auto& [op, levels] : levels_of) {
    report.levels_of[op].assign(levels.begin(), levels.end());
    std::sort(report.levels_of[op].begin(), report.levels_of[op].end(), LevelLess);
  }
  for (const size_t rank : ranks_seen) report.rank_classes.push_back(RankClasses()[rank]);
  for (auto& [key, b] : rows) {
    std::map<std::string, bool> passes;
    std::vector<std::string> levels;
    for (auto& [level, cell] : b.levels) {
      cell.column = level;
      passes[level] = cell.passing == cell.cases;
      levels.push_back(level);
      b.row.levels.push_back(std::move(cell));
    }
    std::sort(levels.begin(), levels.end(), LevelLess);
    std::sort(
        b.row.levels.begin(), b.row.levels.end(),
        [](const MatrixCell& x, const MatrixCell& y) { return LevelLess(x.column, y.column); });
    b.row.highest_passing = HighestPassing(levels, passes);
    for (auto& [rank, cell] : b.rank_classes) {
      cell.column = RankClasses()[rank];
      b.row.rank_classes.push_back(std::move(cell));
    }
    report.matrix.push_back(std::move(b.row));
  }
}

// "3 NotSupported, 1 Waived", in Status order.
std::string StatusList(const StatusCounts& counts) {
  std::string list;
  for (const auto& [status, count] : counts) {
    list +=
        (list.empty() ? "" : ", ") + std::to_string(count) + " " + std::string(StatusName(status));
  }
  return list;
}

// No green without evidence: an empty selection proves nothing, and neither does a backend that
// refused every case it was asked to compute. Invalid cases only prove the backend refuses.
void CheckEvidence(Report& report) {
  if (report.cases.empty()) {
    report.gate_problems.push_back("no case was judged (an empty selection proves nothing)");
    return;
  }
  std::set<std::string> asked_to_compute;
  for (const auto& item : report.cases) {
    if (item.record.group != CaseGroup::kInvalid) asked_to_compute.insert(item.record.backend);
  }
  for (const auto& backend : report.backends) {
    if (!asked_to_compute.count(backend.info.name) || backend.by_status.count(Status::kPass) ||
        backend.by_status.count(Status::kQualityWarning)) {
      continue;
    }
    report.gate_problems.push_back("backend " + backend.info.name + " computed none of its " +
                                   std::to_string(backend.cases) + " cases (" +
                                   StatusList(backend.by_status) + "): nothing was proven");
  }
}

// Each group's minimal case: the shrunk record of its smallest case.
void AddShrunk(const std::vector<SourcedJournal>& journals, Report& report) {
  for (FailureGroup& group : report.failure_groups) {
    const CaseRecord& smallest = report.cases[group.smallest].record;
    for (const auto& journal : journals)
      for (const ShrunkRecord& s : journal.journal.shrunk)
        if (s.backend == smallest.backend && s.id == smallest.id) group.minimal = s;
  }
}

// The workers' memory records: each backend's peak, and its fastest leak.
void AddMemory(const std::vector<SourcedJournal>& journals, Report& report) {
  for (const auto& journal : journals) {
    for (const MemoryRecord& m : journal.journal.memory) {
      BackendSummary& backend = FindOrAddBackend(report.backends, m.backend);
      backend.peak_resident_bytes = std::max(backend.peak_resident_bytes, m.peak_bytes);
      if (m.leaking && (!backend.leak || m.growth_per_case > backend.leak->growth_per_case))
        backend.leak = m;
    }
  }
  if (!report.strict) return;
  for (const BackendSummary& backend : report.backends)
    if (backend.leak)
      report.gate_problems.push_back("backend " + backend.info.name +
                                     " leaks memory (strict): " + DescribeLeak(*backend.leak));
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool HasLevelLike(const Coverage& entry, const std::string& level) {
  return std::any_of(entry.levels.begin(), entry.levels.end(),
                     [&](const std::string& own) { return SameLevelScheme(own, level); });
}

bool Applies(const LevelRequirement& requirement, const Coverage& entry) {
  return requirement.op.empty() ? HasLevelLike(entry, requirement.level)
                                : EqualsIgnoringCase(requirement.op, entry.op);
}

// The lowest level holding a case that is not passing, or nullptr.
const std::string* FirstFailingLevel(const Coverage& entry) {
  for (const auto& level : entry.levels) {
    if (CompareLevels(level, entry.highest_passing) > 0) return &level;
  }
  return nullptr;
}

struct UpTo {
  uint64_t cases = 0, not_passing = 0;
};

// The cases of `entry` at a level up to `level` ("" levels left out).
UpTo CountUpTo(const Report& report, const Coverage& entry, const std::string& level) {
  UpTo count;
  for (const auto& item : report.cases) {
    const CaseRecord& record = item.record;
    if (record.backend != entry.backend || record.op != entry.op || record.level.empty() ||
        CompareLevels(record.level, level) > 0) {
      continue;
    }
    ++count.cases;
    count.not_passing += !IsPassing(item.status, report.strict);
  }
  return count;
}

void Unmet(Report& report, const std::string& problem) {
  report.unmet_requirements.push_back(problem);
  report.gate_problems.push_back(problem);
}

// A requirement holds for an operator when every case at a level up to LEVEL is passing; levels
// absent from the run (the spec defines no case there) do not count against it. A requirement
// that no case could prove fails too.
void CheckRequirement(const LevelRequirement& requirement, Report& report) {
  const std::string& level = requirement.level;
  const std::string name = requirement.op.empty() ? "--require-level " + level
                                                  : "--require " + requirement.op + "=" + level;
  bool applied = false, proven_somewhere = false;
  for (const Coverage& entry : report.coverage) {
    if (!Applies(requirement, entry)) continue;
    applied = true;
    if (!entry.levels.empty() && !HasLevelLike(entry, level)) {
      proven_somewhere = true;
      Unmet(report, name + ": " + entry.backend + " " + entry.op + " has levels like " +
                        entry.levels.front() + ", not like " + level);
      continue;
    }
    const UpTo up_to = CountUpTo(report, entry, level);
    proven_somewhere |= up_to.cases > 0;
    const std::string* failing = FirstFailingLevel(entry);
    if (!failing || CompareLevels(*failing, level) > 0) continue;
    Unmet(report, entry.backend + " " + entry.op + ": highest fully passing level is " +
                      (entry.highest_passing.empty() ? "none" : entry.highest_passing) +
                      ", below the required " + level + " (" + std::to_string(up_to.not_passing) +
                      " of " + std::to_string(up_to.cases) + " cases up to " + level +
                      " not passing)");
  }
  if (!applied) {
    Unmet(report,
          name + (requirement.op.empty() ? ": no operator with levels like " + level + " was run"
                                         : ": no case of operator " + requirement.op + " was run"));
  } else if (!proven_somewhere) {
    Unmet(report, name + ": no case at level " + level + " or below was run");
  }
}

double Rate(uint64_t passing, uint64_t cases) {
  return cases == 0 ? 0.0 : static_cast<double>(passing) / static_cast<double>(cases);
}

}  // namespace

double Coverage::PassRate() const { return Rate(passing, cases); }
double MatrixCell::PassRate() const { return Rate(passing, cases); }
double MatrixRow::PassRate() const { return Rate(passing, cases); }

bool BackendSummary::ClaimHolds() const { return !by_status.count(Status::kClaimViolation); }

uint64_t MatrixCell::AsExpected() const {
  uint64_t count = 0;
  for (const Status status : {Status::kPass, Status::kInvalidRejected}) {
    if (const auto it = by_status.find(status); it != by_status.end()) count += it->second;
  }
  return count;
}

std::string RecordedOptionOf(const Report& report, const std::string& key) {
  std::vector<std::string> values;
  for (const JournalHeader& header : report.headers) {
    const auto it = header.options.find(key);
    if (it != header.options.end() && !it->second.empty() &&
        std::find(values.begin(), values.end(), it->second) == values.end())
      values.push_back(it->second);
  }
  std::string text;
  for (const std::string& v : values) text += (text.empty() ? "" : ", ") + v;
  return text;
}

const std::vector<std::string>& RankClasses() {
  static const std::vector<std::string> kClasses = {"rank0", "rank1", "rank2-4", "rank5-8",
                                                    "rank9+"};
  return kClasses;
}

std::string RankClass(size_t rank) {
  if (rank <= 1) return RankClasses()[rank];
  if (rank <= 4) return RankClasses()[2];
  if (rank <= 8) return RankClasses()[3];
  return RankClasses()[4];
}

std::vector<std::pair<std::string_view, uint64_t>> CountsByName(const StatusCounts& counts) {
  std::vector<std::pair<std::string_view, uint64_t>> by_name;
  for (const auto& [status, count] : counts) by_name.emplace_back(StatusName(status), count);
  std::sort(by_name.begin(), by_name.end());
  return by_name;
}

int SeverityRank(Status status) {
  static constexpr Status kMostSevereFirst[] = {
      Status::kCrash,        Status::kInternalError,   Status::kTimeout,
      Status::kMemoryLimit,  Status::kClaimViolation,  Status::kInvalidAccepted,
      Status::kFail,         Status::kQualityWarning,  Status::kWaived,
      Status::kNotSupported, Status::kInvalidRejected, Status::kPass};
  const auto it = std::find(std::begin(kMostSevereFirst), std::end(kMostSevereFirst), status);
  return static_cast<int>(it - std::begin(kMostSevereFirst));
}

Result<Report> BuildReport(const std::vector<SourcedJournal>& journals,
                           const std::vector<Waiver>& waivers, const ReportOptions& options) {
  Report report;
  report.strict = options.strict;
  report.today = options.today;
  if (!options.interrupted.empty()) {
    report.gate_problems.push_back("the run was " + options.interrupted +
                                   ": the journal holds only the cases finished before it");
  }
  std::unordered_map<std::string, const std::string*> seen;  // backend + '\n' + id -> source
  std::vector<WaiverUse> uses(waivers.size());
  for (const auto& journal : journals) {
    report.sources.push_back(journal.source);
    report.headers.push_back(journal.journal.header);
    for (const auto& warning : journal.journal.warnings) report.warnings.push_back(warning);
    AddHeaderBackends(journal, report);
    CheckCompleteness(journal, report);
    for (const auto& record : journal.journal.cases) {
      const auto [it, inserted] = seen.emplace(record.backend + '\n' + record.id, &journal.source);
      if (!inserted) {
        return InvalidInput(journal.source + ": case \"" + record.id + "\" on backend \"" +
                            record.backend + "\" also appears in " + *it->second +
                            " (merge shards with `opcts report merge`, which checks them)");
      }
      ReportCase item{record, record.status, "", IsGateFailure(record.status, options.strict)};
      if (item.gate_failure) ApplyWaivers(waivers, options.today, item, uses);
      report.cases.push_back(std::move(item));
    }
  }
  Tally(report);
  AddMemory(journals, report);
  AddShrunk(journals, report);
  AddCoverage(report);
  AddMatrix(report);
  AddWaiverVerdicts(waivers, uses, report);
  CheckEvidence(report);
  for (const auto& requirement : options.required) CheckRequirement(requirement, report);
  AddGateReasons(report);
  return report;
}

}  // namespace opcts
