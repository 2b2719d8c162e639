#include "bench/cache_flush.h"

#include <atomic>

#include <hwy/base.h>
#include <hwy/cache_control.h>

namespace opcts::bench {

bool FlushFromCaches(const void* data, uint64_t bytes) {
  // Highway's flush is clflush on x86 and nothing elsewhere.
  if (!HWY_ARCH_X86) return false;
  constexpr uintptr_t kLineBytes = 64;
  const char* const first = static_cast<const char*>(data);
  const char* const end = first + bytes;
  for (const char* line = first - reinterpret_cast<uintptr_t>(first) % kLineBytes; line < end;
       line += kLineBytes)
    hwy::FlushCacheline(line);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // an mfence: the flushes complete first
  return true;
}

}  // namespace opcts::bench
