// The renderer on hand-written Google Benchmark JSON: medians picked over repetitions, skips
// with their reasons, the ratio table and its targets, the SVG, and unreadable input.
#include "bench/bench_report.h"

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "conformance/testing/scratch_dir.h"

namespace opcts::bench {
namespace {

using testing::ScratchDir;

// Writes `text` to a file of the test's scratch directory.
std::string WriteTemp(const ScratchDir& dir, const std::string& name, const std::string& text) {
  std::string path = dir / name;
  std::ofstream(path) << text;
  return path;
}

// Two repetitions aggregated (mean and median differ), plain runs (one with the scattered copy), a
// skip and a memcpy.
const char* kJson = R"json({
  "context": {"date": "2026-01-01T00:00:00", "load_avg": [0.5, 0.25, 0.125],
              "backend cpu-simd": "AMD EPYC (AVX3)"},
  "benchmarks": [
    {"name": "memcpy/67108864/manual_time", "run_name": "memcpy/67108864/manual_time",
     "run_type": "iteration", "bytes": 67108864, "one_thread_memcpy_bytes_per_second": 10e9,
     "all_thread_memcpy_bytes_per_second": 20e9,
     "all_thread_stream_copy_bytes_per_second": 25e9, "memcpy_threads": 2},
    {"name": "dml_cumulative_summation/cpu-simd/f32/1d/DRAM/manual_time_mean",
     "run_name": "dml_cumulative_summation/cpu-simd/f32/1d/DRAM/manual_time",
     "run_type": "aggregate", "aggregate_name": "mean", "repetitions": 2,
     "bytes": 67108864, "bytes_per_second": 1e9, "one_thread_memcpy_bytes_per_second": 1e9,
     "all_thread_memcpy_bytes_per_second": 1e9, "all_thread_stream_copy_bytes_per_second": 1e9,
     "memcpy_threads": 2, "ratio_to_copy_limit": 0.5, "ratio_to_one_thread_memcpy": 0.5},
    {"name": "dml_cumulative_summation/cpu-simd/f32/1d/DRAM/manual_time_median",
     "run_name": "dml_cumulative_summation/cpu-simd/f32/1d/DRAM/manual_time",
     "run_type": "aggregate", "aggregate_name": "median", "repetitions": 2,
     "bytes": 67108864, "bytes_per_second": 19e9, "one_thread_memcpy_bytes_per_second": 10e9,
     "all_thread_memcpy_bytes_per_second": 20e9, "all_thread_stream_copy_bytes_per_second": 19e9,
     "memcpy_threads": 2, "ratio_to_copy_limit": 0.95, "ratio_to_one_thread_memcpy": 1.9},
    {"name": "dml_cumulative_summation/cpu-simd/f16/1d/DRAM/manual_time",
     "run_name": "dml_cumulative_summation/cpu-simd/f16/1d/DRAM/manual_time",
     "run_type": "iteration", "bytes": 67108864, "bytes_per_second": 10e9,
     "one_thread_memcpy_bytes_per_second": 12e9, "all_thread_memcpy_bytes_per_second": 9e9,
     "all_thread_stream_copy_bytes_per_second": 20e9, "memcpy_threads": 2,
     "ratio_to_copy_limit": 0.5, "ratio_to_one_thread_memcpy": 0.5},
    {"name": "dml_scatter_nd/cpu-simd/f32/slice1KiB-sparse-in-place/DRAM/manual_time",
     "run_name": "dml_scatter_nd/cpu-simd/f32/slice1KiB-sparse-in-place/DRAM/manual_time",
     "run_type": "iteration", "bytes": 4227072, "bytes_per_second": 12e9,
     "one_thread_memcpy_bytes_per_second": 20e9, "all_thread_memcpy_bytes_per_second": 16e9,
     "all_thread_stream_copy_bytes_per_second": 8e9, "memcpy_threads": 2,
     "ratio_to_copy_limit": 0.6, "ratio_to_one_thread_memcpy": 0.6,
     "scattered_copy_bytes_per_second": 11e9, "ratio_to_scattered_copy": 1.1},
    {"name": "dml_scatter_nd/vulkan/u8/slice1KiB-all/DRAM/manual_time",
     "run_name": "dml_scatter_nd/vulkan/u8/slice1KiB-all/DRAM/manual_time",
     "run_type": "iteration", "error_occurred": true,
     "error_message": "vulkan refuses at query (NOT_SUPPORTED): no 8-bit storage"}
  ]
})json";

// The error message of a file that does not load; "" when it loads.
std::string LoadError(const std::string& path) {
  const Result<BenchResults> loaded = LoadBenchJson(path);
  return loaded ? "" : loaded.error().message;
}

TEST(BenchReport, TakesMediansAndSkips) {
  const ScratchDir dir;
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp(dir, "report.json", kJson));
  ASSERT_TRUE(loaded) << loaded.error().message;
  const BenchResults& r = *loaded;
  ASSERT_EQ(r.results.size(), 3u);
  EXPECT_EQ(r.results[0].dtype, "f32");
  EXPECT_DOUBLE_EQ(r.results[0].ratio_to_copy_limit, 0.95);  // the median, not the mean
  EXPECT_DOUBLE_EQ(r.results[0].ratio_to_one_thread_memcpy, 1.9);
  EXPECT_DOUBLE_EQ(r.results[0].all_thread_memcpy_bytes_per_second, 20e9);
  EXPECT_DOUBLE_EQ(r.results[0].all_thread_stream_copy_bytes_per_second, 19e9);
  EXPECT_EQ(r.results[0].repetitions, 2);
  EXPECT_EQ(r.results[1].dtype, "f16");
  EXPECT_DOUBLE_EQ(r.results[1].ratio_to_scattered_copy, 0);  // a scan has none
  EXPECT_DOUBLE_EQ(r.results[2].ratio_to_scattered_copy, 1.1);
  ASSERT_EQ(r.memcpy.size(), 1u);
  EXPECT_DOUBLE_EQ(r.memcpy[0].one_thread_bytes_per_second, 10e9);
  EXPECT_DOUBLE_EQ(r.memcpy[0].all_thread_bytes_per_second, 20e9);
  EXPECT_DOUBLE_EQ(r.memcpy[0].all_thread_stream_bytes_per_second, 25e9);
  EXPECT_EQ(r.memcpy[0].threads, 2);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].reason.find("no 8-bit storage"), std::string::npos);
  EXPECT_NE(r.context.find("load average 0.50 0.25 0.12"), std::string::npos) << r.context;
}

TEST(BenchReport, TargetsFollowTheIssue) {
  BenchResult r{"dml_cumulative_product", "cpu-simd", "f32", "outer", "DRAM"};
  EXPECT_EQ(TargetRatio(r), 0.9);
  r.dtype = "f16";
  EXPECT_EQ(TargetRatio(r), 0.8);
  r.layout = "strided";  // every layout, the padded view too
  EXPECT_EQ(TargetRatio(r), 0.8);
  r.dtype = "u8";
  EXPECT_EQ(TargetRatio(r), 0);
  r = {"dml_scatter_nd", "cpu-simd", "u8", "slice1KiB-sparse-in-place", "DRAM"};
  EXPECT_EQ(TargetRatio(r), 0.8);
  r.layout = "slice64B-all";
  EXPECT_EQ(TargetRatio(r), 0);
  r = {"dml_cumulative_summation", "cpu-simd", "f32", "1d", "L3"};  // targets are for >= 16 Mi
  EXPECT_EQ(TargetRatio(r), 0);
  r = {"dml_cumulative_summation", "cpu-reference", "f32", "1d", "DRAM"};
  EXPECT_EQ(TargetRatio(r), 0);
  r.backend = "cpu-simd@target=AVX2";
  EXPECT_EQ(TargetRatio(r), 0.9);
  r.backend = "cpu-simd@target=AVX2;threads=1";  // a diagnostic of one core
  EXPECT_EQ(TargetRatio(r), 0);
}

TEST(BenchReport, AppendsTheFilesOfOneReport) {
  const ScratchDir dir;
  BenchResults r = *LoadBenchJson(WriteTemp(dir, "first.json", kJson));
  r.Append(*LoadBenchJson(WriteTemp(dir, "second.json", kJson)));
  EXPECT_EQ(r.results.size(), 6u);
  EXPECT_EQ(r.memcpy.size(), 2u);
  EXPECT_EQ(r.skipped.size(), 2u);
  EXPECT_NE(r.context.find(" | 2026-01-01T00:00:00"), std::string::npos) << r.context;
}

TEST(BenchReport, RendersTheRatioTableAndThePlot) {
  const ScratchDir dir;
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp(dir, "render.json", kJson));
  ASSERT_TRUE(loaded) << loaded.error().message;
  const BenchResults& r = *loaded;
  const std::string md = RenderMarkdown(r);
  EXPECT_NE(md.find("| dml_cumulative_summation | f32 | 1d | 0.95× · 1.90× · 19.00 | ≥ 0.9 |"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find("| dml_cumulative_summation | f16 | 1d | **0.50×** ✗ · 0.50× · 10.00 | ≥ 0.8 |"),
      std::string::npos)
      << md;
  // In-place ScatterND: the scattered copy, explained once.
  EXPECT_NE(md.find("| dml_scatter_nd | f32 | slice1KiB-sparse-in-place | **0.60×** ✗ · 0.60× · "
                    "12.00 · 1.10× scattered copy | ≥ 0.8 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("the ratio to the **scattered copy**"), std::string::npos);
  // The limit is stated: the baselines' range in the class, and which copy was the fastest (each
  // of the three once).
  EXPECT_NE(md.find("Copy limit here: one-thread memcpy 10.00–20.00 GB/s, 2-thread memcpy "
                    "9.00–20.00 GB/s, 2-thread streaming copy 8.00–20.00 GB/s; the fastest was "
                    "one-thread memcpy in 1, 2-thread memcpy in 1, the streaming copy in 1 of 3 "
                    "cases."),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`dml_scatter_nd/vulkan/u8/slice1KiB-all/DRAM`: vulkan refuses"),
            std::string::npos);
  const std::string svg = RenderSvg(r);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("stroke-dasharray=\"4 2\"/>"), std::string::npos);      // one-thread memcpy
  EXPECT_NE(svg.find("stroke-dasharray=\"1 2\"/>"), std::string::npos);      // every core
  EXPECT_NE(svg.find("stroke-dasharray=\"6 2 1 2\"/>"), std::string::npos);  // streaming
  EXPECT_NE(svg.find(">cpu-simd</text>"), std::string::npos);                // the legend
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// An in-place scan ends its cell with the rewrite in place, explained once; a table without one
// does not explain it.
TEST(BenchReport, EndsInPlaceScanCellsWithTheRewrite) {
  const ScratchDir dir;
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp(dir, "rewrite.json", R"json({
  "benchmarks": [
    {"name": "dml_cumulative_summation/cpu-simd/i64/in-place/DRAM/manual_time",
     "run_name": "dml_cumulative_summation/cpu-simd/i64/in-place/DRAM/manual_time",
     "run_type": "iteration", "bytes": 134217728, "bytes_per_second": 22e9,
     "one_thread_memcpy_bytes_per_second": 6e9, "all_thread_memcpy_bytes_per_second": 12e9,
     "all_thread_stream_copy_bytes_per_second": 18e9, "memcpy_threads": 2,
     "ratio_to_copy_limit": 1.22, "ratio_to_one_thread_memcpy": 3.67,
     "in_place_rewrite_bytes_per_second": 27.5e9, "ratio_to_in_place_rewrite": 0.8}]})json"));
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->results.size(), 1u);
  EXPECT_DOUBLE_EQ(loaded->results[0].ratio_to_in_place_rewrite, 0.8);
  const std::string md = RenderMarkdown(*loaded);
  EXPECT_NE(md.find("| dml_cumulative_summation | i64 | in-place | 1.22× · 3.67× · 22.00 · 0.80× "
                    "rewrite in place | ≥ 0.9 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("the ratio to the **rewrite in place**"), std::string::npos) << md;
  const std::string without = RenderMarkdown(*LoadBenchJson(WriteTemp(dir, "plain.json", kJson)));
  EXPECT_EQ(without.find("rewrite in place"), std::string::npos) << without;
}

// DRAM cases on two instances (every core; AVX2 with threads named first), the first
// also on one thread from memory, and their one-thread instances at L2 size timed back to back;
// a float32 case whose L2 case was not timed back to back; one on an instance whose threads
// option is no count.
const char* kRooflineJson = R"json({"benchmarks": [
  {"name": "scan/cpu-simd/f16/1d/DRAM", "bytes": 67108864, "bytes_per_second": 10e9,
   "one_thread_memcpy_bytes_per_second": 12e9, "all_thread_memcpy_bytes_per_second": 16e9,
   "all_thread_stream_copy_bytes_per_second": 20e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.5, "ratio_to_one_thread_memcpy": 0.8333},
  {"name": "scan/cpu-simd@threads=2;target=AVX2/f16/1d/DRAM", "bytes": 67108864,
   "bytes_per_second": 8e9, "one_thread_memcpy_bytes_per_second": 12e9,
   "all_thread_memcpy_bytes_per_second": 16e9, "all_thread_stream_copy_bytes_per_second": 20e9,
   "memcpy_threads": 2, "ratio_to_copy_limit": 0.4, "ratio_to_one_thread_memcpy": 0.6667},
  {"name": "scan/cpu-simd@threads=1/f16/1d/DRAM", "bytes": 67108864, "bytes_per_second": 6e9,
   "one_thread_memcpy_bytes_per_second": 12e9, "all_thread_memcpy_bytes_per_second": 16e9,
   "all_thread_stream_copy_bytes_per_second": 20e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.3, "ratio_to_one_thread_memcpy": 0.5},
  {"name": "scan/cpu-simd@threads=x/f16/1d/DRAM", "bytes": 67108864, "bytes_per_second": 6e9,
   "one_thread_memcpy_bytes_per_second": 12e9, "all_thread_memcpy_bytes_per_second": 16e9,
   "all_thread_stream_copy_bytes_per_second": 20e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.3, "ratio_to_one_thread_memcpy": 0.5},
  {"name": "scan/cpu-simd/f32/1d/DRAM", "bytes": 67108864, "bytes_per_second": 15e9,
   "one_thread_memcpy_bytes_per_second": 12e9, "all_thread_memcpy_bytes_per_second": 16e9,
   "all_thread_stream_copy_bytes_per_second": 20e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.75, "ratio_to_one_thread_memcpy": 1.25},
  {"name": "scan/cpu-simd@threads=1/f16/1d/L2", "bytes": 131072, "bytes_per_second": 5e9,
   "one_thread_memcpy_bytes_per_second": 50e9, "all_thread_memcpy_bytes_per_second": 40e9,
   "all_thread_stream_copy_bytes_per_second": 10e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.1, "ratio_to_one_thread_memcpy": 0.1,
   "back_to_back_bytes_per_second": 7.5e9},
  {"name": "scan/cpu-simd@target=AVX2;threads=1/f16/1d/L2", "bytes": 131072,
   "bytes_per_second": 4e9, "one_thread_memcpy_bytes_per_second": 50e9,
   "all_thread_memcpy_bytes_per_second": 40e9, "all_thread_stream_copy_bytes_per_second": 10e9,
   "memcpy_threads": 2, "ratio_to_copy_limit": 0.08, "ratio_to_one_thread_memcpy": 0.08,
   "back_to_back_bytes_per_second": 5e9},
  {"name": "scan/cpu-simd@threads=1/f32/1d/L2", "bytes": 131072, "bytes_per_second": 5e9,
   "one_thread_memcpy_bytes_per_second": 50e9, "all_thread_memcpy_bytes_per_second": 40e9,
   "all_thread_stream_copy_bytes_per_second": 10e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.1, "ratio_to_one_thread_memcpy": 0.1}
]})json";

TEST(BenchReport, RendersTheRooflineOfCasesWithAComputeCeiling) {
  const ScratchDir dir;
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp(dir, "roofline.json", kRooflineJson));
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_DOUBLE_EQ(loaded->results[5].back_to_back_bytes_per_second, 7.5e9);
  EXPECT_DOUBLE_EQ(loaded->results[7].back_to_back_bytes_per_second, 0);  // not timed so
  const std::string md = RenderMarkdown(*loaded);
  EXPECT_NE(md.find("### Roofline (DRAM)"), std::string::npos) << md;
  // Every core (the copies' 2): memory 10 / 0.5 = 20 GB/s, compute 2 x 7.5 = 15, roofline 15,
  // without overlap 1 / (1/20 + 1/15) = 8.57.
  EXPECT_NE(md.find("| scan | f16 | 1d | cpu-simd | 2 | 10.00 | 20.00 | 15.00 | 0.67× | 8.57 | "
                    "1.17× |"),
            std::string::npos)
      << md;
  // Two threads named, before the target: memory 20, compute 2 x 5 = 10, without overlap
  // 6.67.
  EXPECT_NE(md.find("| scan | f16 | 1d | cpu-simd@threads=2;target=AVX2 | 2 | 8.00 | 20.00 | "
                    "10.00 | 0.80× | 6.67 | 1.20× |"),
            std::string::npos)
      << md;
  // One thread: its memory limit is one thread's memcpy (12); compute 7.5; without overlap 4.62.
  EXPECT_NE(md.find("| scan | f16 | 1d | cpu-simd@threads=1 | 1 | 6.00 | 12.00 | 7.50 | 0.80× | "
                    "4.62 | 1.30× |"),
            std::string::npos)
      << md;
  // No back-to-back figure for float32, and no count in threads=x: no row.
  EXPECT_EQ(md.find("| scan | f32 | 1d | cpu-simd | 2 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| scan | f16 | 1d | cpu-simd@threads=x |"), std::string::npos) << md;
  EXPECT_NE(md.find("2 DRAM cases are not listed"), std::string::npos) << md;  // said, not hidden
  // Without any ceiling there is no table.
  EXPECT_EQ(RenderMarkdown(*LoadBenchJson(WriteTemp(dir, "plain.json", kJson))).find("Roofline"),
            std::string::npos);
}

// A vulkan case with the device's copies (device_copy.h) beside a CPU case without them.
const char* kDeviceCopyJson = R"json({"context": {"date": "2026-01-01T00:00:00"}, "benchmarks": [
  {"name": "scan/vulkan/f32/1d/DRAM/manual_time", "run_name": "scan/vulkan/f32/1d/DRAM/manual_time",
   "run_type": "iteration", "bytes": 67108864, "bytes_per_second": 6e9,
   "one_thread_memcpy_bytes_per_second": 10e9, "all_thread_memcpy_bytes_per_second": 20e9,
   "all_thread_stream_copy_bytes_per_second": 30e9, "memcpy_threads": 2,
   "ratio_to_copy_limit": 0.2, "ratio_to_one_thread_memcpy": 0.6,
   "device_copy_bytes_per_second": 2000e9, "ratio_to_device_copy": 0.003,
   "staged_copy_bytes_per_second": 8e9, "ratio_to_staged_copy": 0.75},
  {"name": "scan/cpu-simd/f32/1d/DRAM/manual_time",
   "run_name": "scan/cpu-simd/f32/1d/DRAM/manual_time", "run_type": "iteration",
   "bytes": 67108864, "bytes_per_second": 30e9, "one_thread_memcpy_bytes_per_second": 10e9,
   "all_thread_memcpy_bytes_per_second": 20e9, "all_thread_stream_copy_bytes_per_second": 30e9,
   "memcpy_threads": 2, "ratio_to_copy_limit": 1.0, "ratio_to_one_thread_memcpy": 3.0}
]})json";

TEST(BenchReport, RendersTheDeviceCopiesOfVulkanCases) {
  const ScratchDir dir;
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp(dir, "device.json", kDeviceCopyJson));
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_DOUBLE_EQ(loaded->results[0].ratio_to_device_copy, 0.003);
  EXPECT_DOUBLE_EQ(loaded->results[1].ratio_to_device_copy, 0);
  const std::string md = RenderMarkdown(*loaded);
  EXPECT_NE(md.find("| scan | f32 | 1d | 0.20× · 0.60× · 6.00 · 0.0030× device copy · 0.75× "
                    "staged copy | 1.00× · 3.00× · 30.00 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Device copies (vulkan): vkCmdCopyBuffer 2000.00 GB/s, staged round trip "
                    "8.00 GB/s, in 1 cases."),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("the ratio to the **device copy**"), std::string::npos) << md;
  // Without them, neither the line nor the explanation.
  const std::string plain = RenderMarkdown(*LoadBenchJson(WriteTemp(dir, "plain2.json", kJson)));
  EXPECT_EQ(plain.find("device copy"), std::string::npos) << plain;
}

TEST(BenchReport, SetsTheCopiesOfZerosBesideThoseOfData) {
  const ScratchDir dir;
  const std::string zeros = R"json(,
    {"name": "memcpy/67108864/zeros/manual_time", "run_name": "memcpy/67108864/zeros/manual_time",
     "run_type": "iteration", "bytes": 67108864, "one_thread_memcpy_bytes_per_second": 11e9,
     "all_thread_memcpy_bytes_per_second": 30e9,
     "all_thread_stream_copy_bytes_per_second": 50e9, "memcpy_threads": 2}
  ]
})json";
  std::string json = kJson;
  json.replace(json.rfind("\n  ]\n}"), std::string::npos, zeros);
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp(dir, "zeros.json", json));
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->memcpy.size(), 1u);  // not a baseline of the plot's copy lines
  ASSERT_EQ(loaded->memcpy_zeros.size(), 1u);
  EXPECT_DOUBLE_EQ(loaded->memcpy_zeros[0].all_thread_stream_bytes_per_second, 50e9);
  const std::string md = RenderMarkdown(*loaded);
  EXPECT_NE(md.find("67108864 bytes: one-thread memcpy 1.10×, 2-thread memcpy 1.50×, streaming "
                    "copy 2.00× (50.00 against 25.00 GB/s)."),
            std::string::npos)
      << md;
  const std::string plain = RenderMarkdown(*LoadBenchJson(WriteTemp(dir, "plain3.json", kJson)));
  EXPECT_EQ(plain.find("zero bytes"), std::string::npos) << plain;
}

TEST(BenchReport, RejectsWhatIsNotBenchmarkOutput) {
  const ScratchDir dir;
  const Result<BenchResults> absent = LoadBenchJson(dir / "absent.json");
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().code, ErrorCode::kIo);
  EXPECT_NE(absent.error().message.find("absent.json: cannot open"), std::string::npos);
  std::string error = LoadError(WriteTemp(dir, "bad.json", "{\"benchmarks\": [}"));
  EXPECT_NE(error.find("bad.json: not JSON"), std::string::npos) << error;
  error = LoadError(WriteTemp(dir, "other.json", "{\"results\": []}"));
  EXPECT_NE(error.find("no \"benchmarks\" array"), std::string::npos) << error;
  error = LoadError(
      WriteTemp(dir, "name.json", R"({"benchmarks": [{"name": "x/y", "bytes_per_second": 1}]})"));
  EXPECT_NE(error.find("\"x/y\" is not op/backend/dtype/layout/size"), std::string::npos) << error;
  // A file from before the copy limit: no silent zero ratios.
  error = LoadError(WriteTemp(dir, "old.json", R"({"benchmarks": [{"name": "a/b/f32/1d/DRAM",
      "bytes": 64, "bytes_per_second": 1, "memcpy_bytes_per_second": 1, "ratio_to_memcpy": 1}]})"));
  EXPECT_NE(error.find("lacks bytes, bytes_per_second, ratio_to_copy_limit"), std::string::npos)
      << error;
  // One from before the streaming copy: its ratios are to a weaker limit, so it is refused.
  error =
      LoadError(WriteTemp(dir, "memcpy-only.json", R"({"benchmarks": [{"name": "a/b/f32/1d/DRAM",
      "bytes": 64, "bytes_per_second": 1, "one_thread_memcpy_bytes_per_second": 1,
      "all_thread_memcpy_bytes_per_second": 1, "memcpy_threads": 2, "ratio_to_copy_limit": 1,
      "ratio_to_one_thread_memcpy": 1}]})"));
  EXPECT_NE(error.find("all_thread_stream_copy_bytes_per_second (a file from before the streaming "
                       "copy joined the copy limit?)"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace opcts::bench
