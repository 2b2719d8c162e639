// The work pool runs every chunk exactly once, on any number of threads, whichever thread is
// late: a chunk run twice or never would be a wrong result, not a slow one.
#include "cpu_simd/parallel.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace opcts::cpu_simd {
namespace {

constexpr uint64_t kChunkCounts[] = {0, 1, 2, 3, 7, 64, 1000};

// Runs `chunks` through `run` and returns how often each chunk ran; slots must be in range.
template <class RunFn>
std::vector<int> Counts(const WorkPool& pool, uint64_t chunks, RunFn run) {
  std::vector<std::atomic<int>> ran(chunks);
  run([&](uint64_t chunk, unsigned slot) {
    EXPECT_LT(slot, pool.threads());
    ran.at(chunk).fetch_add(1, std::memory_order_relaxed);
  });
  return std::vector<int>(ran.begin(), ran.end());
}

TEST(WorkPool, RunsEveryChunkOnce) {
  for (unsigned workers : {0u, 1u, 3u}) {
    WorkPool pool(workers);
    for (uint64_t chunks : kChunkCounts)
      for (bool parallel : {false, true}) {
        const std::vector<int> run =
            Counts(pool, chunks, [&](const auto& fn) { pool.Run(chunks, parallel, fn); });
        const std::vector<int> contiguous =
            Counts(pool, chunks, [&](const auto& fn) { pool.RunContiguous(chunks, parallel, fn); });
        EXPECT_EQ(run, std::vector<int>(chunks, 1)) << workers << " workers, " << chunks;
        EXPECT_EQ(contiguous, std::vector<int>(chunks, 1)) << workers << " workers, " << chunks;
      }
  }
}

// Without `parallel` the caller runs the chunks itself, in order.
TEST(WorkPool, RunsInOrderOnTheCallerWhenNotParallel) {
  WorkPool pool(1);
  std::vector<uint64_t> order;
  pool.RunContiguous(10, /*parallel=*/false, [&](uint64_t chunk, unsigned slot) {
    EXPECT_EQ(slot, 0u);
    order.push_back(chunk);
  });
  EXPECT_EQ(order, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

// A thread that stalls in its region leaves the rest of it to the others, taken from the back;
// each thread takes its own region front to back. Here the worker stalls in its first chunk
// until the caller has run every other one.
TEST(WorkPool, OthersTakeAStalledThreadsRegionFromTheBack) {
  WorkPool pool(1);
  constexpr uint64_t kChunks = 16, kHalf = kChunks / 2;
  std::mutex mutex;
  std::vector<uint64_t> caller, worker;
  std::atomic<uint64_t> caller_ran{0};
  pool.RunContiguous(kChunks, /*parallel=*/true, [&](uint64_t chunk, unsigned slot) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      (slot == 0 ? caller : worker).push_back(chunk);
    }
    if (slot == 0) {
      caller_ran.fetch_add(1);
      return;
    }
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (caller_ran.load() < kChunks - 1 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  // The worker ran at most the front chunk of one half (if it woke before the caller took all).
  ASSERT_LE(worker.size(), 1u);
  ASSERT_EQ(caller.size() + worker.size(), kChunks);
  // The caller ran one half front to back (the one it claimed first), then the other from the
  // back, down to the worker's chunk.
  const uint64_t home = caller[0], other = home == 0 ? kHalf : 0;
  ASSERT_TRUE(home == 0 || home == kHalf) << home;
  for (uint64_t i = 0; i < kHalf; ++i) EXPECT_EQ(caller[i], home + i);
  for (size_t i = kHalf; i < caller.size(); ++i) EXPECT_EQ(caller[i], other + kChunks - 1 - i);
  if (!worker.empty()) {
    EXPECT_EQ(worker[0], other);
  }
}

}  // namespace
}  // namespace opcts::cpu_simd
