#include "reports/report_model.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <unordered_map>

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
      item.status = "Waived";
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

// The end of the number starting at `i`: "0x3f80", "12", "1.5", "1.5e-07".
size_t SkipNumber(std::string_view text, size_t i) {
  const auto digit = [&](size_t k) {
    return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]));
  };
  if (text[i] == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
    for (i += 2; i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]));) ++i;
    return i;
  }
  while (digit(i) || (i < text.size() && text[i] == '.' && digit(i + 1))) ++i;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t k = i + 1;
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
    if (digit(k)) {
      for (i = k; digit(i);) ++i;
    }
  }
  return i;
}

void Tally(Report& report) {
  std::map<std::tuple<std::string, std::string, std::string, int>, MatrixCell> cells;
  std::map<std::tuple<std::string, std::string, std::string>, FailureGroup> groups;
  std::vector<bool> rank_seen(RankClasses().size());
  for (size_t i = 0; i < report.cases.size(); ++i) {
    const ReportCase& item = report.cases[i];
    const CaseRecord& record = item.record;
    ++report.by_status[item.status];
    BackendSummary& backend = FindOrAddBackend(report.backends, record.backend);
    ++backend.by_status[item.status];
    ++backend.cases;

    const std::string rank_class = RankClass(record.shape.size());
    const int rank_index = static_cast<int>(
        std::find(RankClasses().begin(), RankClasses().end(), rank_class) - RankClasses().begin());
    rank_seen[rank_index] = true;
    MatrixCell& cell = cells[{record.backend, record.op, record.dtype, rank_index}];
    if (cell.cases == 0) {
      cell = {record.backend, record.op, record.dtype, rank_class, {}, 0, item.status};
    }
    ++cell.by_status[item.status];
    ++cell.cases;
    if (SeverityRank(item.status) < SeverityRank(cell.worst)) cell.worst = item.status;

    if (item.gate_failure) {
      ++report.gate_failures;
      const std::string cause = CauseOf(record.message);
      FailureGroup& group = groups[{item.status, record.op, cause}];
      if (group.cases.empty()) group = {item.status, record.op, cause, {}};
      group.cases.push_back(i);
    }
  }
  for (auto& [key, cell] : cells) report.matrix.push_back(std::move(cell));
  for (size_t i = 0; i < rank_seen.size(); ++i) {
    if (rank_seen[i]) report.rank_classes.push_back(RankClasses()[i]);
  }
  for (auto& [key, group] : groups) report.failure_groups.push_back(std::move(group));
  std::stable_sort(report.failure_groups.begin(), report.failure_groups.end(),
                   [](const auto& a, const auto& b) { return a.cases.size() > b.cases.size(); });
}

void AddGateReasons(Report& report) {
  std::vector<std::string> reasons;
  for (const auto status : KnownStatuses()) {
    const auto it = report.by_status.find(std::string(status));
    if (it != report.by_status.end() && IsGateFailure(status, report.strict)) {
      reasons.push_back(std::to_string(it->second) + " case(s) with status " + it->first);
    }
  }
  report.gate_reasons = reasons;
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

}  // namespace

bool BackendSummary::ClaimHolds() const { return !by_status.count("ClaimViolation"); }

uint64_t MatrixCell::AsExpected() const {
  uint64_t count = 0;
  for (const char* status : {"Pass", "InvalidRejected"}) {
    if (const auto it = by_status.find(status); it != by_status.end()) count += it->second;
  }
  return count;
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

int SeverityRank(std::string_view status) {
  static constexpr std::string_view kOrder[] = {
      "Crash", "InternalError",  "Timeout", "ClaimViolation", "InvalidAccepted",
      "Fail",  "QualityWarning", "Waived",  "NotSupported",   "InvalidRejected",
      "Pass"};
  const auto it = std::find(std::begin(kOrder), std::end(kOrder), status);
  return static_cast<int>(it - std::begin(kOrder));
}

std::string CauseOf(std::string_view message) {
  constexpr size_t kMaxLength = 160;
  std::string cause;
  for (size_t i = 0; i < message.size() && cause.size() < kMaxLength;) {
    if (std::isdigit(static_cast<unsigned char>(message[i]))) {
      i = SkipNumber(message, i);
      cause += '#';
    } else {
      cause += message[i] == '\n' ? ' ' : message[i];
      ++i;
    }
  }
  return cause;
}

JournalResult<Report> BuildReport(const std::vector<SourcedJournal>& journals,
                                  const std::vector<Waiver>& waivers,
                                  const ReportOptions& options) {
  Report report;
  report.strict = options.strict;
  report.today = options.today;
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
        return {std::nullopt, journal.source + ": case \"" + record.id + "\" on backend \"" +
                                  record.backend + "\" also appears in " + *it->second +
                                  " (merge shards with `opcts report merge`, which checks them)"};
      }
      ReportCase item{record, record.status, "", IsGateFailure(record.status, options.strict)};
      if (item.gate_failure) ApplyWaivers(waivers, options.today, item, uses);
      report.cases.push_back(std::move(item));
    }
  }
  Tally(report);
  AddWaiverVerdicts(waivers, uses, report);
  AddGateReasons(report);
  return {std::move(report), ""};
}

}  // namespace opcts
