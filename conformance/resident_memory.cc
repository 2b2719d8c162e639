#include "conformance/resident_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace opcts {

std::optional<uint64_t> ResidentBytes(pid_t pid) {
  std::FILE* statm = std::fopen(("/proc/" + std::to_string(pid) + "/statm").c_str(), "r");
  if (statm == nullptr) return std::nullopt;
  unsigned long long size = 0, resident = 0;
  const bool read = std::fscanf(statm, "%llu %llu", &size, &resident) == 2;
  std::fclose(statm);
  if (!read) return std::nullopt;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

MemoryRecord SummarizeResidentMemory(const std::string& backend, uint64_t cases,
                                     const std::vector<ResidentSample>& samples) {
  MemoryRecord record;
  record.backend = backend;
  record.cases = cases;
  if (samples.empty()) return record;
  record.first_bytes = samples.front().bytes;
  record.last_bytes = samples.back().bytes;
  for (const ResidentSample& s : samples) record.peak_bytes = std::max(record.peak_bytes, s.bytes);

  std::vector<ResidentSample> settled;  // after the warm-up
  for (const ResidentSample& s : samples)
    if (s.cases * 4 >= cases) settled.push_back(s);
  if (settled.size() < 8 || settled.back().cases - settled.front().cases < 32) return record;

  double mean_cases = 0, mean_bytes = 0;
  for (const ResidentSample& s : settled) {
    mean_cases += static_cast<double>(s.cases);
    mean_bytes += static_cast<double>(s.bytes);
  }
  mean_cases /= static_cast<double>(settled.size());
  mean_bytes /= static_cast<double>(settled.size());
  double covariance = 0, variance = 0;
  for (const ResidentSample& s : settled) {
    const double dc = static_cast<double>(s.cases) - mean_cases;
    covariance += dc * (static_cast<double>(s.bytes) - mean_bytes);
    variance += dc * dc;
  }
  record.growth_per_case = variance > 0 ? covariance / variance : 0;

  uint64_t lowest[4];
  for (size_t g = 0; g < 4; ++g) {
    const size_t begin = settled.size() * g / 4, end = settled.size() * (g + 1) / 4;
    lowest[g] = std::min_element(settled.begin() + static_cast<std::ptrdiff_t>(begin),
                                 settled.begin() + static_cast<std::ptrdiff_t>(end),
                                 [](const auto& a, const auto& b) { return a.bytes < b.bytes; })
                    ->bytes;
  }
  record.leaking = lowest[0] < lowest[1] && lowest[1] < lowest[2] && lowest[2] < lowest[3] &&
                   lowest[3] - lowest[0] >= kLeakBytes;
  return record;
}

std::optional<uint64_t> ResidentMemory::Sample(pid_t pid, uint64_t cases, bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && !samples_.empty() && now - last_ < interval_) return std::nullopt;
  const std::optional<uint64_t> bytes = ResidentBytes(pid);
  if (!bytes) return std::nullopt;
  last_ = now;
  if (samples_.size() == 4096) {  // a long run: keep every other sample, sample half as often
    for (size_t i = 0; i < samples_.size() / 2; ++i) samples_[i] = samples_[2 * i];
    samples_.resize(samples_.size() / 2);
    interval_ *= 2;
  }
  samples_.push_back({cases, *bytes});
  return bytes;
}

}  // namespace opcts
