// A worker process's resident memory over the cases it runs, and whether it leaks: sampled by
// the parent as results arrive, summarised when the worker ends (a journal memory line).
//
//   ResidentMemory memory;
//   memory.Sample(pid, cases_finished);          // throttled: at most one read per 2 ms
//   MemoryRecord r = memory.Summary("cpu-simd", cases_finished);
//   if (r.leaking) ...                           // DescribeLeak(r)
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reports/journal.h"

namespace opcts {

// Growth after the warm-up below this is never called a leak: caches, pools and allocator
// slack of a sound backend stay well under it.
inline constexpr uint64_t kLeakBytes = uint64_t{64} << 20;

// The resident memory of process `pid` (/proc/PID/statm), or nullopt once it is gone.
std::optional<uint64_t> ResidentBytes(pid_t pid);

struct ResidentSample {
  uint64_t cases = 0;  // cases finished when it was taken
  uint64_t bytes = 0;
};

// Leaking: after the warm-up (its first quarter of cases), with at least 8 samples over at
// least 32 cases, the lowest sample of each of four consecutive groups is above the one
// before (steady growth, not the peaks of a few large cases), by kLeakBytes in all.
// growth_per_case is the least-squares slope over those samples.
MemoryRecord SummarizeResidentMemory(const std::string& backend, uint64_t cases,
                                     const std::vector<ResidentSample>& samples);

class ResidentMemory {
 public:
  // Reads pid's resident memory unless the last read was under 2 ms ago (`force`: read anyway);
  // the bytes read, or nullopt (throttled, or the process is gone).
  std::optional<uint64_t> Sample(pid_t pid, uint64_t cases, bool force = false);
  MemoryRecord Summary(const std::string& backend, uint64_t cases) const {
    return SummarizeResidentMemory(backend, cases, samples_);
  }

 private:
  std::vector<ResidentSample> samples_;
  std::chrono::steady_clock::time_point last_{};
  std::chrono::microseconds interval_{2000};  // doubled whenever samples_ is thinned
};

}  // namespace opcts
