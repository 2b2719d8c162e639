// Times one benchmark case on one backend under Google Benchmark, through the C ABI exactly as
// the conformance runner calls it. Every iteration also copies the case's bytes between other
// buffers four times: with one thread's memcpy, with memcpy split over every core, and split
// over every core with streaming stores, with and without its input prefetched into L2
// (ParallelCopy, stream_copy.h): the fastest is the machine's copy limit, taken under the same
// load as the operator. The copies move the case's input bytes (never zeros, which some machines
// write faster than any other data).
//
//   benchmark::RegisterBenchmark(c.Name("cpu-simd").c_str(), [&](benchmark::State& s) {
//     TimeCase(s, *plugin, c);
//   })->UseManualTime();
//
// Counters: bytes_per_second (the case's bytes over the execute time),
// one_thread_memcpy_bytes_per_second, all_thread_memcpy_bytes_per_second,
// all_thread_stream_copy_bytes_per_second (the faster streaming copy),
// prefetching_stream_copy_bytes_per_second (the prefetching one), memcpy_threads,
// copy_limit_bytes_per_second (the fastest), ratio_to_copy_limit (the fastest copy's time / execute
// time), ratio_to_one_thread_memcpy, elements, bytes; given a DeviceCopy (the vulkan backend's),
// also device_copy_bytes_per_second, ratio_to_device_copy, staged_copy_bytes_per_second and
// ratio_to_staged_copy, its two copies timed in the same iterations; for in-place ScatterND also
// scattered_copy_bytes_per_second and ratio_to_scattered_copy: the same slices memcpy'd over every
// core to the same rows of a buffer the output's size, timed in the same iterations (the limit of
// that write pattern, where the copy limit is that of contiguous bytes); for an in-place scan at
// DRAM size in_place_rewrite_bytes_per_second and ratio_to_in_place_rewrite: the case's bytes read
// and written back in place over every core, the faster of with and without a prefetch
// (in_place_rewrite.h), timed in the same iterations; for a case of the smallest
// size class (cache-resident) that is not in place, back_to_back_bytes_per_second: the fastest of 8
// batches of 32 executions run back to back, nothing between them, the operator's compute ceiling
// (skipped when one timed execution took over 200 us). Before it is timed, the case goes once
// through the conformance pipeline (conformance/case_run.h): a backend that gets it wrong is not
// timed. A wrong answer, a query refusal or an execute failure ends the benchmark with
// SkipWithError naming the backend, the status and its message.
#pragma once

#include <cstdint>

#include <benchmark/benchmark.h>

#include "bench/bench_cases.h"
#include "bench/device_copy.h"
#include "conformance/plugin_loader.h"

namespace opcts::bench {

// `state` must use manual time (the in-place restore between executions is not timed).
// `device_copy` may be null.
void TimeCase(benchmark::State& state, const Plugin& plugin, const BenchCase& c,
              DeviceCopy* device_copy);

// The baselines on their own: the four copies of `bytes` of pseudo-random data, each between
// buffers of its own (the same counters, without the ratios); with `zeros`, of zero bytes (the
// copy limit before 2026-12-04, which some machines write faster than any other data). `state`
// must use manual time.
void TimeMemcpy(benchmark::State& state, uint64_t bytes, bool zeros);

}  // namespace opcts::bench
