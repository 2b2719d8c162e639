// A fuzzing campaign (`opcts fuzz`): the selected libFuzzer targets against one backend for a
// fixed wall time, then a triage bounded in time, then a report.
//
// Fuzzing. `seconds` is the wall time of the whole fuzzing phase: the targets share `jobs`
// processes in equal time windows. A process that finds something stops (libFuzzer does); it is
// restarted in its window with the finding's signature known (fuzz/targets/finding_filter.h), so
// one bug does not stop the search for others, and later inputs showing it are only counted.
// A finding already in the regression corpus or covered by a waiver is counted as known.
//
// Triage, at most `triage_seconds`: findings are deduplicated by signature first; one input per new
// signature (the smallest) is minimized (libFuzzer -minimize_crash, pinned to its signature,
// time-boxed); a differential finding becomes an opcts-vector/1 file whose `expected` is the
// reference's answer, anything else stays a raw input; `corpus_dir` corpora are merged
// (libFuzzer -merge) so they do not grow without bound. Progress goes to `progress`.
//
//   CampaignOptions o;  o.targets = {...}; o.bin = ...;
//   FuzzCampaign c = RunCampaign(o, std::cout);   // reports/campaign_report.h
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "reports/campaign_report.h"

namespace opcts {

struct CampaignOptions {
  std::string backend = "cpu-simd";
  std::string backend_options;  // its create() options (--backend-options), "" : none
  uint64_t seconds = 60, jobs = 1;
  bool strict = false;
  std::vector<std::string> targets;   // built, in bin
  std::filesystem::path bin;          // the targets (and their fuzz-seeds/)
  std::filesystem::path work;         // logs, artifacts, a fresh corpus when corpus_dir is empty
  std::filesystem::path regressions;  // known findings are read here, new ones written here
  std::filesystem::path corpus_dir;   // kept across campaigns ("" = a fresh corpus each time)
  std::filesystem::path report_dir;   // "" = no report files (findings still written)
  std::string waivers;                // a waiver file, "" = none
  double triage_seconds = 30;
};

FuzzCampaign RunCampaign(const CampaignOptions& options, std::ostream& progress);

// Equal time windows for `targets` targets on `jobs` processes over `seconds`: each target gets
// `parts` windows (run side by side) of `length` seconds; window i ends at (i / jobs + 1) * length.
struct Windows {
  uint64_t parts = 1;
  double length = 0;
};
Windows PlanWindows(uint64_t seconds, uint64_t jobs, size_t targets);

}  // namespace opcts
