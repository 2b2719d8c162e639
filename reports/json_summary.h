// The machine-readable summary (format "opcts-report/1", documented in reports/README.md).
#pragma once

#include <string>
#include <string_view>

#include "reports/report_model.h"

namespace opcts {

inline constexpr std::string_view kReportFormat = "opcts-report/1";

std::string RenderJsonSummary(const Report& report);

}  // namespace opcts
