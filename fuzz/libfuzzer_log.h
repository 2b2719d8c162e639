// What a campaign reads from one libFuzzer process's output, line by line: executions and
// coverage as they grow, the file a finding was written to, and what the finding was (a
// differential target's signature line, else the sanitizer's or libFuzzer's summary); or why the
// target could not start (fuzz/targets/target_support.h).
//
//   ProcessLog log;
//   for (line : output) log.Read(seconds, line);
//   if (!log.artifact.empty()) ... log.Signature(target) ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/campaign_report.h"

namespace opcts {

// "#4096\tpulse  cov: 812 ft: 2301 corp: 101/3270b lim: 43 exec/s: 2048 rss: 61Mb" (and the
// INITED, NEW, REDUCE, DONE lines); nullopt for any other line.
std::optional<CoveragePoint> ParseStatusLine(std::string_view line);

// How a target that cannot start begins its one line of why (fuzz/targets/target_support.h).
inline constexpr char kCannotStartLine[] = "opcts fuzz: cannot start: ";

class ProcessLog {
 public:
  void Read(double seconds, std::string_view line);

  uint64_t executions = 0;
  std::vector<CoveragePoint> coverage;  // one point per status line that changed something
  std::string artifact;                 // "Test unit written to PATH"
  std::string signature;                // "==opcts-fuzz== signature: ..."
  std::string summary;                  // what went wrong, in one line
  double found_at = -1;                 // when the finding's first line came
  std::string start_error;              // "backend X: why" when the target could not start

  // The finding's signature: the differential target's, else the kind of the artifact
  // (crash-, leak-, timeout-, oom-) as a status and the summary with its numbers blanked:
  // "Crash opcts_fuzz_spec_yaml: AddressSanitizer: SEGV on unknown address # ...".
  std::string Signature(const std::string& target) const;

 private:
  bool final_executions_ = false;
  int summary_rank_ = 0;
};

}  // namespace opcts
