// The headroom plot of the HTML report: per float dtype, how far each case's largest error went
// towards its accuracy bound (error ÷ bound), as a histogram of decades. Cases beyond the bound
// (every Fail counts each wrong element: conformance/judge.h) stand out in their own colour; an
// error beyond measure (NaN, an infinity, a zero's sign) has its own bar. Inline SVG, no script.
#pragma once

#include <string>
#include <vector>

#include "reports/report_model.h"

namespace opcts {

// The bars, lowest headroom use first: "exact", "< 0.001", ... "> 1000", "beyond measure".
const std::vector<std::string>& HeadroomBuckets();
// The bar of one case: an index into HeadroomBuckets(), or -1 without an error and a bound.
int HeadroomBucket(const CaseRecord& record);

// One <svg> per float dtype, or a <p> saying there is nothing to plot.
std::string RenderHeadroomPlot(const Report& report);

}  // namespace opcts
