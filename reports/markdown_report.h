// A Markdown summary for a pull-request comment or a CI step summary ($GITHUB_STEP_SUMMARY):
// the verdict, the coverage, a backend table with status counts, the matrix (collapsed) and
// the largest failure groups with repro commands. Long lists are cut; HTML and JSON hold all.
#pragma once

#include <string>

#include "reports/report_model.h"

namespace opcts {

std::string RenderMarkdown(const Report& report);

}  // namespace opcts
