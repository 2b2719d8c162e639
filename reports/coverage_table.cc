// RenderCoverageTable (declared in report_model.h): the coverage as aligned plain text.
#include <algorithm>
#include <array>

#include "reports/report_model.h"
#include "reports/text_escape.h"

namespace opcts {
namespace {

constexpr size_t kColumns = 5;
using Row = std::array<std::string, kColumns>;

std::string Padded(const std::string& text, size_t width) {
  return text + std::string(width - std::min(width, text.size()), ' ');
}

}  // namespace

std::string RenderCoverageTable(const Report& report) {
  if (report.coverage.empty()) return "";
  std::vector<Row> rows = {
      {"backend", "operator", "highest fully passing level", "pass rate", "levels"}};
  for (const auto& entry : report.coverage) {
    rows.push_back({TerminalSafe(entry.backend), TerminalSafe(entry.op),
                    entry.highest_passing.empty() ? "none" : TerminalSafe(entry.highest_passing),
                    FormatPassRate(entry.passing, entry.cases),
                    TerminalSafe(JoinList(entry.levels))});
  }
  std::array<size_t, kColumns> widths{};
  for (const auto& row : rows) {
    for (size_t c = 0; c < kColumns; ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string table = "coverage per backend and operator:\n";
  for (const auto& row : rows) {
    for (size_t c = 0; c < kColumns; ++c) {
      table += "  " + (c + 1 < kColumns ? Padded(row[c], widths[c]) : row[c]);
    }
    table += "\n";
  }
  return table;
}

}  // namespace opcts
