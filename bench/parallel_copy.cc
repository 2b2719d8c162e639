#include "bench/parallel_copy.h"

#include <algorithm>
#include <cstring>

#include "bench/in_place_rewrite.h"
#include "bench/stream_copy.h"

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

void ParallelCopy::Work(unsigned share) {
  uint32_t seen = 0;
  while (true) {
    generation_.wait(seen, std::memory_order_acquire);
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_) return;
    (*share_)(share);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

void ParallelCopy::RunShares(const std::function<void(unsigned share)>& share) {
  share_ = &share;
  pending_.store(static_cast<uint32_t>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  share(0);
  for (uint32_t left; (left = pending_.load(std::memory_order_acquire)) != 0;)
    pending_.wait(left, std::memory_order_acquire);
}

// Share boundaries on 64-byte lines, so no two threads write one cache line.
void ParallelCopy::ForEachShare(size_t bytes,
                                const std::function<void(size_t offset, size_t n)>& each) {
  const size_t lines = (bytes + 63) / 64, n = threads();
  RunShares([&](unsigned share) {
    const size_t begin = std::min(bytes, lines * share / n * 64);
    const size_t end = std::min(bytes, lines * (share + 1) / n * 64);
    each(begin, end - begin);
  });
}

void ParallelCopy::CopyShares(uint8_t* dst, const uint8_t* src, size_t bytes,
                              void (*copy)(uint8_t* dst, const uint8_t* src, size_t n)) {
  ForEachShare(bytes, [&](size_t offset, size_t n) { copy(dst + offset, src + offset, n); });
}

void ParallelCopy::Copy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  CopyShares(dst, src, bytes,
             [](uint8_t* to, const uint8_t* from, size_t n) { std::memcpy(to, from, n); });
}

void ParallelCopy::StreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  CopyShares(dst, src, bytes, bench::StreamCopy);
}

void ParallelCopy::PrefetchingStreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  CopyShares(dst, src, bytes, bench::PrefetchingStreamCopy);
}

void ParallelCopy::CopyToRows(uint8_t* dst, const uint8_t* src, const std::vector<uint32_t>& rows,
                              size_t slice_bytes) {
  const size_t n = threads();
  RunShares([&](unsigned share) {
    for (size_t i = rows.size() * share / n; i < rows.size() * (share + 1) / n; ++i)
      std::memcpy(dst + rows[i] * slice_bytes, src + i * slice_bytes, slice_bytes);
  });
}

void ParallelCopy::RewriteInPlace(uint8_t* data, size_t bytes, uint8_t key) {
  ForEachShare(bytes,
               [&](size_t offset, size_t n) { bench::RewriteInPlace(data + offset, n, key); });
}

void ParallelCopy::PrefetchingRewriteInPlace(uint8_t* data, size_t bytes, uint8_t key) {
  ForEachShare(bytes, [&](size_t offset, size_t n) {
    bench::PrefetchingRewriteInPlace(data + offset, n, key);
  });
}

}  // namespace opcts::bench
