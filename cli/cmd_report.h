// `opcts report ...`: renders, diffs and merges journals (usage and exit codes in
// reports/README.md) through the reports API; `opcts run --report-dir` calls WriteReportSet.
//
//   return opcts::ReportMain({"--html", "report.html", "run.jsonl"}, std::cout, std::cerr);
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "reports/report_model.h"

namespace opcts {

inline constexpr int kReportExitPass = 0;        // gate passed, no regression
inline constexpr int kReportExitGateFailed = 1;  // gate failed, or diff found a regression
inline constexpr int kReportExitBadInput = 2;    // usage error, unreadable or invalid input

// The arguments after "report"; output and verdict to `out`, errors to `err`.
int ReportMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Reads the journals, builds the report (no waivers) and writes summary.json, junit.xml,
// summary.md and report.html into `dir`, each atomically (a failed write leaves no partial
// file under the final name); then prints the coverage table and the verdict to `out`.
// Returns kReportExitPass or kReportExitGateFailed, or kReportExitBadInput (message on `err`,
// no verdict printed) when a journal is bad or a file could not be written.
int WriteReportSet(const std::vector<std::string>& journal_paths, const ReportOptions& options,
                   const std::string& dir, std::ostream& out, std::ostream& err);

}  // namespace opcts
