#include "reports/html_report.h"

#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "reports/headroom_plot.h"
#include "reports/text_escape.h"

namespace opcts {
namespace {

// Enough to find a pattern; the JSON summary lists every case.
constexpr size_t kMaxCasesPerGroup = 100;

constexpr char kStyle[] = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; margin: 8px 0 16px; display: block; overflow-x: auto;
        max-width: 100%; }
svg.headroom { max-width: 100%; height: auto; }
@media (max-width: 600px) { body { margin: 8px; } }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; }
code, pre { font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
.verdict { font-size: 20px; font-weight: bold; padding: 8px 12px; display: inline-block; }
.verdict.pass { background: #c8e6c9; } .verdict.fail { background: #ef9a9a; }
.matrix td { text-align: center; min-width: 70px; }
.s-Pass, .s-InvalidRejected { background: #c8e6c9; fill: #2e7d32; }
.s-NotSupported { background: #e0e0e0; fill: #757575; }
.s-Waived { background: #bbdefb; fill: #1565c0; }
.s-QualityWarning { background: #ffe082; fill: #ef8f00; }
.s-Fail, .s-InvalidAccepted, .s-ClaimViolation { background: #ef9a9a; fill: #c62828; }
.s-Crash, .s-Timeout, .s-MemoryLimit, .s-InternalError { background: #e57373; fill: #6d0000; }
td.empty { background: #fff; color: #bbb; }
.legend span { display: inline-block; padding: 2px 8px; margin: 2px; border: 1px solid #ccc; }
details { margin: 6px 0; } summary { cursor: pointer; }
)css";

std::string Td(const std::string& text, const std::string& css_class = "") {
  return "<td" + (css_class.empty() ? "" : " class=\"" + css_class + "\"") + ">" + EscapeXml(text) +
         "</td>";
}

std::string CountsTitle(const StatusCounts& counts) {
  std::string title;
  for (const auto& [name, count] : CountsByName(counts)) {
    title += (title.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(count);
  }
  return title;
}

void WriteVerdict(const Report& report, std::ostringstream& out) {
  out << "<p class=\"verdict " << (report.Passed() ? "pass\">Gate: PASSED" : "fail\">Gate: FAILED")
      << "</p>\n<p>" << report.cases.size() << " cases, " << report.gate_failures
      << " failing the gate" << (report.strict ? " (strict: QualityWarning fails)" : "")
      << ".</p>\n";
  if (!report.gate_reasons.empty()) {
    out << "<ul id=\"gate-reasons\">\n";
    for (const auto& reason : report.gate_reasons) out << "<li>" << EscapeXml(reason) << "</li>\n";
    out << "</ul>\n";
  }
}

// How far each backend's operator is proven; right under the verdict, because a green verdict
// over little coverage proves little.
void WriteCoverage(const Report& report, std::ostringstream& out) {
  if (report.coverage.empty()) return;
  out << "<h2>Coverage</h2>\n<table id=\"coverage\"><tr><th>backend</th><th>operator</th>"
         "<th>highest fully passing level</th><th>pass rate</th><th>levels</th></tr>\n";
  for (const auto& entry : report.coverage) {
    const bool all_levels = !entry.levels.empty() && entry.highest_passing == entry.levels.back();
    const std::string css = StatusClass(entry.highest_passing.empty() ? Status::kFail
                                        : all_levels                  ? Status::kPass
                                                                      : Status::kQualityWarning);
    out << "<tr data-backend=\"" << EscapeXml(entry.backend) << "\" data-op=\""
        << EscapeXml(entry.op) << "\">" << Td(entry.backend) << Td(entry.op)
        << Td(entry.highest_passing.empty() ? "none" : entry.highest_passing, css)
        << Td(FormatPassRate(entry.passing, entry.cases), "num") << Td(JoinList(entry.levels))
        << "</tr>\n";
  }
  out << "</table>\n";
}

void WriteSources(const Report& report, std::ostringstream& out) {
  out << "<h2>Journals</h2>\n<table id=\"sources\"><tr><th>journal</th><th>opcts</th>"
         "<th>started</th><th>seed</th><th>shard</th><th>backend options</th>"
         "<th>float rules</th><th>planned cases</th></tr>\n";
  for (size_t i = 0; i < report.sources.size(); ++i) {
    const JournalHeader& header = report.headers[i];
    const auto option = [&](const char* key) {
      const auto it = header.options.find(key);
      return it == header.options.end() ? std::string() : it->second;
    };
    out << "<tr>" << Td(report.sources[i]) << Td(header.opcts_version) << Td(header.started)
        << Td(std::to_string(header.seed))
        << Td(std::to_string(header.shard_index) + "/" + std::to_string(header.shard_count))
        << Td(option("backend_options")) << Td(option("float_rules"))
        << Td(std::to_string(header.planned_cases), "num") << "</tr>\n";
  }
  out << "</table>\n";
}

// "out-of-range indices skipped: 47" per recorded behaviour, then the cases passing only under
// the platform's float rules, then a memory leak; or "".
std::string Behaviours(const BackendSummary& backend) {
  std::string text;
  if (backend.leak) text = "LEAKS MEMORY: " + DescribeLeak(*backend.leak);
  for (const auto& [behaviour, count] : backend.behaviours)
    text += (text.empty() ? "" : "; ") + behaviour + ": " + std::to_string(count);
  if (backend.platform_rule_passes)
    text += (text.empty() ? "" : "; ") +
            std::string("passed only under the platform's float rules: ") +
            std::to_string(backend.platform_rule_passes);
  return text;
}

void WriteBackends(const Report& report, std::ostringstream& out) {
  out << "<h2>Backends</h2>\n<table id=\"backends\"><tr><th>backend</th><th>version</th>"
         "<th>device</th><th>claimed level</th><th>extra support</th><th>claim holds</th>"
         "<th>cases</th><th>statuses</th><th>recorded behaviour</th></tr>\n";
  for (const auto& backend : report.backends) {
    const BackendRecord& info = backend.info;
    std::string extra;
    for (const auto& item : info.extra_support) extra += (extra.empty() ? "" : ", ") + item;
    const std::string violation(StatusName(Status::kClaimViolation));
    const auto violations =
        backend.ClaimHolds() ? 0 : backend.by_status.at(Status::kClaimViolation);
    out << "<tr data-backend=\"" << EscapeXml(info.name) << "\">" << Td(info.name)
        << Td(info.version) << Td(info.device) << Td(info.feature_level) << Td(extra)
        << (backend.ClaimHolds() ? Td("yes", "claim " + StatusClass(Status::kPass))
                                 : Td("no: " + std::to_string(violations) + " " + violation,
                                      "claim " + StatusClass(Status::kClaimViolation)))
        << Td(std::to_string(backend.cases), "num") << Td(CountsTitle(backend.by_status))
        << Td(Behaviours(backend)) << "</tr>\n";
  }
  out << "</table>\n";
}

void WriteLegend(std::ostringstream& out) {
  out << "<p class=\"legend\">";
  for (const Status status : AllStatuses()) {
    out << "<span class=\"" << StatusClass(status) << "\">" << StatusName(status) << "</span>";
  }
  out << "</p>\n";
}

// Which failure group each failing case is in, for the matrix's links.
std::map<size_t, size_t> GroupOfCase(const Report& report) {
  std::map<size_t, size_t> group_of;
  for (size_t g = 0; g < report.failure_groups.size(); ++g)
    for (const size_t c : report.failure_groups[g].cases) group_of[c] = g;
  return group_of;
}

// A matrix cell: "passing/cases", coloured by its worst status, linking to the failure group of
// its first gate failure; "-" where the row has no case.
void WriteCell(const MatrixCell* cell, const char* axis, const std::map<size_t, size_t>& group_of,
               std::ostringstream& out) {
  if (cell == nullptr) return void(out << "<td class=\"empty\">-</td>");
  const std::string_view worst = StatusName(cell->worst);
  out << "<td class=\"" << StatusClass(cell->worst) << "\" data-" << axis << "=\""
      << EscapeXml(cell->column) << "\" data-status=\"" << worst << "\" title=\""
      << EscapeXml(CountsTitle(cell->by_status)) << "\">";
  const auto group = group_of.find(cell->first_failure);
  if (group != group_of.end()) out << "<a href=\"#group-" << group->second << "\">";
  out << cell->passing << "/" << cell->cases;
  if (group != group_of.end()) out << "</a>";
  out << "</td>";
}

// One table per operator: a row per backend and dtype; columns by feature level, by rank class,
// then the highest level fully passing and the pass rate.
void WriteMatrix(const Report& report, std::ostringstream& out) {
  out << "<h2>Conformance matrix</h2>\n<p>Per backend and dtype of each operator: the cases "
         "passing / all cases at each feature level (the lowest level whose support table "
         "admits the case) and in each rank class (rank0 scalar, rank1, rank2-4, rank5-8, "
         "rank9+), coloured by the most severe status; a cell with a failure links to its "
         "group. Highest level: every case at it and below passes.</p>\n";
  WriteLegend(out);
  const std::map<size_t, size_t> group_of = GroupOfCase(report);
  for (size_t i = 0; i < report.matrix.size();) {
    const std::string& op = report.matrix[i].op;
    const std::vector<std::string>& op_levels = report.levels_of.at(op);
    out << "<h3>" << EscapeXml(op) << "</h3>\n<table class=\"matrix\" data-op=\"" << EscapeXml(op)
        << "\"><tr><th rowspan=\"2\">backend</th><th rowspan=\"2\">dtype</th><th colspan=\""
        << op_levels.size() << "\">feature level</th><th colspan=\"" << report.rank_classes.size()
        << "\">rank class</th><th rowspan=\"2\">highest level fully passing</th>"
           "<th rowspan=\"2\">pass rate</th></tr>\n<tr>";
    for (const std::string& level : op_levels) out << "<th>" << EscapeXml(level) << "</th>";
    for (const std::string& rank : report.rank_classes) out << "<th>" << rank << "</th>";
    out << "</tr>\n";
    for (; i < report.matrix.size() && report.matrix[i].op == op; ++i) {
      const MatrixRow& row = report.matrix[i];
      out << "<tr data-backend=\"" << EscapeXml(row.backend) << "\" data-dtype=\""
          << EscapeXml(row.dtype) << "\">" << Td(row.backend) << "<th>" << EscapeXml(row.dtype)
          << "</th>";
      for (const std::string& level : op_levels)
        WriteCell(FindColumn(row.levels, level), "level", group_of, out);
      for (const std::string& rank : report.rank_classes)
        WriteCell(FindColumn(row.rank_classes, rank), "rank", group_of, out);
      out << "<td class=\"highest\">"
          << (row.highest_passing.empty() ? "none" : EscapeXml(row.highest_passing)) << "</td>"
          << Td(FormatPassRate(row.passing, row.cases), "num") << "</tr>\n";
    }
    out << "</table>\n";
  }
}

void WriteCaseTable(const Report& report, const std::vector<size_t>& cases, size_t limit,
                    std::ostringstream& out) {
  out << "<table><tr><th>case</th><th>backend</th><th>dtype</th><th>message</th>"
         "<th>max error</th><th>bound</th><th>ulp</th><th>repro</th></tr>\n";
  for (size_t i = 0; i < cases.size() && i < limit; ++i) {
    const ReportCase& item = report.cases[cases[i]];
    const CaseRecord& record = item.record;
    out << "<tr class=\"case\">" << Td(record.id) << Td(record.backend) << Td(record.dtype)
        << "<td><pre>" << EscapeXml(record.message) << "</pre>"
        << (item.waiver.empty() ? "" : "<p>waived by " + EscapeXml(item.waiver) + "</p>") << "</td>"
        << Td(FormatNumber(record.max_error), "num") << Td(FormatNumber(record.bound), "num")
        << Td(FormatNumber(record.ulp), "num") << "<td><code>" << EscapeXml(record.repro)
        << "</code></td></tr>\n";
  }
  out << "</table>\n";
  if (cases.size() > limit) {
    out << "<p>" << cases.size() - limit << " more in the JSON summary.</p>\n";
  }
}

void WriteFailures(const Report& report, std::ostringstream& out) {
  out << "<h2>Failures by cause</h2>\n";
  if (report.failure_groups.empty()) out << "<p>None.</p>\n";
  for (size_t g = 0; g < report.failure_groups.size(); ++g) {
    const FailureGroup& group = report.failure_groups[g];
    const CaseRecord& smallest = report.cases[group.smallest].record;
    out << "<details class=\"failure-group\" id=\"group-" << g << "\" open><summary><span class=\""
        << StatusClass(group.status) << "\">" << StatusName(group.status) << "</span> "
        << EscapeXml(group.op) << " &middot; " << group.dtype_class << " &middot; "
        << group.cases.size() << " case(s) &middot; <code>" << EscapeXml(group.cause)
        << "</code></summary>\n<p>" << EscapeXml(GroupBreakdown(group)) << "</p>\n"
        << "<p>Smallest failing case (" << ElementCount(smallest) << " elements): <code>"
        << EscapeXml(smallest.repro.empty() ? smallest.id : smallest.repro) << "</code></p>\n";
    if (group.minimal)
      out << "<p class=\"minimal\">Shrunk to " << group.minimal->elements << " element(s): <code>"
          << EscapeXml(group.minimal->repro) << "</code></p>\n";
    WriteCaseTable(report, group.cases, kMaxCasesPerGroup, out);
    out << "</details>\n";
  }
}

void WriteWaivedAndWarnings(const Report& report, std::ostringstream& out) {
  std::vector<size_t> waived;
  for (size_t i = 0; i < report.cases.size(); ++i) {
    if (report.cases[i].status == Status::kWaived) waived.push_back(i);
  }
  if (!waived.empty()) {
    out << "<h2>" << StatusName(Status::kWaived) << "</h2>\n";
    WriteCaseTable(report, waived, kMaxCasesPerGroup, out);
  }
  if (!report.warnings.empty()) {
    out << "<h2>Warnings</h2>\n<ul id=\"warnings\">\n";
    for (const auto& warning : report.warnings) out << "<li>" << EscapeXml(warning) << "</li>\n";
    out << "</ul>\n";
  }
}

}  // namespace

std::string StatusClass(Status status) { return "s-" + std::string(StatusName(status)); }

std::string HtmlHead(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n<title>" +
         EscapeXml(title) + "</title>\n<style>" + kStyle + "</style></head>\n<body>\n";
}

std::string RenderHtml(const Report& report) {
  std::ostringstream out;
  out << HtmlHead(kHtmlTitle) << "<h1>" << kHtmlTitle << "</h1>\n";
  WriteVerdict(report, out);
  WriteCoverage(report, out);
  WriteSources(report, out);
  WriteBackends(report, out);
  WriteMatrix(report, out);
  out << "<h2>Accuracy headroom</h2>\n<p>Per float dtype, each case's largest error divided by "
         "its accuracy bound, by decade (bar heights on a log scale). Left of the dashed line: "
         "within the bound; red: cases failing the gate; \"beyond measure\": NaN, an infinity "
         "or a zero's sign where another value was due.</p>\n"
      << RenderHeadroomPlot(report);
  WriteFailures(report, out);
  WriteWaivedAndWarnings(report, out);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace opcts
