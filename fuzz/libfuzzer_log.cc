#include "fuzz/libfuzzer_log.h"

#include <cstdlib>
#include <filesystem>

#include "reports/failure_cause.h"

namespace opcts {
namespace {

// The number after `key` in `line`; nullopt when the key is absent.
std::optional<uint64_t> NumberAfter(std::string_view line, std::string_view key) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string rest(line.substr(at + key.size()));
  return std::strtoull(rest.c_str(), nullptr, 10);
}

// How telling a summary line is: an opcts mismatch, then an uncaught exception, then a
// sanitizer's SUMMARY, then libFuzzer's ERROR.
int Rank(std::string_view line, std::string& summary) {
  if (line.rfind("==opcts-fuzz== ", 0) == 0 && line.find("signature: ") == std::string_view::npos &&
      line.find("the case (expected") == std::string_view::npos) {
    summary = line.substr(15);
    return 4;
  }
  if (const size_t what = line.find("what():  "); what != std::string_view::npos) {
    summary = "uncaught exception: " + std::string(line.substr(what + 9));
    return 3;
  }
  if (line.rfind("SUMMARY: ", 0) == 0) {
    summary = line.substr(9);
    return 2;
  }
  if (const size_t error = line.find("ERROR: libFuzzer: "); error != std::string_view::npos) {
    summary = line.substr(error + 7);
    return 1;
  }
  return 0;
}

}  // namespace

std::optional<CoveragePoint> ParseStatusLine(std::string_view line) {
  if (line.size() < 2 || line[0] != '#' || line.find("cov: ") == std::string_view::npos)
    return std::nullopt;
  CoveragePoint p;
  p.executions = std::strtoull(std::string(line.substr(1, 20)).c_str(), nullptr, 10);
  p.cov = NumberAfter(line, "cov: ").value_or(0);
  p.features = NumberAfter(line, "ft: ").value_or(0);
  p.corpus = NumberAfter(line, "corp: ").value_or(0);
  return p;
}

void ProcessLog::Read(double seconds, std::string_view line) {
  if (std::optional<CoveragePoint> p = ParseStatusLine(line)) {
    p->seconds = seconds;
    if (!final_executions_) executions = p->executions;
    if (coverage.empty() || coverage.back().cov != p->cov ||
        coverage.back().features != p->features || seconds - coverage.back().seconds >= 1)
      coverage.push_back(*p);
    return;
  }
  if (const std::optional<uint64_t> n = NumberAfter(line, "stat::number_of_executed_units: ")) {
    executions = *n;
    final_executions_ = true;
    return;
  }
  if (const size_t at = line.find("Test unit written to "); at != std::string_view::npos) {
    artifact = line.substr(at + 21);
    return;
  }
  if (line.rfind("==opcts-fuzz== signature: ", 0) == 0) {
    signature = line.substr(26);
    return;
  }
  if (constexpr std::string_view kPrefix = kCannotStartLine; line.rfind(kPrefix, 0) == 0) {
    start_error = line.substr(kPrefix.size());
    return;
  }
  std::string candidate;
  if (const int rank = Rank(line, candidate); rank > summary_rank_) {
    summary_rank_ = rank;
    summary = candidate;
    if (found_at < 0) found_at = seconds;
  }
}

std::string ProcessLog::Signature(const std::string& target) const {
  if (!signature.empty()) return signature;
  const std::string name = std::filesystem::path(artifact).filename().string();
  std::string status = "Crash";
  if (name.rfind("leak-", 0) == 0) status = "Leak";
  if (name.rfind("timeout-", 0) == 0) status = "Timeout";
  if (name.rfind("oom-", 0) == 0) status = "MemoryLimit";
  return status + " " + target + ": " + CauseOf(summary.empty() ? "no report" : summary);
}

}  // namespace opcts
