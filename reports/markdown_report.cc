#include "reports/markdown_report.h"

#include <algorithm>
#include <sstream>

#include "reports/text_escape.h"

namespace opcts {
namespace {

// GitHub rejects comments over 65536 characters; this cap keeps long lists well below that.
constexpr size_t kMaxListed = 20;

// The statuses of the report's cases, in Status order.
std::vector<Status> PresentStatuses(const Report& report) {
  std::vector<Status> present;
  for (const auto& [status, count] : report.by_status) present.push_back(status);
  return present;
}

std::string Count(const StatusCounts& counts, Status status) {
  const auto it = counts.find(status);
  return it == counts.end() ? "0" : std::to_string(it->second);
}

void WriteVerdict(const Report& report, std::ostringstream& out) {
  out << "## opcts conformance: " << (report.Passed() ? "✅ passed" : "❌ failed") << "\n\n";
  out << report.cases.size() << " cases from";
  for (const auto& source : report.sources) out << " `" << EscapeMarkdownCode(source) << "`";
  out << (report.strict ? " (strict: QualityWarning fails)" : "") << ".";
  if (const std::string options = RecordedOptionOf(report, "backend_options"); !options.empty())
    out << " Backends created with `--backend-options " << EscapeMarkdownCode(options) << "`.";
  if (const std::string rules = RecordedOptionOf(report, "float_rules"); !rules.empty())
    out << " Float results judged with `--float-rules " << EscapeMarkdownCode(rules) << "`.";
  out << "\n\n";
  for (const auto& reason : report.gate_reasons) out << "- ❌ " << EscapeMarkdown(reason) << "\n";
  if (!report.gate_reasons.empty()) out << "\n";
}

void WriteCoverage(const Report& report, std::ostringstream& out) {
  if (report.coverage.empty()) return;
  out << "### Coverage\n\n| Backend | Operator | Highest fully passing level | Pass rate | Levels "
         "|\n|---|---|---|---:|---|\n";
  for (const auto& entry : report.coverage) {
    out << "| " << EscapeMarkdown(entry.backend) << " | " << EscapeMarkdown(entry.op) << " | "
        << (entry.highest_passing.empty() ? "**none**" : EscapeMarkdown(entry.highest_passing))
        << " | " << FormatPassRate(entry.passing, entry.cases) << " | "
        << EscapeMarkdown(JoinList(entry.levels)) << " |\n";
  }
  out << "\n";
}

void WriteBackendTable(const Report& report, std::ostringstream& out) {
  const auto statuses = PresentStatuses(report);
  out << "| Backend | Version | Device | Claimed level | Claim holds | Cases |";
  for (const Status status : statuses) out << " " << StatusName(status) << " |";
  out << "\n|---|---|---|---|---|---:|";
  for (size_t i = 0; i < statuses.size(); ++i) out << "---:|";
  out << "\n";
  for (const auto& backend : report.backends) {
    const BackendRecord& info = backend.info;
    out << "| " << EscapeMarkdown(info.name) << " | " << EscapeMarkdown(info.version) << " | "
        << EscapeMarkdown(info.device) << " | " << EscapeMarkdown(info.feature_level) << " | "
        << (backend.ClaimHolds() ? "yes" : "**no**") << " | " << backend.cases << " |";
    for (const Status status : statuses) out << " " << Count(backend.by_status, status) << " |";
    out << "\n";
  }
  out << "| **total** | | | | | " << report.cases.size() << " |";
  for (const Status status : statuses) out << " " << Count(report.by_status, status) << " |";
  out << "\n\n";
  for (const auto& backend : report.backends) {
    if (backend.leak)
      out << "- **" << EscapeMarkdown(backend.info.name)
          << " leaks memory**: " << DescribeLeak(*backend.leak) << "\n";
    for (const auto& [behaviour, count] : backend.behaviours)
      out << "- " << EscapeMarkdown(backend.info.name) << ": " << EscapeMarkdown(behaviour) << " ("
          << count << " case(s))\n";
    if (backend.platform_rule_passes)
      out << "- " << EscapeMarkdown(backend.info.name) << ": " << backend.platform_rule_passes
          << " case(s) passed only under the platform's float rules (`--float-rules ieee` fails "
             "them)\n";
  }
  if (std::any_of(report.backends.begin(), report.backends.end(),
                  [](const auto& b) { return !b.behaviours.empty() || b.leak; }))
    out << "\n";
}

// "12/12" for a cell of the row, "✗ 3/12" when some case fails the gate there, "-" for none.
std::string CellText(const std::vector<MatrixCell>& cells, const std::string& column) {
  const MatrixCell* cell = FindColumn(cells, column);
  if (cell == nullptr) return "-";
  return (cell->first_failure != SIZE_MAX ? "✗ " : "") + std::to_string(cell->passing) + "/" +
         std::to_string(cell->cases);
}

// Per operator: a row per backend and dtype, columns by level and rank class (passing / cases).
void WriteMatrix(const Report& report, std::ostringstream& out) {
  if (report.matrix.empty()) return;
  out << "<details><summary>Matrix: passing/all cases per backend × dtype, by feature level and "
         "rank class (✗: a gate failure there)</summary>\n\n";
  for (size_t i = 0; i < report.matrix.size();) {
    const std::string& op = report.matrix[i].op;
    const std::vector<std::string>& op_levels = report.levels_of.at(op);
    out << "**" << EscapeMarkdown(op) << "**\n\n| Backend | Dtype |";
    for (const std::string& level : op_levels) out << " " << EscapeMarkdown(level) << " |";
    for (const std::string& rank : report.rank_classes) out << " " << rank << " |";
    out << " Highest level | Pass rate |\n|---|---|";
    for (size_t c = 0; c < op_levels.size() + report.rank_classes.size() + 2; ++c) out << "---|";
    out << "\n";
    for (; i < report.matrix.size() && report.matrix[i].op == op; ++i) {
      const MatrixRow& row = report.matrix[i];
      out << "| " << EscapeMarkdown(row.backend) << " | " << EscapeMarkdown(row.dtype) << " |";
      for (const std::string& level : op_levels) out << " " << CellText(row.levels, level) << " |";
      for (const std::string& rank : report.rank_classes)
        out << " " << CellText(row.rank_classes, rank) << " |";
      out << " " << (row.highest_passing.empty() ? "none" : EscapeMarkdown(row.highest_passing))
          << " | " << FormatPassRate(row.passing, row.cases) << " |\n";
    }
    out << "\n";
  }
  out << "</details>\n\n";
}

// Every group, one entry each: a bug is one group, so the list stays short.
void WriteFailures(const Report& report, std::ostringstream& out) {
  if (report.failure_groups.empty()) return;
  out << "### Failures by cause (" << report.failure_groups.size() << " group(s))\n\n";
  for (const FailureGroup& group : report.failure_groups) {
    const CaseRecord& smallest = report.cases[group.smallest].record;
    out << "- **" << StatusName(group.status) << "** · " << EscapeMarkdown(group.op) << " · "
        << group.dtype_class << " · " << group.cases.size()
        << " case(s): " << EscapeMarkdown(group.cause) << "\n  - "
        << EscapeMarkdown(GroupBreakdown(group)) << "\n  - smallest (" << ElementCount(smallest)
        << " elements, " << EscapeMarkdown(smallest.backend) << "): `"
        << EscapeMarkdownCode(smallest.repro.empty() ? smallest.id : smallest.repro) << "`\n";
    if (group.minimal)
      out << "  - shrunk to " << group.minimal->elements << " element(s): `"
          << EscapeMarkdownCode(group.minimal->repro) << "`\n";
  }
  out << "\n";
}

void WriteList(const std::string& title, const std::vector<std::string>& items,
               std::ostringstream& out) {
  if (items.empty()) return;
  out << "### " << title << "\n\n";
  for (size_t i = 0; i < items.size() && i < kMaxListed; ++i) {
    out << "- " << EscapeMarkdown(items[i]) << "\n";
  }
  if (items.size() > kMaxListed) out << "- ... " << items.size() - kMaxListed << " more\n";
  out << "\n";
}

}  // namespace

std::string RenderMarkdown(const Report& report) {
  std::ostringstream out;
  WriteVerdict(report, out);
  WriteCoverage(report, out);
  WriteBackendTable(report, out);
  WriteMatrix(report, out);
  WriteFailures(report, out);
  std::vector<std::string> waived;
  for (const auto& item : report.cases) {
    if (item.status == Status::kWaived) {
      waived.push_back(item.record.backend + " " + item.record.id + " (" +
                       std::string(StatusName(item.record.status)) + "): " + item.waiver);
    }
  }
  WriteList(std::string(StatusName(Status::kWaived)), waived, out);
  WriteList("Warnings", report.warnings, out);
  return out.str();
}

}  // namespace opcts
