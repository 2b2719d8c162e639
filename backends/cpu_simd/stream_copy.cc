// Highway-dispatched: foreach_target.h re-includes this file once per target, as in
// hwy/examples/skeleton.cc.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu_simd/stream_copy.cc"
#include "cpu_simd/stream_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "cpu_simd/scan_kernels.h"  // kPrefetchBytes, IsAmdZen5

HWY_BEFORE_NAMESPACE();
namespace opcts::cpu_simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void StreamCopyTarget(unsigned char* dst, const unsigned char* src, size_t bytes, bool prefetch) {
#if HWY_TARGET == HWY_SCALAR
  (void)prefetch;
  std::memcpy(dst, src, bytes);  // no streaming store
#else
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  const size_t head = std::min(bytes, (lanes - reinterpret_cast<uintptr_t>(dst) % lanes) % lanes);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + lanes <= bytes; i += lanes) {
    // Past the end of src that is memory the copy never reads, and a prefetch never faults.
    if (prefetch) __builtin_prefetch(src + i + kPrefetchBytes, /*rw=*/0, /*locality=*/2);
    hn::Stream(hn::LoadU(d, src + i), d, dst + i);
  }
  std::memcpy(dst + i, src + i, bytes - i);
#endif
}

}  // namespace opcts::cpu_simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "cpu_simd/dispatch_index.h"

namespace opcts::cpu_simd {

HWY_EXPORT(StreamCopyTarget);

void StreamCopy(SimdTarget target, unsigned char* dst, const unsigned char* src, size_t bytes,
                bool prefetch_input) {
  const bool prefetch = prefetch_input && !IsAmdZen5();
  HWY_DISPATCH_TABLE(StreamCopyTarget)[DispatchIndex(target)](dst, src, bytes, prefetch);
}

}  // namespace opcts::cpu_simd
#endif  // HWY_ONCE
