// Highway-dispatched: foreach_target.h re-includes this file once per target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/in_place_rewrite.cc"
#include "bench/in_place_rewrite.h"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "bench/stream_copy.h"  // kPrefetchBytes

HWY_BEFORE_NAMESPACE();
namespace opcts::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <bool kPrefetch>
HWY_INLINE void RewriteT(uint8_t* data, size_t bytes, uint8_t key) {
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto k = hn::Set(d, key);
  size_t i = 0;
  for (; i + lanes <= bytes; i += lanes) {
    // Into L2 (prefetcht1); past the end it asks for memory never read, and a prefetch never
    // faults.
    if constexpr (kPrefetch)
      __builtin_prefetch(data + i + kPrefetchBytes, /*rw=*/0, /*locality=*/2);
    hn::StoreU(hn::Xor(hn::LoadU(d, data + i), k), d, data + i);
  }
  for (; i < bytes; ++i) data[i] ^= key;
}

void RewriteVectors(uint8_t* data, size_t bytes, uint8_t key) { RewriteT<false>(data, bytes, key); }

void PrefetchingRewriteVectors(uint8_t* data, size_t bytes, uint8_t key) {
  RewriteT<true>(data, bytes, key);
}

}  // namespace opcts::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace opcts::bench {

HWY_EXPORT(RewriteVectors);
HWY_EXPORT(PrefetchingRewriteVectors);

void RewriteInPlace(uint8_t* data, size_t bytes, uint8_t key) {
  HWY_DYNAMIC_DISPATCH(RewriteVectors)(data, bytes, key);
}

void PrefetchingRewriteInPlace(uint8_t* data, size_t bytes, uint8_t key) {
  HWY_DYNAMIC_DISPATCH(PrefetchingRewriteVectors)(data, bytes, key);
}

}  // namespace opcts::bench
#endif  // HWY_ONCE
