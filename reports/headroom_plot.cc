#include "reports/headroom_plot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "reports/html_report.h"
#include "reports/text_escape.h"

namespace opcts {
namespace {

constexpr double kWidth = 640, kHeight = 170;
constexpr double kLeft = 10, kTop = 30, kBarsHeight = 100, kGap = 6;
constexpr int kWithinBound = 5;  // buckets [0, 5) are within the bound

struct Bar {
  uint64_t within = 0, beyond = 0;  // cases that do not / do fail the gate
};

}  // namespace

const std::vector<std::string>& HeadroomBuckets() {
  static const std::vector<std::string> buckets = {"exact",    "< 0.001", "0.001–0.01",
                                                   "0.01–0.1", "0.1–1",   "1–10",
                                                   "10–1000",  "> 1000",  "beyond measure"};
  return buckets;
}

int HeadroomBucket(const CaseRecord& record) {
  if (!record.max_error || !record.bound || std::isnan(*record.max_error)) return -1;
  const double error = std::fabs(*record.max_error), bound = *record.bound;
  if (error == 0) return 0;
  if (std::isinf(error)) return 8;
  const double ratio = bound > 0 ? error / bound : INFINITY;
  if (ratio <= 1) return ratio < 1e-3 ? 1 : ratio < 1e-2 ? 2 : ratio < 0.1 ? 3 : 4;
  return ratio <= 10 ? 5 : ratio <= 1000 ? 6 : 7;
}

std::string RenderHeadroomPlot(const Report& report) {
  std::map<std::string, std::vector<Bar>> by_dtype;
  for (const ReportCase& item : report.cases) {
    const int bucket = HeadroomBucket(item.record);
    if (bucket < 0) continue;
    std::vector<Bar>& bars = by_dtype[item.record.dtype];
    bars.resize(HeadroomBuckets().size());
    (item.gate_failure ? bars[bucket].beyond : bars[bucket].within) += 1;
  }
  if (by_dtype.empty()) return "<p>No float case carries an error and a bound.</p>\n";

  std::ostringstream svg;
  const size_t n = HeadroomBuckets().size();
  const double bar_width = (kWidth - 2 * kLeft) / static_cast<double>(n) - kGap;
  const auto x_of = [&](size_t bucket) {
    return kLeft + static_cast<double>(bucket) * (bar_width + kGap);
  };
  for (const auto& [dtype, bars] : by_dtype) {
    uint64_t most = 1;
    for (const Bar& bar : bars) most = std::max(most, bar.within + bar.beyond);
    // Heights on a log scale: a few failures must show beside thousands of passes.
    const auto height = [&](uint64_t count) {
      return count == 0 ? 0.0
                        : kBarsHeight * std::log10(1.0 + static_cast<double>(count)) /
                              std::log10(1.0 + static_cast<double>(most));
    };
    svg << "<svg class=\"headroom\" data-dtype=\"" << EscapeXml(dtype)
        << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
        << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" role=\"img\" aria-label=\""
        << EscapeXml(dtype) << ": error divided by bound\">\n"
        << "<text x=\"" << kLeft << "\" y=\"14\" font-size=\"13\" font-weight=\"bold\">"
        << EscapeXml(dtype) << ": largest error ÷ bound per case</text>\n";
    const double bound_x = x_of(kWithinBound) - kGap / 2;
    svg << "<line x1=\"" << bound_x << "\" y1=\"" << kTop - 8 << "\" x2=\"" << bound_x << "\" y2=\""
        << kTop + kBarsHeight << "\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>"
        << "<text x=\"" << bound_x + 3 << "\" y=\"" << kTop - 2
        << "\" font-size=\"10\">bound</text>\n";
    for (size_t b = 0; b < n; ++b) {
      const Bar& bar = bars[b];
      const double x = x_of(b), base = kTop + kBarsHeight;
      const double total = height(bar.within + bar.beyond), failing = height(bar.beyond);
      const std::string title = std::to_string(bar.within + bar.beyond) + " case(s), " +
                                std::to_string(bar.beyond) + " failing: error ÷ bound " +
                                HeadroomBuckets()[b];
      if (bar.within > 0)
        svg << "<rect class=\"within\" x=\"" << x << "\" y=\"" << base - total << "\" width=\""
            << bar_width << "\" height=\"" << total - failing << "\" fill=\""
            << (b < kWithinBound ? "#7aa974" : "#d9a441") << "\"><title>" << EscapeXml(title)
            << "</title></rect>";
      if (bar.beyond > 0)
        svg << "<rect class=\"beyond\" x=\"" << x << "\" y=\"" << base - failing << "\" width=\""
            << bar_width << "\" height=\"" << failing << "\" fill=\"#c0392b\"><title>"
            << EscapeXml(title) << "</title></rect>";
      svg << "<text x=\"" << x + bar_width / 2 << "\" y=\"" << base - total - 3
          << "\" text-anchor=\"middle\" font-size=\"10\"" << (bar.beyond ? " fill=\"#c0392b\"" : "")
          << ">" << bar.within + bar.beyond << "</text>"
          << "<text x=\"" << x + bar_width / 2 << "\" y=\"" << base + 14
          << "\" text-anchor=\"middle\" font-size=\"10\">" << EscapeXml(HeadroomBuckets()[b])
          << "</text>\n";
    }
    svg << "</svg>\n";
  }
  return svg.str();
}

}  // namespace opcts
