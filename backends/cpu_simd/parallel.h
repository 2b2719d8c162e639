// Runs fn(0) .. fn(threads - 1) concurrently, fn(0) on the calling thread.
//
// Every worker thread is created before any work starts: if creating one fails, none runs and
// the std::system_error propagates, so work split in interdependent pieces (a line whose carry
// passes from thread to thread) never waits for a thread that does not exist. fn must not throw.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace opcts::cpu_simd {

template <class F>
void RunParallel(unsigned threads, const F& fn) {
  if (threads <= 1) {
    fn(0u);
    return;
  }
  enum : int { kWait, kGo, kCancel };
  std::atomic<int> start{kWait};
  std::vector<std::thread> workers;
  auto release_and_join = [&](int how, auto&& before_join) {
    start.store(how, std::memory_order_release);
    start.notify_all();
    before_join();
    for (std::thread& w : workers) w.join();
  };
  try {
    workers.reserve(threads - 1);
    for (unsigned t = 1; t < threads; ++t)
      workers.emplace_back([&start, &fn, t] {
        start.wait(kWait, std::memory_order_acquire);
        if (start.load(std::memory_order_acquire) == kGo) fn(t);
      });
  } catch (...) {
    release_and_join(kCancel, [] {});
    throw;
  }
  release_and_join(kGo, [&] { fn(0u); });
}

}  // namespace opcts::cpu_simd
