// A fuzzing campaign's report (`opcts fuzz --report-dir DIR`): campaign.json (format
// opcts-fuzz-campaign/1, for CI), campaign.md and campaign.html (self-contained, coverage plots
// inline). Per target: executions, executions per second, corpus size and what became of the
// corpus, coverage over the campaign's time. The findings, one per failure signature: new or
// known (and where from), how many inputs showed it, when it was first seen, its minimized input,
// its vector and its one-line repro.
//
//   FuzzCampaign c = ...;   // fuzz/campaign.h fills it
//   if (Result<void> w = WriteCampaignReports(c, "out"); !w) ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace opcts {

struct CoveragePoint {
  double seconds = 0;  // on the campaign's clock
  uint64_t executions = 0, cov = 0, features = 0, corpus = 0;
};

struct TargetCampaign {
  std::string target;
  uint64_t executions = 0;
  double seconds = 0;      // its processes' running time, summed
  uint64_t processes = 0;  // started: the first, and one more after each finding
  uint64_t corpus_files = 0;
  std::string corpus;  // what became of the corpus ("merged 812 -> 431 inputs into DIR", ...)
  std::vector<CoveragePoint> coverage;  // the best coverage so far, over time
  std::string error;                    // why it did not run; "" when it ran

  double ExecutionsPerSecond() const { return seconds > 0 ? executions / seconds : 0; }
};

struct CampaignFinding {
  std::string signature;  // reports/failure_cause.h's key, or the crash kind and summary
  std::string target;
  std::string known;       // "" for a new finding; else where it is known from
  uint64_t count = 0;      // inputs that showed it (the first included)
  double first_seen = -1;  // seconds into the campaign; -1 when not timed (known ones)
  std::string summary;     // the finding's first report line
  std::string input;       // its input as kept (the minimized one where minimizing worked)
  uint64_t input_bytes = 0;
  std::string minimized;  // "61 -> 24 bytes in 3.1 s", or why it was not minimized
  std::string vector;     // its opcts-vector/1 file (differential targets), else ""
  std::string repro;      // one command line
};

struct FuzzCampaign {
  std::string version, backend, started;  // started: UTC, ISO 8601
  std::string backend_options;            // its create() options, "" : none
  bool strict = false;
  uint64_t seconds = 0, jobs = 1;  // as asked
  double triage_limit = 0;         // the time triage was given
  double fuzz_seconds = 0, triage_seconds = 0;
  std::vector<TargetCampaign> targets;
  std::vector<CampaignFinding> findings;  // new ones first, then known; each by first seen

  size_t NewFindings() const;
};

nlohmann::json CampaignToJson(const FuzzCampaign& campaign);
std::string CampaignMarkdown(const FuzzCampaign& campaign);
std::string CampaignHtml(const FuzzCampaign& campaign);
// The three files into `dir` (created), each written atomically.
Result<void> WriteCampaignReports(const FuzzCampaign& campaign, const std::string& dir);

}  // namespace opcts
