#include "reports/journal_diff.h"

#include <map>
#include <sstream>
#include <utility>

#include "reports/text_escape.h"

namespace opcts {
namespace {

using CaseKey = std::pair<std::string, std::string>;  // backend, id

std::map<CaseKey, const ReportCase*> Index(const Report& report) {
  std::map<CaseKey, const ReportCase*> index;
  for (const auto& item : report.cases) index[{item.record.backend, item.record.id}] = &item;
  return index;
}

DiffEntry Entry(const CaseKey& key, const ReportCase* base, const ReportCase* next) {
  const ReportCase* latest = next ? next : base;
  return {key.first,
          key.second,
          base ? std::optional(base->status) : std::nullopt,
          next ? std::optional(next->status) : std::nullopt,
          latest->record.message,
          latest->record.repro};
}

// Seeds and filters decide which cases exist; if they differ, "missing" and "added" mostly
// reflect that, not the backend.
void CompareHeaders(const Report& base, const Report& next, JournalDiff& diff) {
  if (base.headers.empty() || next.headers.empty()) return;
  const JournalHeader& a = base.headers.front();
  const JournalHeader& b = next.headers.front();
  if (a.seed != b.seed) {
    diff.warnings.push_back("the runs used different seeds (" + std::to_string(a.seed) + " and " +
                            std::to_string(b.seed) + "); case ids will not line up");
  }
  if (a.filters != b.filters) diff.warnings.push_back("the runs used different filters");
  if (a.options != b.options) diff.warnings.push_back("the runs used different options");
}

// Pass or QualityWarning: the backend computed the case and the result held.
bool Computed(const ReportCase& item) {
  return item.status == Status::kPass || item.status == Status::kQualityWarning;
}

std::string_view NameOrAbsent(const std::optional<Status>& status) {
  return status ? StatusName(*status) : "(absent)";
}

void Section(const std::string& title, const std::vector<DiffEntry>& entries,
             std::ostringstream& out) {
  if (entries.empty()) return;
  out << title << " (" << entries.size() << "):\n";
  for (const auto& entry : entries) {
    out << "  " << TerminalSafe(entry.backend) << " " << TerminalSafe(entry.id) << ": "
        << NameOrAbsent(entry.base_status) << " -> " << NameOrAbsent(entry.new_status) << "\n";
    if (entry.new_status && !entry.message.empty()) {
      out << "    " << TerminalSafe(entry.message) << "\n";
    }
    if (!entry.repro.empty()) out << "    repro: " << TerminalSafe(entry.repro) << "\n";
  }
}

std::string Verdict(bool allowed) { return allowed ? " (allowed)" : " (fails the diff)"; }

}  // namespace

bool JournalDiff::Regressed(const DiffAllowances& allow) const {
  return !regressions.empty() || !unmet_requirements.empty() ||
         (!allow.missing && !missing.empty()) || (!allow.coverage_loss && !coverage_lost.empty());
}

JournalDiff DiffReports(const Report& base, const Report& next) {
  JournalDiff diff;
  CompareHeaders(base, next, diff);
  const auto base_index = Index(base);
  const auto next_index = Index(next);
  for (const auto& [key, was] : base_index) {
    const auto it = next_index.find(key);
    if (it == next_index.end()) {
      diff.missing.push_back(Entry(key, was, nullptr));
      if (Computed(*was)) diff.coverage_lost.push_back(Entry(key, was, nullptr));
      continue;
    }
    const ReportCase* now = it->second;
    if (now->gate_failure && !was->gate_failure) {
      diff.regressions.push_back(Entry(key, was, now));
    } else if (Computed(*was) && now->status == Status::kNotSupported) {
      diff.coverage_lost.push_back(Entry(key, was, now));
    } else if (was->gate_failure && !now->gate_failure) {
      diff.fixed.push_back(Entry(key, was, now));
    } else if (was->status != now->status) {
      diff.changed.push_back(Entry(key, was, now));
    }
  }
  for (const auto& [key, now] : next_index) {
    if (base_index.count(key)) continue;
    (now->gate_failure ? diff.regressions : diff.added).push_back(Entry(key, nullptr, now));
  }
  diff.unmet_requirements = next.unmet_requirements;
  return diff;
}

std::string RenderDiff(const JournalDiff& diff, const DiffAllowances& allow) {
  std::ostringstream out;
  for (const auto& warning : diff.warnings) out << "warning: " << warning << "\n";
  Section("Regressions", diff.regressions, out);
  Section("Missing from NEW" + Verdict(allow.missing), diff.missing, out);
  Section("Coverage lost" + Verdict(allow.coverage_loss), diff.coverage_lost, out);
  if (!diff.unmet_requirements.empty()) {
    out << "Required levels not met in NEW (fails the diff) (" << diff.unmet_requirements.size()
        << "):\n";
    for (const auto& problem : diff.unmet_requirements) {
      out << "  " << TerminalSafe(problem) << "\n";
    }
  }
  Section("Fixed", diff.fixed, out);
  Section("Changed", diff.changed, out);
  Section("New cases", diff.added, out);
  out << "diff: " << diff.regressions.size() << " regression(s), " << diff.missing.size()
      << " missing, " << diff.coverage_lost.size() << " coverage lost, " << diff.fixed.size()
      << " fixed, " << diff.changed.size() << " changed, " << diff.added.size() << " new";
  if (!diff.unmet_requirements.empty()) {
    out << ", " << diff.unmet_requirements.size() << " requirement(s) not met";
  }
  out << ": " << (diff.Regressed(allow) ? "REGRESSED" : "no regression") << "\n";
  return out.str();
}

}  // namespace opcts
