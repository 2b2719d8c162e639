// `opcts report ...`: renders, diffs and merges journals (usage and exit codes in
// reports/README.md). The `opcts` dispatcher passes the arguments after "report".
//
//   return opcts::ReportMain({"--html", "report.html", "run.jsonl"});
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace opcts {

inline constexpr int kReportExitPass = 0;        // gate passed, no regression
inline constexpr int kReportExitGateFailed = 1;  // gate failed, or diff found a regression
inline constexpr int kReportExitBadInput = 2;    // usage error, unreadable or invalid input

int ReportMain(const std::vector<std::string>& args);
// The same, writing to the given streams (for tests).
int ReportMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace opcts
