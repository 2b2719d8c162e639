// Times one benchmark case on one backend under Google Benchmark, through the C ABI exactly as
// the conformance runner calls it. Every iteration also times a memcpy of the case's bytes
// between two other buffers, so the ratio to memcpy is taken under the same load.
//
//   benchmark::RegisterBenchmark(c.Name("cpu-simd").c_str(), [&](benchmark::State& s) {
//     TimeCase(s, *plugin, c);
//   })->UseManualTime();
//
// Counters: bytes_per_second (the case's bytes over the execute time), memcpy_bytes_per_second,
// ratio_to_memcpy (memcpy time / execute time), elements, bytes. Before it is timed, the case
// goes once through the conformance pipeline (conformance/case_run.h): a backend that gets it
// wrong is not timed. A wrong answer, a query refusal or an execute failure ends the benchmark
// with SkipWithError naming the backend, the status and its message.
#pragma once

#include <cstdint>

#include <benchmark/benchmark.h>

#include "bench/bench_cases.h"
#include "conformance/plugin_loader.h"

namespace opcts::bench {

// `state` must use manual time (the in-place restore between executions is not timed).
void TimeCase(benchmark::State& state, const Plugin& plugin, const BenchCase& c);

// The baseline on its own: memcpy of `bytes` between two buffers.
void TimeMemcpy(benchmark::State& state, uint64_t bytes);

}  // namespace opcts::bench
