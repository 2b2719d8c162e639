// Copies split over every core: all but one of the copy limit's copies. One thread's memcpy does
// not reach the memory bandwidth on most machines (one core has too few line fills in flight),
// and cpu-simd uses every core, so a baseline on one thread flatters it.
//
//   ParallelCopy copy(std::thread::hardware_concurrency());
//   copy.Copy(dst, src, bytes);   // each thread memcpy of one contiguous share
//   copy.StreamCopy(dst, src, bytes);  // the same with streaming stores (stream_copy.h)
//   copy.PrefetchingStreamCopy(dst, src, bytes);  // and its input prefetched into L2
//   copy.CopyToRows(dst, src, rows, slice_bytes);  // slice i of src to row rows[i] of dst
//   copy.RewriteInPlace(data, bytes, key);  // bytes XORed with key in place
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace opcts::bench {

class ParallelCopy {
 public:
  // `threads` in all, the calling thread among them; the others wait between copies, so a copy
  // pays a wake-up, as an operator's worker pool does.
  explicit ParallelCopy(unsigned threads);
  ~ParallelCopy();
  ParallelCopy(const ParallelCopy&) = delete;
  ParallelCopy& operator=(const ParallelCopy&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Each returns when every share is copied. Not reentrant: one caller at a time.
  void Copy(uint8_t* dst, const uint8_t* src, size_t bytes);
  void StreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes);
  void PrefetchingStreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes);
  // The contiguous slices of `src` (rows.size() of slice_bytes each) to rows of `dst`, one memcpy
  // per slice, each thread a contiguous share of the slices: where an in-place scatter writes.
  void CopyToRows(uint8_t* dst, const uint8_t* src, const std::vector<uint32_t>& rows,
                  size_t slice_bytes);
  // Each thread's contiguous share XORed with `key` in place, through the caches
  // (in_place_rewrite.h).
  void RewriteInPlace(uint8_t* data, size_t bytes, uint8_t key);
  void PrefetchingRewriteInPlace(uint8_t* data, size_t bytes, uint8_t key);

 private:
  // Runs share(i) for i in [0, threads()), share 0 on the calling thread.
  void RunShares(const std::function<void(unsigned share)>& share);
  // each(offset, n) on each thread's contiguous share of [0, bytes).
  void ForEachShare(size_t bytes, const std::function<void(size_t offset, size_t n)>& each);
  // copy(dst, src, n) on each thread's contiguous share.
  void CopyShares(uint8_t* dst, const uint8_t* src, size_t bytes,
                  void (*copy)(uint8_t* dst, const uint8_t* src, size_t n));
  void Work(unsigned share);

  std::vector<std::thread> workers_;
  const std::function<void(unsigned)>* share_ = nullptr;
  std::atomic<uint32_t> generation_{0};  // bumped per copy, and once more to stop
  std::atomic<uint32_t> pending_{0};     // worker shares not yet copied
  bool stopping_ = false;
};

}  // namespace opcts::bench
