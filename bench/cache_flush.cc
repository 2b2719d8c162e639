#include "bench/cache_flush.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace opcts::bench {

#if defined(__x86_64__) || defined(__i386__)
namespace {

constexpr uintptr_t kLineBytes = 64;

bool HasClflushopt() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & bit_CLFLUSHOPT) != 0;
}

// clflushopt flushes lines in parallel where clflush orders each; a store fence orders them
// before whatever follows.
__attribute__((target("clflushopt"))) void FlushOptimized(const char* line, const char* end) {
  // It changes no byte; only the intrinsic's parameter is not const.
  for (; line < end; line += kLineBytes) _mm_clflushopt(const_cast<char*>(line));
  _mm_sfence();
}

void FlushOrdered(const char* line, const char* end) {
  for (; line < end; line += kLineBytes) _mm_clflush(line);
  _mm_mfence();
}

}  // namespace
#endif

bool FlushFromCaches(const void* data, uint64_t bytes) {
  const char* const first = static_cast<const char*>(data);
  const char* const end = first + bytes;
#if defined(__x86_64__) || defined(__i386__)
  const char* const begin = first - reinterpret_cast<uintptr_t>(first) % kLineBytes;
  static const bool optimized = HasClflushopt();
  if (optimized)
    FlushOptimized(begin, end);
  else
    FlushOrdered(begin, end);
  return true;
#elif defined(__aarch64__)
  // The smallest data cache line, from CTR_EL0's DminLine (log2 of its 4-byte words); clean and
  // invalidate to the point of coherency: out of every cache level.
  uint64_t ctr = 0;
  asm volatile("mrs %0, ctr_el0" : "=r"(ctr));
  const uintptr_t line_bytes = uintptr_t{4} << ((ctr >> 16) & 0xf);
  for (const char* line = first - reinterpret_cast<uintptr_t>(first) % line_bytes; line < end;
       line += line_bytes)
    asm volatile("dc civac, %0" : : "r"(line) : "memory");
  asm volatile("dsb ish" : : : "memory");
  return true;
#else
  (void)end;
  return false;
#endif
}

}  // namespace opcts::bench
