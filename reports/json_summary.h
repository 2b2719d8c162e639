// The machine-readable summary (format "opcts-report/2", documented in reports/README.md).
#pragma once

#include <string>
#include <string_view>

#include "reports/report_model.h"

namespace opcts {

inline constexpr std::string_view kReportFormat = "opcts-report/2";

std::string RenderJsonSummary(const Report& report);

}  // namespace opcts
