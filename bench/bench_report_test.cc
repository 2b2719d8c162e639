// The renderer on hand-written Google Benchmark JSON: medians picked over repetitions, skips
// with their reasons, the ratio table and its targets, the SVG, and unreadable input.
#include "bench/bench_report.h"

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace opcts::bench {
namespace {

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + name;
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
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp("report.json", kJson));
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
  BenchResults r = *LoadBenchJson(WriteTemp("first.json", kJson));
  r.Append(*LoadBenchJson(WriteTemp("second.json", kJson)));
  EXPECT_EQ(r.results.size(), 6u);
  EXPECT_EQ(r.memcpy.size(), 2u);
  EXPECT_EQ(r.skipped.size(), 2u);
  EXPECT_NE(r.context.find(" | 2026-01-01T00:00:00"), std::string::npos) << r.context;
}

TEST(BenchReport, RendersTheRatioTableAndThePlot) {
  const Result<BenchResults> loaded = LoadBenchJson(WriteTemp("render.json", kJson));
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

TEST(BenchReport, RejectsWhatIsNotBenchmarkOutput) {
  const Result<BenchResults> absent = LoadBenchJson(testing::TempDir() + "absent.json");
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().code, ErrorCode::kIo);
  EXPECT_NE(absent.error().message.find("absent.json: cannot open"), std::string::npos);
  std::string error = LoadError(WriteTemp("bad.json", "{\"benchmarks\": [}"));
  EXPECT_NE(error.find("bad.json: not JSON"), std::string::npos) << error;
  error = LoadError(WriteTemp("other.json", "{\"results\": []}"));
  EXPECT_NE(error.find("no \"benchmarks\" array"), std::string::npos) << error;
  error = LoadError(
      WriteTemp("name.json", R"({"benchmarks": [{"name": "x/y", "bytes_per_second": 1}]})"));
  EXPECT_NE(error.find("\"x/y\" is not op/backend/dtype/layout/size"), std::string::npos) << error;
  // A file from before the copy limit: no silent zero ratios.
  error = LoadError(WriteTemp("old.json", R"({"benchmarks": [{"name": "a/b/f32/1d/DRAM",
      "bytes": 64, "bytes_per_second": 1, "memcpy_bytes_per_second": 1, "ratio_to_memcpy": 1}]})"));
  EXPECT_NE(error.find("lacks bytes, bytes_per_second, ratio_to_copy_limit"), std::string::npos)
      << error;
  // One from before the streaming copy: its ratios are to a weaker limit, so it is refused.
  error = LoadError(WriteTemp("memcpy-only.json", R"({"benchmarks": [{"name": "a/b/f32/1d/DRAM",
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
