#include "bench/parallel_copy.h"

#include <algorithm>
#include <cstring>

namespace opcts::bench {

ParallelCopy::ParallelCopy(unsigned threads) {
  for (unsigned share = 1; share < std::max(threads, 1u); ++share)
    workers_.emplace_back([this, share] { Work(share); });
}

ParallelCopy::~ParallelCopy() {
  stopping_ = true;
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Share boundaries on 64-byte lines, so no two threads write one cache line.
void ParallelCopy::CopyShare(unsigned share) {
  const size_t lines = (bytes_ + 63) / 64, n = threads();
  const size_t begin = std::min(bytes_, lines * share / n * 64);
  const size_t end = std::min(bytes_, lines * (share + 1) / n * 64);
  std::memcpy(dst_ + begin, src_ + begin, end - begin);
}

void ParallelCopy::Work(unsigned share) {
  uint32_t seen = 0;
  while (true) {
    generation_.wait(seen, std::memory_order_acquire);
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_) return;
    CopyShare(share);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

void ParallelCopy::Copy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  dst_ = dst;
  src_ = src;
  bytes_ = bytes;
  pending_.store(static_cast<uint32_t>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  CopyShare(0);
  for (uint32_t left; (left = pending_.load(std::memory_order_acquire)) != 0;)
    pending_.wait(left, std::memory_order_acquire);
}

}  // namespace opcts::bench
