// Highway-dispatched: foreach_target.h re-includes this file once per target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/stream_copy.cc"
#include "bench/stream_copy.h"

#include <algorithm>
#include <cstring>

#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace opcts::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <bool kPrefetch>
HWY_INLINE void StreamCopyT(uint8_t* dst, const uint8_t* src, size_t bytes) {
#if HWY_TARGET == HWY_SCALAR
  std::memcpy(dst, src, bytes);  // no streaming store
#else
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  // Streaming stores take aligned vectors: the bytes before the first aligned one go by memcpy.
  const size_t head = std::min(bytes, (lanes - reinterpret_cast<uintptr_t>(dst) % lanes) % lanes);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + lanes <= bytes; i += lanes) {
    // Into L2 (prefetcht1); past the end it asks for memory never read, and a prefetch never
    // faults.
    if constexpr (kPrefetch) __builtin_prefetch(src + i + kPrefetchBytes, /*rw=*/0, /*locality=*/2);
    hn::Stream(hn::LoadU(d, src + i), d, dst + i);
  }
  std::memcpy(dst + i, src + i, bytes - i);
  hwy::FlushStream();
#endif
}

void StreamCopyVectors(uint8_t* dst, const uint8_t* src, size_t bytes) {
  StreamCopyT<false>(dst, src, bytes);
}

void PrefetchingStreamCopyVectors(uint8_t* dst, const uint8_t* src, size_t bytes) {
  StreamCopyT<true>(dst, src, bytes);
}

}  // namespace opcts::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace opcts::bench {

HWY_EXPORT(StreamCopyVectors);
HWY_EXPORT(PrefetchingStreamCopyVectors);

void StreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  HWY_DYNAMIC_DISPATCH(StreamCopyVectors)(dst, src, bytes);
}

void PrefetchingStreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  HWY_DYNAMIC_DISPATCH(PrefetchingStreamCopyVectors)(dst, src, bytes);
}

}  // namespace opcts::bench
#endif  // HWY_ONCE
