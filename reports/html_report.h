// A single self-contained HTML page: inline CSS and SVG, no script, no external resource, and
// a Content-Security-Policy that forbids both, so it opens offline from a CI artifact.
// Shows the verdict, the coverage per backend and operator, backends with their claimed level
// and whether the claim holds, the matrix operator x dtype x rank class x backend coloured by
// status, the error-versus-bound plot, and failures grouped by cause with repro commands.
// Every journal string is escaped.
#pragma once

#include <string>

#include "reports/report_model.h"

namespace opcts {

inline constexpr char kHtmlTitle[] = "opcts conformance report";

std::string RenderHtml(const Report& report);

// The CSS class that colours `status` in the page and its plot: "s-Pass" (the page's stylesheet
// defines one per status).
std::string StatusClass(Status status);

// The page's head up to <body>: the Content-Security-Policy, `title` and the style sheet every
// opcts page shares (the fuzz campaign report's too).
std::string HtmlHead(const std::string& title);

}  // namespace opcts
