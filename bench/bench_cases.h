// Benchmark cases derived from the specs the way conformance/ derives test cases: for every
// operator, each representative dtype its support tables allow x layout class x size class. Scans
// take six layout classes; ScatterND takes slice sizes x index counts instead. Recipes only:
// Materialize() (conformance/case.h) makes the bytes when a benchmark first runs.
//
//   SpecSet specs = LoadSpecSet(DefaultSpecDir());
//   for (const BenchCase& c : GenerateBenchCases(specs))
//     c.Name("cpu-simd");   // "dml_cumulative_summation/cpu-simd/f32/inner/DRAM"
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/spec_set.h"

namespace opcts::bench {

// Size classes by the bytes of the operator's main tensor; the machine has 1 MiB of L2 per core
// and 32 MiB of shared L3, so input + output (+ the memcpy baseline's two buffers) fit each level.
struct SizeClass {
  const char* name;
  uint64_t tensor_bytes;
};
inline constexpr SizeClass kSizeClasses[] = {
    {"L2", uint64_t{128} << 10}, {"L3", uint64_t{4} << 20}, {"DRAM", uint64_t{64} << 20}};
// The DRAM class also has at least this many elements (the targets are stated for >= 16 Mi).
inline constexpr uint64_t kDramMinElements = uint64_t{16} << 20;

// The dtypes the benchmarks sample (each operator keeps those its spec allows).
inline constexpr DType kRepresentativeDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kInt32,
                                                  DType::kInt64,   DType::kFloat64, DType::kUInt8};

struct BenchCase {
  std::string op;      // OperatorKey: "dml_cumulative_summation"
  std::string dtype;   // "f32"
  std::string layout;  // scans: 1d inner outer middle strided in-place; scatter: slice1KiB-all ...
  std::string size;    // a SizeClass name
  uint64_t elements = 0;  // of the main tensor
  // The least the operator must move, and what the memcpy baseline copies: the main tensor for
  // scans; output + updates + indices for ScatterND (updates + indices in place).
  uint64_t bytes = 0;
  // ScatterND in place, where only the slices move: `count` slices of `slice_bytes` into the
  // output's rows that tensor `indices` names (of `rows`). TimeCase copies that pattern too (the
  // scattered copy). Else count 0.
  struct ScatterPattern {
    std::string indices;
    uint64_t slice_bytes = 0;
    uint32_t rows = 0, count = 0;
  } scatter;
  CaseRecipe recipe;

  // "op/backend/dtype/layout/size": Google Benchmark names, filterable by any part.
  std::string Name(const std::string& backend) const {
    return op + "/" + backend + "/" + dtype + "/" + layout + "/" + size;
  }
};

// Every case, operators in spec order; within an operator by size, then dtype, then layout.
std::vector<BenchCase> GenerateBenchCases(const SpecSet& specs);

}  // namespace opcts::bench
