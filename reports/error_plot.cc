#include "reports/error_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reports/html_report.h"
#include "reports/text_escape.h"

namespace opcts {
namespace {

constexpr double kWidth = 640, kHeight = 420;
constexpr double kLeft = 70, kRight = 20, kTop = 20, kBottom = 50;

struct Point {
  const ReportCase* item;
  double log_bound, log_error;  // log_error is -inf for an exact result
};

// Cases with a positive finite bound and a non-NaN error, gate failures first.
std::vector<Point> CollectPoints(const Report& report) {
  std::vector<Point> failures, others;
  for (const auto& item : report.cases) {
    const auto& bound = item.record.bound;
    const auto& error = item.record.max_error;
    if (!bound || !error || !std::isfinite(*bound) || *bound <= 0 || std::isnan(*error)) continue;
    Point point{&item, std::log10(*bound), std::log10(std::fabs(*error))};
    (item.gate_failure ? failures : others).push_back(point);
  }
  const size_t room = failures.size() >= kMaxPlotPoints ? 0 : kMaxPlotPoints - failures.size();
  if (others.size() > room) {
    std::vector<Point> kept;
    for (size_t i = 0; i < room; ++i) kept.push_back(others[i * others.size() / room]);
    others.swap(kept);
  }
  others.insert(others.end(), failures.begin(), failures.end());  // failures drawn on top
  return others;
}

std::string Fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

}  // namespace

std::string RenderErrorPlot(const Report& report) {
  const std::vector<Point> points = CollectPoints(report);
  if (points.empty()) return "<p>No case carries both an error and a bound.</p>\n";

  // One decade range for both axes so the line error = bound is the diagonal.
  double low = points[0].log_bound, high = points[0].log_bound;
  for (const auto& point : points) {
    low = std::min(low, point.log_bound);
    high = std::max(high, point.log_bound);
    if (std::isfinite(point.log_error)) {
      low = std::min(low, point.log_error);
      high = std::max(high, point.log_error);
    }
  }
  low = std::floor(low) - 1;  // the bottom decade holds exact results (error 0)
  high = std::ceil(high) + (std::ceil(high) == high ? 1 : 0);
  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const auto x_of = [&](double log) { return kLeft + (log - low) / (high - low) * plot_width; };
  const auto y_of = [&](double log) {
    return kTop + plot_height - (std::clamp(log, low, high) - low) / (high - low) * plot_height;
  };

  std::ostringstream svg;
  svg << "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
      << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" role=\"img\" aria-label=\"max error versus bound\">\n"
      << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_width << "\" height=\""
      << plot_height << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  const int step = std::max(1, static_cast<int>((high - low) / 10));
  for (int decade = static_cast<int>(low); decade <= static_cast<int>(high); decade += step) {
    const std::string x = Fixed(x_of(decade)), y = Fixed(y_of(decade));
    svg << "<line x1=\"" << x << "\" y1=\"" << kTop << "\" x2=\"" << x << "\" y2=\""
        << kTop + plot_height << "\" stroke=\"#e0e0e0\"/>"
        << "<text x=\"" << x << "\" y=\"" << kHeight - kBottom + 16
        << "\" text-anchor=\"middle\" font-size=\"11\">1e" << decade << "</text>"
        << "<line x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << kLeft + plot_width
        << "\" y2=\"" << y << "\" stroke=\"#e0e0e0\"/>"
        << "<text x=\"" << kLeft - 6 << "\" y=\"" << y
        << "\" text-anchor=\"end\" dominant-baseline=\"middle\" font-size=\"11\">"
        << (decade == static_cast<int>(low) ? "0" : "1e" + std::to_string(decade)) << "</text>\n";
  }
  svg << "<line class=\"diagonal\" x1=\"" << Fixed(x_of(low)) << "\" y1=\"" << Fixed(y_of(low))
      << "\" x2=\"" << Fixed(x_of(high)) << "\" y2=\"" << Fixed(y_of(high))
      << "\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n"
      << "<text x=\"" << kLeft + plot_width / 2 << "\" y=\"" << kHeight - 12
      << "\" text-anchor=\"middle\" font-size=\"12\">accuracy bound</text>"
      << "<text transform=\"translate(16 " << kTop + plot_height / 2
      << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">max |error|</text>\n";
  for (const auto& point : points) {
    const CaseRecord& record = point.item->record;
    const std::string status(StatusName(point.item->status));
    svg << "<circle class=\"" << StatusClass(point.item->status) << "\" cx=\""
        << Fixed(x_of(point.log_bound)) << "\" cy=\""
        << Fixed(std::isfinite(point.log_error) ? y_of(point.log_error)
                                                : y_of(point.log_error > 0 ? high : low))
        << "\" r=\"3\"><title>"
        << EscapeXml(record.backend + " " + record.id + ": error " +
                     FormatNumber(record.max_error) + ", bound " + FormatNumber(record.bound) +
                     " (" + status + ")")
        << "</title></circle>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace opcts
