// Reads Google Benchmark JSON written by opcts_bench and renders it: a Markdown table of ratios
// to the copy limit (the fastest of one-thread memcpy, all-thread memcpy and an all-thread
// streaming copy of the same bytes, timed in the same iterations) per operator x dtype x layout
// and backend, and an SVG plot (throughput against size, one panel per operator, a line per
// backend and one per copy) that the HTML report can embed.
// Reads only the results files, never the backends.
//
//   Result<BenchResults> r = LoadBenchJson("bench.json");
//   if (!r) std::cerr << r.error().message;          // "bench.json: not JSON: ..."
//   std::ofstream("bench.svg") << RenderSvg(*r);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace opcts::bench {

// One benchmark: the median over repetitions when the file has aggregates.
struct BenchResult {
  std::string op, backend, dtype, layout, size;  // from "op/backend/dtype/layout/size"
  double bytes = 0;
  double bytes_per_second = 0;
  double one_thread_memcpy_bytes_per_second = 0;
  double all_thread_memcpy_bytes_per_second = 0;
  double all_thread_stream_copy_bytes_per_second = 0;
  int memcpy_threads = 0;
  double ratio_to_copy_limit = 0;         // the fastest copy's time / the operator's
  double ratio_to_one_thread_memcpy = 0;  // one thread's memcpy time / the operator's
  double ratio_to_scattered_copy = 0;     // in-place ScatterND (case_timer.h), else 0
  double ratio_to_in_place_rewrite = 0;   // in-place scans (case_timer.h), else 0
  // The vulkan backend's device copy and staged round trip (device_copy.h), else 0.
  double device_copy_bytes_per_second = 0, ratio_to_device_copy = 0;
  double staged_copy_bytes_per_second = 0, ratio_to_staged_copy = 0;
  double back_to_back_bytes_per_second = 0;  // cache-resident cases (case_timer.h), else 0
  int repetitions = 1;
};

// memcpy/<bytes>, the copies on their own: memcpy on one thread, memcpy and the streaming copy
// split over `threads` (every core), of pseudo-random bytes; memcpy/<bytes>/zeros, the same of
// zero bytes (which some machines write faster than any other data: not a limit).
struct MemcpyResult {
  double bytes = 0;
  double one_thread_bytes_per_second = 0;
  double all_thread_bytes_per_second = 0;
  double all_thread_stream_bytes_per_second = 0;
  int threads = 0;
};

struct Skip {
  std::string name;
  std::string reason;
};

struct BenchResults {
  std::vector<BenchResult> results;
  std::vector<MemcpyResult> memcpy;
  std::vector<MemcpyResult> memcpy_zeros;
  std::vector<Skip> skipped;
  std::string context;  // one line: date, load average, backends' devices

  // Adds another file's results: several files make one report.
  void Append(BenchResults more);
};

// The file's results; kIo or kInvalidInput with a message naming the file and what is wrong when
// it cannot be read.
Result<BenchResults> LoadBenchJson(const std::string& path);

// The target ratio the benchmark issue sets for cpu-simd (any target, every thread) on this case
// at the DRAM size, or 0.
double TargetRatio(const BenchResult& r);

// Markdown: a header stating the copy limit (per size class, the baselines' GB/s); per size class
// (DRAM first), a table op | dtype | layout | per backend the ratio to the copy limit, the ratio
// to one-thread memcpy and GB/s (a missed target marked), the ratio to the scattered copy
// or to the rewrite in place where there is one, the ratios to the device copy and the staged copy
// where there are (with a line of their GB/s per size class) | the target when one is set; then the
// skipped benchmarks with their reasons. When the results hold a backend instance's DRAM cases and
// the same cases at L2 size on one thread of it (`NAME@threads=1`, with its other options) timed
// back to back, a roofline table follows: per DRAM case the memory limit, the compute ceiling (its
// threads times one thread's back-to-back GB/s), the bound with and without overlap of the two, and
// the case's ratio to each, and how many DRAM cases had no ceiling to list.
std::string RenderMarkdown(const BenchResults& results);

// A self-contained SVG document.
std::string RenderSvg(const BenchResults& results);

}  // namespace opcts::bench
