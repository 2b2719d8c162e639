#include "cpu_simd/parallel.h"

namespace opcts::cpu_simd {

WorkPool::WorkPool(unsigned workers) {
  try {
    workers_.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) workers_.emplace_back([this, w] { WorkerLoop(w + 1); });
  } catch (...) {
    Stop();  // the ones started
    throw;
  }
}

WorkPool::~WorkPool() { Stop(); }

void WorkPool::Stop() {
  stop_.store(true, std::memory_order_release);
  posted_.fetch_add(1, std::memory_order_release);
  posted_.notify_all();
  for (std::thread& w : workers_) w.join();
  workers_.clear();
}

void WorkPool::WorkerLoop(unsigned slot) {
  uint32_t seen = 0;
  for (;;) {
    posted_.wait(seen, std::memory_order_acquire);
    seen = posted_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    Work(slot);
  }
}

void WorkPool::Work(unsigned slot) {
  uint64_t claim = claim_.load(std::memory_order_acquire);
  for (;;) {
    const uint64_t chunks = chunks_.load(std::memory_order_acquire);  // see RunShared
    const uint64_t chunk = claim & kChunkMask;
    if (chunk >= chunks) return;
    // Success means the job is still running (this chunk is not done), so invoke_ and fn_
    // are still its own.
    if (!claim_.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
      continue;
    invoke_.load(std::memory_order_relaxed)(fn_.load(std::memory_order_relaxed), chunk, slot);
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks) {
      finished_.fetch_add(1, std::memory_order_release);
      finished_.notify_all();
    }
    claim = claim_.load(std::memory_order_acquire);
  }
}

bool WorkPool::RunShared(uint64_t chunks, Invoke invoke, const void* fn) {
  if (workers_.empty() || chunks < 2) return false;
  std::unique_lock<std::mutex> lock(run_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  // First close the last job's claim word (its chunk field past any count): a late worker that
  // read the last job's exhausted claim and then this job's larger chunk count would otherwise
  // claim with a compare-and-swap that still succeeds, and run a chunk of this job twice (seen
  // when a job followed RunContiguous's, whose threads all finish together). The release store
  // of chunks_ orders the close before it for a worker that reads the new count.
  const uint64_t job = (claim_.load(std::memory_order_relaxed) >> kChunkBits) + 1;
  claim_.store(job << kChunkBits | kChunkMask, std::memory_order_relaxed);
  chunks_.store(chunks, std::memory_order_release);
  invoke_.store(invoke, std::memory_order_relaxed);
  fn_.store(fn, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  claim_.store(job << kChunkBits, std::memory_order_release);  // publishes the fields above
  posted_.fetch_add(1, std::memory_order_release);
  posted_.notify_all();
  Work(0);
  // Every chunk is claimed; wait for those still running elsewhere. (finished_ is reloaded: the
  // worker that ended the previous job may bump it late.)
  for (;;) {
    const uint32_t finished = finished_.load(std::memory_order_acquire);
    if (done_.load(std::memory_order_acquire) >= chunks) return true;
    finished_.wait(finished, std::memory_order_acquire);
  }
}

bool WorkPool::Take(std::atomic<uint64_t>& bounds, bool from_back, uint64_t* chunk) {
  uint64_t b = bounds.load(std::memory_order_relaxed);
  uint64_t front = 0, back = 0;
  do {
    front = b & 0xFFFFFFFF;
    back = b >> 32;
    if (front >= back) return false;
  } while (!bounds.compare_exchange_weak(b, from_back ? b - (uint64_t{1} << 32) : b + 1,
                                         std::memory_order_relaxed));
  *chunk = from_back ? back - 1 : front;
  return true;
}

}  // namespace opcts::cpu_simd
