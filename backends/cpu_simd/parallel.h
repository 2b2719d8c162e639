// A pool of worker threads owned by one backend instance, started by create() so that a thread
// that cannot start is an error there, never a hang later.
//
//   WorkPool pool(1);  // the calling thread plus one worker
//   pool.Run(chunks, /*parallel=*/true, [&](uint64_t chunk, unsigned slot) { ... });
//   pool.RunContiguous(chunks, /*parallel=*/true, [&](uint64_t chunk, unsigned slot) { ... });
//
// Run hands out chunks in increasing order to the calling thread and to whichever workers wake
// in time; a worker that wakes after every chunk is claimed does nothing. So the caller never
// waits for a thread that is not running (on a busy machine it does the work itself), and a
// chunk may wait for an earlier one (a carry) only because that one is already being worked on.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

namespace opcts::cpu_simd {

class WorkPool {
 public:
  // Throws std::system_error when a worker cannot be started.
  explicit WorkPool(unsigned workers);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // The calling thread plus the workers.
  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // fn(chunk, slot) for every chunk in [0, chunks); slot < threads() tells apart the threads
  // running at once (per-thread scratch). fn must not throw. Without `parallel`, or while
  // another caller's Run is in progress, the calling thread runs every chunk itself.
  template <class F>
  void Run(uint64_t chunks, bool parallel, const F& fn) {
    const Invoke invoke = [](const void* f, uint64_t chunk, unsigned slot) {
      (*static_cast<const F*>(f))(chunk, slot);
    };
    if (!parallel || !RunShared(chunks, invoke, &fn))
      for (uint64_t chunk = 0; chunk < chunks; ++chunk) fn(chunk, 0);
  }

  // As Run, but thread k first takes the k-th contiguous region of the chunks, front to back,
  // and then chunks from the back of the other regions (a thread that wakes late leaves its
  // region to the others, as with Run). So while the threads all run, each one's memory is one
  // stream; from Run's shared counter each chunk starts a new one. On a Zen 5 VM at its faster
  // memory speed a copy in 512 KiB chunks so claimed ran 0.92x as fast as one in two halves,
  // and inner, middle and strided lines scanned 1.05-1.10x faster this way (1.00-1.02x at its
  // slower speed): bench/results/contiguous-regions-zen5-ab.md.
  template <class F>
  void RunContiguous(uint64_t chunks, bool parallel, const F& fn) {
    const unsigned regions = threads();
    if (!parallel || regions == 1 || chunks < 2 || chunks > std::numeric_limits<uint32_t>::max())
      return Run(chunks, parallel, fn);
    // Each region's [front, back) in one word, front in the low half: taken from either end.
    std::vector<std::atomic<uint64_t>> bounds(regions);
    for (unsigned k = 0; k < regions; ++k)
      bounds[k].store(chunks * k / regions | (chunks * (k + 1) / regions) << 32,
                      std::memory_order_relaxed);
    Run(regions, true, [&](uint64_t home, unsigned slot) {
      for (uint64_t chunk; Take(bounds[home], /*from_back=*/false, &chunk);) fn(chunk, slot);
      for (unsigned k = 1; k < regions; ++k)
        for (uint64_t chunk; Take(bounds[(home + k) % regions], /*from_back=*/true, &chunk);)
          fn(chunk, slot);
    });
  }

 private:
  using Invoke = void (*)(const void* fn, uint64_t chunk, unsigned slot);
  // Posts the job and works on it; false (nothing run) when there is no worker or the pool is
  // busy with another caller's job.
  bool RunShared(uint64_t chunks, Invoke invoke, const void* fn);
  // Claims and runs chunks of the current job until none is left.
  void Work(unsigned slot);
  void WorkerLoop(unsigned slot);
  // The chunk at the front (or back) of a region's [front, back), removed; false when empty.
  static bool Take(std::atomic<uint64_t>& bounds, bool from_back, uint64_t* chunk);
  // Wakes the workers to exit and joins them.
  void Stop();

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one job at a time
  // The job's sequence number (upper bits) and next chunk (lower kChunkBits) in one word: a
  // worker that wakes late claims with compare-and-swap, which fails once its job has ended.
  static constexpr unsigned kChunkBits = 40;
  static constexpr uint64_t kChunkMask = (uint64_t{1} << kChunkBits) - 1;
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint32_t> posted_{0};    // bumped to post a job (or to stop); workers wait on it
  std::atomic<uint64_t> done_{0};      // chunks of the current job finished
  std::atomic<uint32_t> finished_{0};  // bumped when done_ reaches the job's chunk count
  // The current job, written before claim_ publishes it. Atomic: a late worker may read them
  // while the next job is being posted (its claim then fails).
  std::atomic<uint64_t> chunks_{0};
  std::atomic<Invoke> invoke_{nullptr};
  std::atomic<const void*> fn_{nullptr};
  std::atomic<bool> stop_{false};
};

}  // namespace opcts::cpu_simd
