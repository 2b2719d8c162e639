// memcpy split over every core: the other half of the copy limit. One thread's memcpy does not
// reach the memory bandwidth on most machines (one core has too few line fills in flight), and
// cpu-simd uses every core, so a baseline on one thread flatters it.
//
//   ParallelCopy copy(std::thread::hardware_concurrency());
//   copy.Copy(dst, src, bytes);   // each thread one contiguous share
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
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
  // Returns when every share is copied. Not reentrant: one caller at a time.
  void Copy(uint8_t* dst, const uint8_t* src, size_t bytes);

 private:
  void CopyShare(unsigned share);
  void Work(unsigned share);

  std::vector<std::thread> workers_;
  uint8_t* dst_ = nullptr;
  const uint8_t* src_ = nullptr;
  size_t bytes_ = 0;
  std::atomic<uint32_t> generation_{0};  // bumped per copy, and once more to stop
  std::atomic<uint32_t> pending_{0};     // worker shares not yet copied
  bool stopping_ = false;
};

}  // namespace opcts::bench
