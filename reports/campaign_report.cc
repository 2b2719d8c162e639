#include "reports/campaign_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "reports/atomic_file.h"
#include "reports/html_report.h"
#include "reports/text_escape.h"

namespace opcts {
namespace {

constexpr char kTitle[] = "opcts fuzzing campaign";
constexpr double kPlotWidth = 320, kPlotHeight = 80, kPad = 4;

std::string Fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string FirstSeen(const CampaignFinding& f) {
  return f.first_seen < 0 ? "-" : Fixed(f.first_seen, 1) + " s";
}

std::string FindingStatus(const CampaignFinding& f) {
  return f.known.empty() ? "new" : "known: " + f.known;
}

std::string Verdict(const FuzzCampaign& c) {
  const size_t fresh = c.NewFindings();
  const size_t known = c.findings.size() - fresh;
  std::string verdict = fresh ? std::to_string(fresh) + " new finding(s)" : "no new finding";
  if (known) verdict += ", " + std::to_string(known) + " known";
  return verdict;
}

std::string Header(const FuzzCampaign& c) {
  return "Backend " + c.backend +
         (c.backend_options.empty() ? "" : " (options \"" + c.backend_options + "\")") +
         (c.strict ? " (strict)" : "") + ", " + std::to_string(c.seconds) + " s of fuzzing with " +
         std::to_string(c.jobs) + " job(s), started " + c.started + "; fuzzing took " +
         Fixed(c.fuzz_seconds, 1) + " s, triage " + Fixed(c.triage_seconds, 1) + " s (limit " +
         Fixed(c.triage_limit, 0) + " s). opcts " + c.version + ".";
}

// Coverage (cov, libFuzzer's edges) over the campaign's time, one polyline: where the target
// ran, and whether it was still finding new edges when it stopped.
std::string CoveragePlot(const TargetCampaign& t, double campaign_seconds) {
  if (t.coverage.empty()) return "<td>-</td>";
  uint64_t top = 1;
  for (const CoveragePoint& p : t.coverage) top = std::max(top, p.cov);
  const double span = std::max(campaign_seconds, t.coverage.back().seconds);
  const auto x = [&](double s) { return kPad + (kPlotWidth - 2 * kPad) * s / span; };
  const auto y = [&](uint64_t cov) {
    return kPlotHeight - kPad - (kPlotHeight - 2 * kPad) * static_cast<double>(cov) / top;
  };
  std::ostringstream svg;
  svg << "<td><svg class=\"coverage\" width=\"" << kPlotWidth << "\" height=\"" << kPlotHeight
      << "\" viewBox=\"0 0 " << kPlotWidth << " " << kPlotHeight << "\" role=\"img\">"
      << "<title>" << EscapeXml(t.target) << ": coverage from " << t.coverage.front().cov << " to "
      << t.coverage.back().cov << " edges</title>"
      << "<rect x=\"0\" y=\"0\" width=\"" << kPlotWidth << "\" height=\"" << kPlotHeight
      << "\" fill=\"#fafafa\" stroke=\"#ccc\"/><polyline fill=\"none\" stroke=\"#1565c0\" "
         "stroke-width=\"1.5\" points=\"";
  for (const CoveragePoint& p : t.coverage)
    svg << Fixed(x(p.seconds), 1) << "," << Fixed(y(p.cov), 1) << " ";
  svg << "\"/><text x=\"6\" y=\"14\" font-size=\"11\">" << top << " edges</text>"
      << "<text x=\"" << kPlotWidth - 6 << "\" y=\"" << kPlotHeight - 6
      << "\" font-size=\"11\" text-anchor=\"end\">" << Fixed(span, 0) << " s</text></svg></td>";
  return svg.str();
}

}  // namespace

size_t FuzzCampaign::NewFindings() const {
  return static_cast<size_t>(std::count_if(
      findings.begin(), findings.end(), [](const CampaignFinding& f) { return f.known.empty(); }));
}

nlohmann::json CampaignToJson(const FuzzCampaign& c) {
  nlohmann::json targets = nlohmann::json::array(), findings = nlohmann::json::array();
  for (const TargetCampaign& t : c.targets) {
    nlohmann::json coverage = nlohmann::json::array();
    for (const CoveragePoint& p : t.coverage)
      coverage.push_back({{"seconds", p.seconds},
                          {"executions", p.executions},
                          {"cov", p.cov},
                          {"features", p.features},
                          {"corpus", p.corpus}});
    targets.push_back({{"target", t.target},
                       {"executions", t.executions},
                       {"seconds", t.seconds},
                       {"exec_per_sec", t.ExecutionsPerSecond()},
                       {"processes", t.processes},
                       {"corpus_files", t.corpus_files},
                       {"corpus", t.corpus},
                       {"error", t.error},
                       {"coverage", coverage}});
  }
  for (const CampaignFinding& f : c.findings)
    findings.push_back(
        {{"signature", f.signature},
         {"target", f.target},
         {"new", f.known.empty()},
         {"known", f.known},
         {"count", f.count},
         {"first_seen", f.first_seen < 0 ? nlohmann::json() : nlohmann::json(f.first_seen)},
         {"summary", f.summary},
         {"input", f.input},
         {"input_bytes", f.input_bytes},
         {"minimized", f.minimized},
         {"vector", f.vector},
         {"repro", f.repro}});
  return {{"format", "opcts-fuzz-campaign/1"},
          {"opcts_version", c.version},
          {"backend", c.backend},
          {"backend_options", c.backend_options},
          {"strict", c.strict},
          {"started", c.started},
          {"seconds", c.seconds},
          {"jobs", c.jobs},
          {"fuzz_seconds", c.fuzz_seconds},
          {"triage_seconds", c.triage_seconds},
          {"triage_limit", c.triage_limit},
          {"new_findings", c.NewFindings()},
          {"targets", targets},
          {"findings", findings}};
}

std::string CampaignMarkdown(const FuzzCampaign& c) {
  std::ostringstream md;
  md << "# " << kTitle << "\n\n**" << Verdict(c) << "**. " << EscapeMarkdown(Header(c))
     << "\n\n## Targets\n\n| target | executions | exec/s | processes | corpus | coverage (edges) "
        "|\n"
        "|---|---|---|---|---|---|\n";
  for (const TargetCampaign& t : c.targets) {
    md << "| " << EscapeMarkdown(t.target) << " | ";
    if (!t.error.empty()) {
      md << "did not run: " << EscapeMarkdown(t.error) << " | | | | |\n";
      continue;
    }
    md << t.executions << " | " << Fixed(t.ExecutionsPerSecond(), 0) << " | " << t.processes
       << " | " << t.corpus_files << " (" << EscapeMarkdown(t.corpus) << ") | ";
    if (!t.coverage.empty())
      md << t.coverage.front().cov << " → " << t.coverage.back().cov << " by "
         << Fixed(t.coverage.back().seconds, 0) << " s";
    md << " |\n";
  }
  md << "\n## Findings\n\n";
  if (c.findings.empty()) md << "None.\n";
  for (const CampaignFinding& f : c.findings) {
    md << "### " << EscapeMarkdown(f.signature) << "\n\n- " << EscapeMarkdown(FindingStatus(f))
       << "; " << f.count << " input(s) in " << EscapeMarkdown(f.target) << "; first seen "
       << FirstSeen(f) << "\n";
    if (!f.summary.empty()) md << "- " << EscapeMarkdown(f.summary) << "\n";
    if (!f.input.empty())
      md << "- input `" << EscapeMarkdownCode(f.input) << "` (" << f.input_bytes
         << " bytes; minimized: " << EscapeMarkdown(f.minimized) << ")\n";
    if (!f.vector.empty()) md << "- vector `" << EscapeMarkdownCode(f.vector) << "`\n";
    if (!f.repro.empty()) md << "\n```sh\n" << EscapeMarkdownCode(f.repro) << "\n```\n";
    md << "\n";
  }
  return md.str();
}

std::string CampaignHtml(const FuzzCampaign& c) {
  std::ostringstream out;
  const double span = c.fuzz_seconds;
  out << HtmlHead(kTitle) << "<h1>" << kTitle << "</h1>\n<p class=\"verdict "
      << (c.NewFindings() ? "fail" : "pass") << "\">" << EscapeXml(Verdict(c)) << "</p>\n<p>"
      << EscapeXml(Header(c)) << "</p>\n<h2>Targets</h2>\n<p>Coverage: libFuzzer's edges over the "
      << "campaign's time.</p>\n<table><tr><th>target</th><th>executions</th><th>exec/s</th>"
         "<th>processes</th><th>corpus</th><th>coverage</th></tr>\n";
  for (const TargetCampaign& t : c.targets) {
    out << "<tr><td>" << EscapeXml(t.target) << "</td>";
    if (!t.error.empty()) {
      out << "<td colspan=\"5\">did not run: " << EscapeXml(t.error) << "</td></tr>\n";
      continue;
    }
    out << "<td class=\"num\">" << t.executions << "</td><td class=\"num\">"
        << Fixed(t.ExecutionsPerSecond(), 0) << "</td><td class=\"num\">" << t.processes
        << "</td><td>" << t.corpus_files << " (" << EscapeXml(t.corpus) << ")</td>"
        << CoveragePlot(t, span) << "</tr>\n";
  }
  out << "</table>\n<h2>Findings</h2>\n";
  if (c.findings.empty())
    out << "<p>None.</p>\n";
  else
    out << "<table><tr><th>signature</th><th>status</th><th>inputs</th><th>first seen</th>"
           "<th>minimized input</th><th>repro</th></tr>\n";
  for (const CampaignFinding& f : c.findings) {
    out << "<tr><td><b>" << EscapeXml(f.signature) << "</b><br>" << EscapeXml(f.summary)
        << "</td><td class=\"" << (f.known.empty() ? "s-Fail" : "s-Waived") << "\">"
        << EscapeXml(FindingStatus(f)) << "</td><td class=\"num\">" << f.count << "</td><td>"
        << FirstSeen(f) << "</td><td>";
    if (!f.input.empty())
      out << "<code>" << EscapeXml(f.input) << "</code><br>" << f.input_bytes << " bytes; "
          << EscapeXml(f.minimized);
    out << "</td><td>";
    if (!f.vector.empty())
      out << "<a href=\"" << EscapeXml(f.vector) << "\">" << EscapeXml(f.vector) << "</a><br>";
    out << "<code>" << EscapeXml(f.repro) << "</code></td></tr>\n";
  }
  if (!c.findings.empty()) out << "</table>\n";
  out << "</body></html>\n";
  return out.str();
}

Result<void> WriteCampaignReports(const FuzzCampaign& campaign, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError(dir + ": cannot create: " + ec.message());
  const std::filesystem::path base(dir);
  OPCTS_TRY(WriteFileAtomically((base / "campaign.json").string(),
                                CampaignToJson(campaign).dump(1) + "\n"));
  OPCTS_TRY(WriteFileAtomically((base / "campaign.md").string(), CampaignMarkdown(campaign)));
  OPCTS_TRY(WriteFileAtomically((base / "campaign.html").string(), CampaignHtml(campaign)));
  return {};
}

}  // namespace opcts
