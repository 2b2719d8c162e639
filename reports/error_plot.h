// The error-versus-bound plot of the HTML report: an inline SVG scatter, log-log, one point per
// float case with a bound, coloured by status, with the line error = bound. Points above the line
// exceeded their bound. No script, no external resources.
#pragma once

#include <string>

#include "reports/report_model.h"

namespace opcts {

// Gate failures are always drawn; other points are thinned evenly beyond this many.
inline constexpr size_t kMaxPlotPoints = 4000;

// An <svg> element, or a <p> saying why there is nothing to plot.
std::string RenderErrorPlot(const Report& report);

}  // namespace opcts
