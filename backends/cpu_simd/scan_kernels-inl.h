// Per-target scan kernels (Highway). scan_kernels.cc re-includes this file once per target via
// hwy/foreach_target.h, as in hwy/examples/skeleton; call them through scan_kernels.h.

// Per-target include guard: toggled by foreach_target.h on each re-inclusion.
#if defined(OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_
#undef OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_
#else
#define OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_
#endif

#include <algorithm>
#include <cstdint>
#include <utility>

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "cpu_simd/scan_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace opcts::cpu_simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- conversions between storage and compute lanes -----------------------------------------
// Own float16/bfloat16 conversions: Highway 1.0.3's emulated float16 ones (SSE4, SCALAR) drop
// rounding and infinities, and its bfloat16 DemoteTo truncates. These round to nearest even,
// keep subnormals, infinities and NaN, identically on every target. On AVX2 and AVX3 float16
// goes through F16C instead (vcvtph2ps / vcvtps2ph, round to nearest even), 10x faster.
#undef OPCTS_CPU_SIMD_F16C
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
#define OPCTS_CPU_SIMD_F16C 1
#else
#define OPCTS_CPU_SIMD_F16C 0
#endif

// binary16 bits (one per 32-bit lane) -> float, exact.
template <class DF>
HWY_INLINE hn::Vec<DF> HalfBitsToFloat(DF df, hn::Vec<hn::RebindToUnsigned<DF>> h) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)));
  const auto magnitude = hn::And(h, hn::Set(du, 0x7FFFu));
  const auto magnitude_i = hn::BitCast(di, magnitude);
  // Normal: move the fields up and rebias the exponent (15 -> 127). Infinity and NaN need an
  // all-ones exponent, which is the same rebias applied twice.
  const auto rebias = hn::Set(du, 0x38000000u);
  auto normal = hn::ShiftLeft<13>(magnitude) + rebias;
  normal = hn::IfThenElse(hn::RebindMask(du, magnitude_i > hn::Set(di, 0x7BFF)), normal + rebias,
                          normal);
  // Subnormal or zero: the integer mantissa times 2^-24, exact in float.
  const auto subnormal =
      hn::BitCast(du, hn::ConvertTo(df, magnitude_i) * hn::Set(df, 5.9604644775390625e-8f));
  const auto bits =
      hn::IfThenElse(hn::RebindMask(du, magnitude_i < hn::Set(di, 0x400)), subnormal, normal);
  return hn::BitCast(df, hn::Or(bits, sign));
}

// float -> binary16 bits (one per 32-bit lane), round to nearest even.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> FloatToHalfBits(DF df, hn::Vec<DF> v) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto bits = hn::BitCast(du, v);
  const auto sign = hn::And(bits, hn::Set(du, 0x80000000u));
  const auto magnitude = hn::Xor(bits, sign);
  const auto magnitude_i = hn::BitCast(di, magnitude);
  // |v| >= 65536 or inf: infinity; NaN: a quiet NaN. (65520 <= |v| < 65536 overflows to infinity
  // through the normal path's carry.)
  const auto huge = hn::IfThenElse(hn::RebindMask(du, magnitude_i > hn::Set(di, 0x7F800000)),
                                   hn::Set(du, 0x7E00u), hn::Set(du, 0x7C00u));
  // |v| < 2^-14: adding 0.5f puts the float16 subnormal quantum (2^-24) at the float's last
  // mantissa bit, so the FPU rounds to nearest even for us.
  const auto subnormal =
      hn::BitCast(du, hn::BitCast(df, magnitude) + hn::Set(df, 0.5f)) - hn::Set(du, 0x3F000000u);
  // Normal: rebias (127 -> 15), add 0xFFF plus the kept lsb (ties to even), drop 13 bits.
  const auto lsb = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(du, 1u));
  const auto normal = hn::ShiftRight<13>(magnitude + hn::Set(du, 0xC8000FFFu) + lsb);
  auto h =
      hn::IfThenElse(hn::RebindMask(du, magnitude_i < hn::Set(di, 0x38800000)), subnormal, normal);
  h = hn::IfThenElse(hn::RebindMask(du, magnitude_i > hn::Set(di, 0x477FFFFF)), huge, h);
  return hn::Or(h, hn::ShiftRight<16>(sign));
}

// float -> bfloat16 bits (one per 32-bit lane), round to nearest even; NaN stays a quiet NaN.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> FloatToBFloat16Bits(DF /*df*/, hn::Vec<DF> v) {
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  const auto upper = hn::ShiftRight<16>(bits);
  const auto rounded =
      hn::ShiftRight<16>(bits + hn::Set(du, 0x7FFFu) + hn::And(upper, hn::Set(du, 1u)));
  return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), hn::Or(upper, hn::Set(du, 0x40u)),
                        rounded);
}

template <ElemKind K>
using StorageT = typename KindTraits<K>::Storage;
template <ElemKind K>
using ComputeT = typename KindTraits<K>::Compute;

// Loads Lanes(d) elements of kind K as compute lanes.
template <ElemKind K, class D>
HWY_INLINE hn::Vec<D> LoadElems(D d, const StorageT<K>* p) {
  if constexpr (std::is_same_v<StorageT<K>, ComputeT<K>>) {
    return hn::LoadU(d, p);
  } else {
    if constexpr (K == ElemKind::kF16 && OPCTS_CPU_SIMD_F16C) {
      const hn::Rebind<hwy::float16_t, D> dh;
      return hn::PromoteTo(d, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p)));
    }
    const hn::Rebind<StorageT<K>, D> ds;
    const auto raw = hn::LoadU(ds, p);
    if constexpr (K == ElemKind::kU8) {
      return hn::PromoteTo(d, raw);
    } else {
      const auto wide = hn::PromoteTo(hn::RebindToUnsigned<D>(), raw);
      if constexpr (K == ElemKind::kF16)
        return HalfBitsToFloat(d, wide);
      else
        return hn::BitCast(d, hn::ShiftLeft<16>(wide));  // bfloat16: the top half of a float
    }
  }
}

// Whether Lanes(d) elements of kind K stored at p are aligned to their size: what a streaming
// store needs (StoreElems).
template <ElemKind K, class D>
HWY_INLINE bool AlignedVectorAt(D d, const StorageT<K>* p) {
  return reinterpret_cast<uintptr_t>(p) % (hn::Lanes(d) * sizeof(StorageT<K>)) == 0;
}

// Stores a vector; with `stream` (an output too large to stay in cache, and p aligned to the
// vector: AlignedVectorAt) a whole vector of at least 16 bytes goes around the caches, saving
// the read-for-ownership of its line. The line scans check the alignment once per line, not
// per store: float16 lines on AVX2, bound by their loop's instructions there, ran 1.07x faster
// on one Zen 5 thread (bench/results/aligned-stream-ab.md).
template <class D>
HWY_INLINE void Put(D d, hn::Vec<D> v, hn::TFromD<D>* p, bool stream) {
#if HWY_TARGET == HWY_SCALAR
  (void)stream;  // no streaming store
#else
  constexpr size_t kBytes = hn::MaxLanes(D()) * sizeof(hn::TFromD<D>);
  if constexpr (kBytes >= 16) {
    if (stream && hn::Lanes(d) * sizeof(*p) == kBytes) return hn::Stream(v, d, p);
  }
#endif
  hn::StoreU(v, d, p);
}

// Stores compute lanes as Lanes(d) elements of kind K, rounding or truncating once; `stream`
// as for Put.
template <ElemKind K, class D>
HWY_INLINE void StoreElems(D d, hn::Vec<D> v, StorageT<K>* p, bool stream) {
  if constexpr (std::is_same_v<StorageT<K>, ComputeT<K>>) {
    Put(d, v, p, stream);
  } else if constexpr (K == ElemKind::kF16 && OPCTS_CPU_SIMD_F16C) {
    const hn::Rebind<hwy::float16_t, D> dh;
    Put(dh, hn::DemoteTo(dh, v), reinterpret_cast<hwy::float16_t*>(p), stream);
  } else {
    const hn::Rebind<StorageT<K>, D> ds;
    if constexpr (K == ElemKind::kU8) {
      Put(ds, hn::TruncateTo(ds, v), p, stream);
    } else {
      const auto bits = K == ElemKind::kF16 ? FloatToHalfBits(d, v) : FloatToBFloat16Bits(d, v);
      Put(ds, hn::TruncateTo(ds, bits), p, stream);
    }
  }
}

// ---- arithmetic ------------------------------------------------------------------------------

template <ScanOp kOp, class V>
HWY_INLINE V Apply(V a, V b) {
  if constexpr (kOp == ScanOp::kSum)
    return a + b;
  else
    return a * b;
}

// a op b off the carry chain: a float sum as a * 1 + b, the same rounding (a * 1 is exact), on
// the multiply-add pipes rather than those Zen 5's adds appear to share with its shuffles and
// float16 conversions (ShiftedLoadWindowVectors).
template <ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> ApplyOffChain(D d, hn::Vec<D> a, hn::Vec<D> b) {
  if constexpr (kOp == ScanOp::kSum && std::is_floating_point_v<hn::TFromD<D>>)
    return hn::MulAdd(a, hn::Set(d, 1), b);
  else
    return Apply<kOp>(a, b);
}

template <ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> IdentityVec(D d) {
  return hn::Set(d, Identity<kOp, hn::TFromD<D>>());
}

// Lanes per 128-bit block: Highway's lane shifts and broadcasts act within blocks. Outside
// AVX-512 the line scan uses vectors of one or two blocks.
template <class D>
constexpr size_t BlockLanes() {
  return HWY_MIN(hn::MaxLanes(D()), 16 / sizeof(hn::TFromD<D>));
}
template <class D>
constexpr bool TwoBlocks() {
  return hn::MaxLanes(D()) > BlockLanes<D>();
}

// On AVX-512 the line scan of 32- and 64-bit lanes uses whole 512-bit vectors, shifted across
// the whole vector (valignd / valignq): one shuffle per step and no block carries. The
// in-register scan is shuffle-bound: on Zen 4, float16 lines from memory ran 1.3-1.4x faster than
// with two-block vectors, cache-resident float32 ones 1.25-1.35x (same-run A/B,
// bench/results/whole-vector-ab.md).
#undef OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#define OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN 1
#else
#define OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN 0
#endif
template <class C>
constexpr bool kWholeVectorScan = OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN && sizeof(C) >= 4;

// The line scan's vectors: whole 512-bit ones (above), else one or two blocks.
template <class C>
using LineTag =
    std::conditional_t<kWholeVectorScan<C>, hn::ScalableTag<C>, hn::CappedTag<C, 32 / sizeof(C)>>;
// Vectors the window recurrence (WindowScan) scans: whole 512-bit ones, and on AVX-512 256-bit
// ones of 4-byte lanes (valignd ymm: Zen 4's float16 lines, HalfWidthFloat16Lines; line tails).
template <class D>
constexpr bool IsWindowVector() {
  constexpr size_t kBytes = hn::MaxLanes(D()) * sizeof(hn::TFromD<D>);
  return kWholeVectorScan<hn::TFromD<D>> &&
         (kBytes == 64 || (kBytes == 32 && sizeof(hn::TFromD<D>) == 4));
}

#if OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN
// v moved kLanes lanes along the scan direction across the whole vector, the last kLanes lanes
// of `fill` in scan order entering (fill: the vector before v in scan order, or a constant).
// alignr(hi, lo, k) is lanes k.. of the concatenation hi:lo.
template <size_t kLanes, bool kReverse, class D>
HWY_INLINE hn::Vec<D> SlideIn(D d, hn::Vec<D> v, hn::Vec<D> fill) {
  const hn::RebindToUnsigned<D> du;
  using TU = hn::TFromD<decltype(du)>;
  const auto a = hn::BitCast(du, v).raw, f = hn::BitCast(du, fill).raw;
  constexpr int kN = static_cast<int>(hn::MaxLanes(D()));
  constexpr int kShift = kReverse ? static_cast<int>(kLanes) : kN - static_cast<int>(kLanes);
  if constexpr (kN * sizeof(TU) == 32) {  // 4-byte lanes (IsWindowVector)
    static_assert(sizeof(TU) == 4);
    const __m256i moved =
        kReverse ? _mm256_alignr_epi32(f, a, kShift) : _mm256_alignr_epi32(a, f, kShift);
    return hn::BitCast(d, hn::Vec256<TU>{moved});
  } else {
    __m512i moved;
    if constexpr (sizeof(TU) == 4)
      moved = kReverse ? _mm512_alignr_epi32(f, a, kShift) : _mm512_alignr_epi32(a, f, kShift);
    else
      moved = kReverse ? _mm512_alignr_epi64(f, a, kShift) : _mm512_alignr_epi64(a, f, kShift);
    return hn::BitCast(d, hn::Vec512<TU>{moved});
  }
}
#endif

// v moved kLanes lanes along the scan direction (towards higher lanes, or lower when kReverse)
// within each block, the identity filling the vacated lanes: one byte-align shuffle with an
// identity vector (palignr), where a shift and a blend took two ops. AVX2 line scans 1.05-1.22x
// in cache, 1.10-1.17x from memory (same-run A/B, Zen 5, bench/results/palignr-ab.md).
template <size_t kLanes, bool kReverse, ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> ShiftInIdentity(D d, hn::Vec<D> v) {
#if HWY_TARGET == HWY_SCALAR
  // One lane and no lane-shift ops: everything shifts out.
  static_assert(hn::MaxLanes(D()) == 1 && kLanes >= 1);
  (void)v;
  return IdentityVec<kOp>(d);
#else
  constexpr size_t kBlock = BlockLanes<D>();
  if constexpr (kLanes >= kBlock)
    return IdentityVec<kOp>(d);
  else if constexpr (kReverse)
    return hn::CombineShiftRightLanes<kLanes>(d, IdentityVec<kOp>(d), v);
  else
    return hn::CombineShiftRightLanes<kBlock - kLanes>(d, v, IdentityVec<kOp>(d));
#endif
}

// In-register inclusive scan within each block, Hillis-Steele shift-and-combine.
template <bool kReverse, ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> BlockPrefix(D d, hn::Vec<D> v) {
  constexpr size_t kBlock = BlockLanes<D>();
  if constexpr (kBlock >= 2) v = Apply<kOp>(v, ShiftInIdentity<1, kReverse, kOp>(d, v));
  if constexpr (kBlock >= 4) v = Apply<kOp>(v, ShiftInIdentity<2, kReverse, kOp>(d, v));
  if constexpr (kBlock >= 8) v = Apply<kOp>(v, ShiftInIdentity<4, kReverse, kOp>(d, v));
  if constexpr (kBlock >= 16) v = Apply<kOp>(v, ShiftInIdentity<8, kReverse, kOp>(d, v));
  return v;
}

// Each block's total (its last lane in scan order) in every lane of the block.
template <bool kReverse, class D>
HWY_INLINE hn::Vec<D> BlockTotals(D /*d*/, hn::Vec<D> prefix) {
  return hn::Broadcast < kReverse ? 0 : static_cast<int>(BlockLanes<D>()) - 1 > (prefix);
}

// Float sums write +0.0, the empty sum, at an exclusive scan's head, while their running value
// starts at the identity -0.0 so that a prefix of -0.0 alone sums to -0.0.
template <ElemKind K, ScanOp kOp>
constexpr bool kHasEmptySumHead = (kOp == ScanOp::kSum) && std::is_floating_point_v<ComputeT<K>>;

// The head row of an exclusive float sum: +0.0 stored, the running value combined with the row.
template <ElemKind K, class D>
HWY_INLINE void EmptySumRowStep(D d, bool stream, const StorageT<K>* in, StorageT<K>* out, size_t x,
                                ComputeT<K>* running) {
  const auto v = LoadElems<K>(d, in + x);  // before the store: in place, out is in
  StoreElems<K>(d, hn::Zero(d), out + x, stream && AlignedVectorAt<K>(d, out + x));
  hn::StoreU(Apply<ScanOp::kSum>(hn::LoadU(d, running), v), d, running);
}

// Prefetches the cache line `bytes` from p. Past either end of the input that is memory the
// scan never reads, and a prefetch never faults.
template <class S>
HWY_INLINE void PrefetchAhead(const S* p, ptrdiff_t bytes) {
  hwy::Prefetch(reinterpret_cast<const unsigned char*>(p) + bytes);
}

// The line scans and the rows of 4- and 8-byte elements prefetch their input from memory into L2
// only (prefetcht1), where the load a prefetch distance later finds it, unless into_l1. On Intel
// Emerald Rapids, against L1, that gained 1d lines about 0.03 of the copy limit net of the
// control's drift and rows along axis 0 0.11-0.29 in most runs; float16 rows lost on AVX2 and
// stay with L1 (bench/results/line-prefetch-l2-ab.md, row-prefetch-l2-ab.md). On AMD Zen 5 the
// lines and the row groups prefetch into L1: inner and strided lines ran 1.02-1.04x as fast at the
// memory's slower speed and 0.99-1.05x at its faster (AVX2 float16 0.98-0.99x), AVX2 rows along
// axis 0 1.03-1.06x and 1.06-1.12x, AVX3 ones 0.98-1.03x. NarrowRows keeps L2: with L1 its rows
// ran 1.03-1.05x, but any change to it (inlined into ScanRowsT) moved the registers of the row
// loop beside it and cost AVX3 float32 rows along axis 0 2-6%
// (bench/results/prefetch-level-zen5-ab.md).
template <class S>
HWY_INLINE void PrefetchInputAhead(const S* p, ptrdiff_t bytes, bool into_l1) {
  if (into_l1)
    PrefetchAhead(p, bytes);
  else
    __builtin_prefetch(reinterpret_cast<const unsigned char*>(p) + bytes, /*rw=*/0, /*locality=*/2);
}

// ---- row recurrence (scan along a non-innermost axis) ----------------------------------------

// Rows are combined kRowGroup at a time, so the running row is loaded and stored once per group
// rather than once per row. Each row of a group prefetches the row at least kPrefetchBytes (and
// a group) ahead at its column: along axis 0 a thread's share of a row can be under a page, so
// every row starts a new page, where the hardware prefetchers start over. On Zen 5 this beat one
// row at a time (with the same prefetch) at every width: bench/results/row-group-ab.md.
constexpr size_t kRowGroup = 4;

// Vectors per row in a step of a group: at least a whole cache line of each row, stored row by
// row, and at least two. One vector at a time, a row's streaming stores are half lines on AVX2
// and the group's 4 rows fill their lines together; on Intel Emerald Rapids this took rows on
// AVX2 from 0.61-0.73x of the copy limit to 0.71-0.95x, float16 on AVX3 from 0.68-0.78x to
// 0.87-0.97x (bench/results/row-line-ab.md). At most 4, 16 loaded vectors: half of AVX-512's
// registers. AVX2 float16 takes 4 too (a whole line), though with the running row that is more
// vectors than AVX2's 16 registers: measured faster than 2 there all the same (same file).
// Where one vector is a whole line (AVX3, 4- and 8-byte types) on AMD Zen 5 (RowsJob::zen5), a
// step is that one vector: along axis 0 on Zen 5, 4-byte types
// 0.83-0.94x of the copy limit with two vectors, 0.91-0.98x with one, in three runs; 8-byte
// ones 0.92-0.98x, 0.94-0.98x (bench/results/row-step-zen5-ab.md). On Emerald Rapids two
// vectors won (int64 outer 0.75-0.76x -> 0.91-0.92x, row-line-ab.md): only Zen 5 steps by one.
// Where a group's step is one line of each row (one_line_steps: AMD Zen 5, AVX3, 4- and 8-byte
// types), each row prefetches its own input this far ahead, and past the group's end the next
// group's rows from their start: 4 x 2 KiB in flight. Prefetching each row's column a group
// ahead puts 4 whole row shares in flight, 64 KiB for 8-byte types along axis 0, more than the
// 48 KiB L1 they are prefetched into. Along axis 0 at the memory's faster speed, in same-process
// pairs, int64 rows ran 1.08-1.10x as fast (0.79-0.80 -> 0.86-0.87 of the copy limit), int32
// 1.07-1.08x, float32 1.00-1.02x; at the slower speed 1.00-1.02x. AVX2 rows, whose steps are
// two vectors, ran 0.92-1.04x with it and keep the group-ahead prefetch, as do float16 rows
// (bench/results/row-prefetch-along-zen5-ab.md).
constexpr size_t kRowAlongBytes = 2048;

template <class D, class S>
constexpr size_t kRowStepVectors = std::clamp<size_t>(64 / (hn::MaxLanes(D()) * sizeof(S)), 2, 4);

// One row: `r` (the running value) combined with `v` and stored, before (exclusive) or after.
// Streamed only where the vector is aligned: checking once per row instead (a row's steps are
// whole vectors) measured 1.03-1.04x for float16 along axis 0 and grew the row kernels' code
// by a fifth (bench/results/aligned-stream-ab.md).
template <ElemKind K, ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> RowStep(D d, bool exclusive, bool stream, hn::Vec<D> r, hn::Vec<D> v,
                              StorageT<K>* out) {
  stream = stream && AlignedVectorAt<K>(d, out);
  if (exclusive) StoreElems<K>(d, r, out, stream);
  r = Apply<kOp>(r, v);
  if (!exclusive) StoreElems<K>(d, r, out, stream);
  return r;
}

// A group of kRowGroup rows at kU vectors from column x. Every load comes before any store: an
// output row may alias its input row (in place), and rows a multiple of 4 KiB apart would
// otherwise make each load wait for the store before it (4K aliasing).
template <ElemKind K, ScanOp kOp, size_t kU, class D>
HWY_INLINE void RowGroupStep(D d, bool exclusive, bool stream, const StorageT<K>* const* in,
                             StorageT<K>* const* out, size_t x, ComputeT<K>* running) {
  const size_t n = hn::Lanes(d);
  hn::Vec<D> v[kRowGroup][kU];
  hn::Vec<D> r[kU];
  for (size_t g = 0; g < kRowGroup; ++g)
    for (size_t u = 0; u < kU; ++u) v[g][u] = LoadElems<K>(d, in[g] + x + u * n);
  for (size_t u = 0; u < kU; ++u) r[u] = hn::LoadU(d, running + x + u * n);
  for (size_t g = 0; g < kRowGroup; ++g)
    for (size_t u = 0; u < kU; ++u)
      r[u] = RowStep<K, kOp>(d, exclusive, stream, r[u], v[g][u], out[g] + x + u * n);
  for (size_t u = 0; u < kU; ++u) hn::StoreU(r[u], d, running + x + u * n);
}

// A single row at column x.
template <ElemKind K, ScanOp kOp, class D>
HWY_INLINE void SingleRowStep(D d, bool exclusive, bool stream, const StorageT<K>* in,
                              StorageT<K>* out, size_t x, ComputeT<K>* running) {
  const auto v = LoadElems<K>(d, in + x);
  hn::StoreU(RowStep<K, kOp>(d, exclusive, stream, hn::LoadU(d, running), v, out + x), d, running);
}

// Rows of at most this many vectors, adjacent in both tensors, take NarrowRows.
constexpr size_t kNarrowRowVectors = 16;

#if OPCTS_CPU_SIMD_F16C && HWY_TARGET <= HWY_AVX3
// float16 on AVX3, whose vector of 16 float32 lanes stores 32 bytes, half a line: its narrow rows
// go a pair of vectors, one whole line, at a time (NarrowRows).
template <ElemKind K, class D>
constexpr bool kLinePairs = (K == ElemKind::kF16) && (hn::MaxLanes(D()) == 16);

// RowStep for such a pair (one input line at `in`): both vectors combined into their running
// values r0, r1 and stored as one 64-byte line. 0.57-0.76x -> 0.62-0.90x of the copy limit, 5 of
// 6 cells higher in three runs (bench/results/narrow-rows-in-turn-ab.md).
template <ScanOp kOp, class D>
HWY_INLINE void RowPairStep(D d, bool exclusive, bool stream, ptrdiff_t ahead, const uint16_t* in,
                            uint16_t* out, hn::Vec<D>& r0, hn::Vec<D>& r1) {
  const hn::Rebind<hwy::float16_t, D> dh;
  const hn::Repartition<uint16_t, D> dw;  // 32 lanes: the pair's float16 bits
  const hn::Half<decltype(dw)> dwh;
  const size_t n = hn::Lanes(d);
  PrefetchInputAhead(in, ahead, /*into_l1=*/false);
  const hn::Vec<D> before0 = r0, before1 = r1;
  r0 = Apply<kOp>(r0, LoadElems<ElemKind::kF16>(d, in));
  r1 = Apply<kOp>(r1, LoadElems<ElemKind::kF16>(d, in + n));
  const auto lo = hn::BitCast(dwh, hn::DemoteTo(dh, exclusive ? before0 : r0));
  const auto hi = hn::BitCast(dwh, hn::DemoteTo(dh, exclusive ? before1 : r1));
  Put(dw, hn::Combine(dw, hi, lo), out, stream && AlignedVectorAt<ElemKind::kF16>(dw, out));
}
#endif

// Rows of `vectors` whole vectors (at most kV), adjacent in memory in both tensors (a contiguous
// block, as along a middle axis): the running row stays in registers and the rows go by one at
// a time in address order, as a copy reads and writes. Along the middle axis of {64, n, 64}
// this took 4- and 8-byte types on Zen 5 from 0.78-0.94x of the copy limit (groups of four
// rows, the running row in memory) to 0.92-1.06x (bench/results/narrow-rows-ab.md). Where each
// stored vector is a whole cache line (AVX3, 4- and 8-byte types), each vector is loaded and
// stored in turn, as the copy does: on Intel Granite Rapids, loading a row's vectors before
// storing any held those cells to 0.71-0.94x of the copy limit, in turn they ran 0.85-0.99x
// (three runs); float16 on AVX3 (half-line stores) ran 0.73x before and 0.67x in turn, and
// goes in turn a pair of vectors, one line, at a time (RowPairStep); AVX2 alike within the noise
// (bench/results/narrow-rows-in-turn-ab.md). Zen 5 not measured.
template <ElemKind K, ScanOp kOp, size_t kV, class D>
HWY_INLINE void NarrowRows(D d, bool exclusive, const RowsJob& job, size_t vectors, size_t r,
                           const ComputeT<K>* running) {
  using S = StorageT<K>;
  const size_t n = hn::Lanes(d);
  const ptrdiff_t ahead = job.in_row_step > 0 ? kPrefetchBytes : -kPrefetchBytes;
  constexpr bool kLineStores = hn::MaxLanes(D()) * sizeof(S) == 64;
  hn::Vec<D> run[kV], v[kV];
  for (size_t u = 0; u < kV; ++u) {
    run[u] = v[u] = hn::Zero(d);  // set for the compiler's sake: those from `vectors` on go unused
    if (u < vectors) run[u] = hn::LoadU(d, running + u * n);
  }
  for (; r < job.rows; ++r) {
    const auto* in =
        reinterpret_cast<const S*>(job.in + static_cast<ptrdiff_t>(r) * job.in_row_step);
    auto* out = reinterpret_cast<S*>(job.out + static_cast<ptrdiff_t>(r) * job.out_row_step);
#if OPCTS_CPU_SIMD_F16C && HWY_TARGET <= HWY_AVX3
    if constexpr (kLinePairs<K, D>) {
      if (vectors % 2 == 0) {
        for (size_t u = 0; u < kV; u += 2)
          if (u < vectors)
            RowPairStep<kOp>(d, exclusive, job.stream, ahead, in + u * n, out + u * n, run[u],
                             run[u + 1]);
        continue;
      }
    }
#endif
    // In place, each vector is loaded before it is stored either way.
    for (size_t u = 0; u < kV; ++u) {
      if (u < vectors) {
        PrefetchInputAhead(in + u * n, ahead, /*into_l1=*/false);
        v[u] = LoadElems<K>(d, in + u * n);
        if (kLineStores)
          run[u] = RowStep<K, kOp>(d, exclusive, job.stream, run[u], v[u], out + u * n);
      }
    }
    for (size_t u = 0; !kLineStores && u < kV; ++u)
      if (u < vectors)
        run[u] = RowStep<K, kOp>(d, exclusive, job.stream, run[u], v[u], out + u * n);
  }
}

template <ElemKind K, ScanOp kOp>
void ScanRowsT(bool exclusive, const RowsJob& job) {
  using S = StorageT<K>;
  using C = ComputeT<K>;
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const size_t n = hn::Lanes(d);
  constexpr size_t kU = kRowStepVectors<decltype(d), S>;
  C* running = static_cast<C*>(job.scratch);
  std::fill_n(running, job.width, Identity<kOp, C>());
  auto in_row = [&job](size_t r) {
    return reinterpret_cast<const S*>(job.in + static_cast<ptrdiff_t>(r) * job.in_row_step);
  };
  auto out_row = [&job](size_t r) {
    return reinterpret_cast<S*>(job.out + static_cast<ptrdiff_t>(r) * job.out_row_step);
  };
  size_t r = 0;
  if constexpr (kHasEmptySumHead<K, kOp>) {
    if (exclusive) {
      size_t x = 0;
      for (; x + n <= job.width; x += n)
        EmptySumRowStep<K>(d, job.stream, in_row(0), out_row(0), x, running + x);
      for (; x < job.width; ++x)
        EmptySumRowStep<K>(d1, false, in_row(0), out_row(0), x, running + x);
      r = 1;
    }
  }
  const auto row_bytes = static_cast<ptrdiff_t>(job.width * sizeof(S));
  if (job.in_row_step == job.out_row_step &&
      (job.in_row_step == row_bytes || job.in_row_step == -row_bytes) && job.width % n == 0 &&
      job.width <= kNarrowRowVectors * n) {
    const size_t vectors = job.width / n;
    if (vectors <= 4)
      NarrowRows<K, kOp, 4>(d, exclusive, job, vectors, r, running);
    else if (vectors <= 8)
      NarrowRows<K, kOp, 8>(d, exclusive, job, vectors, r, running);
    else
      NarrowRows<K, kOp, kNarrowRowVectors>(d, exclusive, job, vectors, r, running);
    if (job.stream) hwy::FlushStream();
    return;
  }
  const size_t rows_ahead = std::max(kRowGroup, kPrefetchBytes / (job.width * sizeof(S)) + 1);
  const ptrdiff_t ahead = static_cast<ptrdiff_t>(rows_ahead) * job.in_row_step;
  auto prefetch = [ahead, into_l1 = job.zen5 || sizeof(S) < 4](const S* p) {
    PrefetchInputAhead(p, ahead, into_l1);
  };
  const bool one_line_steps = job.zen5 && hn::MaxLanes(d) * sizeof(S) == 64;
  const size_t along = kRowAlongBytes / sizeof(S);
  const bool along_rows = one_line_steps && job.width >= along;
  for (; r + kRowGroup <= job.rows; r += kRowGroup) {
    const S* in[kRowGroup] = {in_row(r), in_row(r + 1), in_row(r + 2), in_row(r + 3)};
    S* out[kRowGroup] = {out_row(r), out_row(r + 1), out_row(r + 2), out_row(r + 3)};
    size_t x = 0;
    for (; !one_line_steps && x + kU * n <= job.width; x += kU * n) {
      for (const S* row : in) prefetch(row + x);
      RowGroupStep<K, kOp, kU>(d, exclusive, job.stream, in, out, x, running);
    }
    for (; x + n <= job.width; x += n) {  // and every step of one_line_steps
      // Written out: with this in a lambda, GCC 12 compiled the loop without any prefetch.
      if (!along_rows) {
        for (const S* row : in) prefetch(row + x);
      } else if (x + along < job.width) {
        for (const S* row : in) PrefetchAhead(row + x + along, 0);
      } else {  // past the group's end: the next group's rows, from their start
        for (size_t g = 0; g < kRowGroup; ++g)
          PrefetchAhead(in_row(r + kRowGroup + g) + (x + along - job.width), 0);
      }
      RowGroupStep<K, kOp, 1>(d, exclusive, job.stream, in, out, x, running);
    }
    for (; x < job.width; ++x) RowGroupStep<K, kOp, 1>(d1, exclusive, false, in, out, x, running);
  }
  for (; r < job.rows; ++r) {  // the last rows, fewer than a group
    size_t x = 0;
    for (; x + n <= job.width; x += n)
      SingleRowStep<K, kOp>(d, exclusive, job.stream, in_row(r), out_row(r), x, running + x);
    for (; x < job.width; ++x)
      SingleRowStep<K, kOp>(d1, exclusive, false, in_row(r), out_row(r), x, running + x);
  }
  if (job.stream) hwy::FlushStream();
}

// ---- in-register line scan (scan along the innermost axis) -----------------------------------

// The lane of a vector that holds the line's head when it is the line's first (in scan order).
template <bool kReverse, class D>
HWY_INLINE hn::Mask<D> HeadLane(D d) {
  return kReverse ? hn::Not(hn::FirstN(d, hn::Lanes(d) - 1)) : hn::FirstN(d, 1);
}

// Scans one vector of one block (or one lane) of the line; returns the carry after it. The
// carry chain is one combine per vector: the prefix and its total are computed off it. `head`:
// the vector holds the line's head, where an exclusive float sum writes +0.0, the empty sum
// (carry and prefix give -0.0, the identity, there).
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
HWY_INLINE hn::Vec<D> LineStep(D d, const StorageT<K>* in, StorageT<K>* out, hn::Vec<D> carry,
                               bool head, bool stream) {
  const auto prefix = BlockPrefix<kReverse, kOp>(d, LoadElems<K>(d, in));
  const auto before = kExclusive ? ShiftInIdentity<1, kReverse, kOp>(d, prefix) : prefix;
  auto result = Apply<kOp>(carry, before);
  if constexpr (kExclusive && kHasEmptySumHead<K, kOp>) {
    if (head) result = hn::IfThenZeroElse(HeadLane<kReverse>(d), result);
  }
  StoreElems<K>(d, result, out, stream);
  return Apply<kOp>(carry, BlockTotals<kReverse>(d, prefix));
}

// Elements from the start of `p` to the next multiple of `bytes`, or 0 when there is none.
template <class S>
size_t ElementsToAlignment(const S* p, size_t bytes) {
  const size_t misaligned = reinterpret_cast<uintptr_t>(p) % bytes;
  return misaligned % sizeof(S) ? 0 : (bytes - misaligned) % bytes / sizeof(S);
}

// Element i alone, after the running value c; returns the value after it.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse>
HWY_INLINE ComputeT<K> ScanOne(const StorageT<K>* in, StorageT<K>* out, size_t i, ComputeT<K> c,
                               bool head) {
  const hn::CappedTag<ComputeT<K>, 1> d1;
  return hn::GetLane(
      LineStep<K, kOp, kExclusive, kReverse>(d1, in + i, out + i, hn::Set(d1, c), head, false));
}

// Calls side(at) and then step(at, at_head) for the whole vectors of tag d from element *i on,
// forward up to n or in reverse down to 0; leaves *i past them. at_head: the vector holds the
// line's head. side: the vector's prefetch, and what else rides along (ScanLineT).
template <bool kReverse, class D, class Side, class Step>
HWY_INLINE void ForEachVector(D d, size_t n, size_t* i, bool head, const Side& side,
                              const Step& step) {
  const size_t lanes = hn::Lanes(d);
  if constexpr (!kReverse) {
    for (; *i + lanes <= n; *i += lanes) {
      side(*i);
      step(*i, head && *i == 0);
    }
  } else {
    while (*i >= lanes) {
      *i -= lanes;
      side(*i);
      step(*i, head && *i + lanes == n);
    }
  }
}

#if OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN
// Window vectors (IsWindowVector: whole 512-bit ones, or 256-bit ones) by the window recurrence:
// the prefix at element i is the prefix N lanes earlier combined with the window of the N elements
// ending at i, so every lane carries its own running value from vector to vector and nothing is
// broadcast. The windows take log2(N) shifts across the vector, each bringing in the previous
// vector's stage (the identity before the first: windows cut off there are the vector's own
// prefixes, and each lane's running value starts as c). One shuffle per vector fewer than a prefix
// of the vector and a broadcast of its total, and the carry chain is one combine. Any grouping of a
// sum or product is valid (reference/README). This is one line's state; Step scans the vector at
// `at`.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
struct WindowScan {
  static constexpr size_t kN = hn::MaxLanes(D());
  using V = hn::Vec<D>;

  HWY_INLINE WindowScan(D d, const StorageT<K>* in, StorageT<K>* out, ComputeT<K> c, bool stream)
      : in(in), out(out), stream(stream), running(hn::Set(d, c)) {}

  // A combine of the windows, off the carry chain: on 256-bit vectors on the multiply-add pipes
  // (ApplyOffChain), beside the shuffles and conversions of Zen 4's float16 lines: one thread in
  // cache 1.08-1.10x (bench/results/float16-ymm-side-by-side-zen4.md).
  static HWY_INLINE V Window(D d, V a, V b) {
    if constexpr (kN * sizeof(hn::TFromD<D>) == 32)
      return ApplyOffChain<kOp>(d, a, b);
    else
      return Apply<kOp>(a, b);
  }

  HWY_INLINE void Step(size_t at, bool at_head) {
    const D d;
    const auto x = LoadElems<K>(d, in + at);
    const auto pairs = Window(d, x, SlideIn<1, kReverse>(d, x, x_before));
    const auto quads = Window(d, pairs, SlideIn<2, kReverse>(d, pairs, pairs_before));
    auto window = Window(d, quads, SlideIn<4, kReverse>(d, quads, quads_before));
    x_before = x;
    pairs_before = pairs;
    quads_before = quads;
    if constexpr (kN == 16) {
      const auto octets = window;
      window = Window(d, octets, SlideIn<8, kReverse>(d, octets, octets_before));
      octets_before = octets;
    }
    const auto after = Apply<kOp>(running, window);
    // Exclusive: each element gets the prefix before it, the first the running value's last lane.
    auto result = kExclusive ? SlideIn<1, kReverse>(d, after, running) : after;
    if constexpr (kExclusive && kHasEmptySumHead<K, kOp>) {
      if (at_head) result = hn::IfThenZeroElse(HeadLane<kReverse>(d), result);
    }
    StoreElems<K>(d, result, out + at, stream);
    running = after;
  }
  // The running value after the vectors scanned.
  HWY_INLINE ComputeT<K> Carry() const { return hn::ExtractLane(running, kReverse ? 0 : kN - 1); }

  const StorageT<K>* in;
  StorageT<K>* out;
  bool stream;
  V x_before = IdentityVec<kOp>(D()), pairs_before = x_before, quads_before = x_before,
    octets_before = x_before;
  V running;
};
#endif

#if HWY_TARGET != HWY_SCALAR
// Per block of a two-block vector v, the block just before it in scan order: v's other block, or
// the matching block of `before` (the vector before v in scan order, or a constant).
template <bool kReverse, class D>
HWY_INLINE hn::Vec<D> BlockBefore(D d, hn::Vec<D> v, hn::Vec<D> before) {
  return kReverse ? hn::ConcatLowerUpper(d, before, v) : hn::ConcatLowerUpper(d, v, before);
}

// Vectors of two blocks (AVX2; 8- and 16-bit lanes on AVX-512) by the window recurrence of
// WindowScan, per block: each block is scanned within itself, and each block's running value
// (everything before it in scan order) is its value one vector earlier combined with the two
// block totals since: one combine and, as before, one cross-block shuffle per vector, where
// carrying the first block's total into the second and forming the vector's total took a blend
// and two combines (9 ops instead of 11 per float32 vector; an exclusive scan also saves a
// cross-block shuffle). AVX2 float16 lines, the compute-bound ones: 1.11-1.21x the ratio to the
// copy limit from memory on Zen 5 (same-run A/B, bench/results/block-window-ab.md).
// This is one line's state; Step scans the vector at `at`.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
struct BlockWindowScan {
  HWY_INLINE BlockWindowScan(D d, const StorageT<K>* in, StorageT<K>* out, ComputeT<K> c,
                             bool stream)
      : in(in), out(out), stream(stream), running(hn::Set(d, c)) {}

  HWY_INLINE void Step(size_t at, bool at_head) {
    const D d;
    const auto prefix = BlockPrefix<kReverse, kOp>(d, LoadElems<K>(d, in + at));
    const auto totals = BlockTotals<kReverse>(d, prefix);
    // Per block, the total of the block just before it in scan order.
    const auto adjacent = BlockBefore<kReverse>(d, totals, totals_before);
    running = Apply<kOp>(running, Apply<kOp>(adjacent, totals_before));
    totals_before = totals;
    auto result =
        Apply<kOp>(running, kExclusive ? ShiftInIdentity<1, kReverse, kOp>(d, prefix) : prefix);
    if constexpr (kExclusive && kHasEmptySumHead<K, kOp>) {
      if (at_head) result = hn::IfThenZeroElse(HeadLane<kReverse>(d), result);
    }
    StoreElems<K>(d, result, out + at, stream);
  }
  // The last block's running value and total (c op identity = c when there was no vector).
  HWY_INLINE ComputeT<K> Carry() const {
    return hn::ExtractLane(Apply<kOp>(running, totals_before),
                           kReverse ? 0 : hn::MaxLanes(D()) - 1);
  }

  const StorageT<K>* in;
  StorageT<K>* out;
  bool stream;
  hn::Vec<D> running;
  hn::Vec<D> totals_before = IdentityVec<kOp>(D());  // the previous vector's block totals
};
#endif

#if OPCTS_CPU_SIMD_F16C
// A two-block vector v moved kLanes (at most a block) lanes along the scan direction, across
// the blocks, the identity entering.
template <size_t kLanes, bool kReverse, ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> SlideInIdentity(D d, hn::Vec<D> v) {
  constexpr size_t kBlock = BlockLanes<D>();
  static_assert(kLanes <= kBlock);
  const auto before = BlockBefore<kReverse>(d, v, IdentityVec<kOp>(d));
  if constexpr (kLanes == 0)
    return v;
  else if constexpr (kLanes == kBlock)
    return before;
  else if constexpr (kReverse)
    return hn::CombineShiftRightLanes<kLanes>(d, before, v);
  else
    return hn::CombineShiftRightLanes<kBlock - kLanes>(d, v, before);
}

// Float16 lines on two-block vectors (AVX2) by the window recurrence of WindowScan, the
// window of eight built from the input loaded again 1, 2 and 3 elements back and converted (one
// element further for an exclusive scan, whose window ends before each element) and one block
// swap, its combines off the carry chain on the multiply-add pipes (ApplyOffChain). Counted on
// the two pipes Zen 5's adds appear to share with its shuffles and conversions (a model that
// fits the measurements), that is 1 shuffle, 1 add and 5 conversions per vector, where
// BlockWindowScan issues 4 shuffles, 5 adds and 2 conversions: one thread in L1 1.30-1.32x,
// from memory on two 1.11-1.19x (bench/results/float16-avx2-shifted-loads-ab.md). The call's
// first vector, whose window may reach before the call's first element (the identity there, and
// perhaps not memory), is moved in registers instead. Not in place: an element is loaded again
// after the vector holding it was stored.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D, class Side>
HWY_INLINE ComputeT<K> ShiftedLoadWindowVectors(D d, const StorageT<K>* in, StorageT<K>* out,
                                                size_t n, size_t* i, ComputeT<K> c, bool head,
                                                bool stream, const Side& side) {
  constexpr size_t kE = kExclusive ? 1 : 0;
  constexpr ptrdiff_t kBack = kReverse ? 1 : -1;  // one element earlier in scan order
  auto quads_before = IdentityVec<kOp>(d);
  auto running = hn::Set(d, c);
  const auto sum4 = [d](hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> e, hn::Vec<D> f) {
    return ApplyOffChain<kOp>(d, ApplyOffChain<kOp>(d, a, b), ApplyOffChain<kOp>(d, e, f));
  };
  bool first = true;
  ForEachVector<kReverse>(d, n, i, head, side, [&](size_t at, bool at_head) {
    hn::Vec<D> quads;
    if (first) {
      const auto x = LoadElems<K>(d, in + at);
      quads = sum4(SlideInIdentity<kE, kReverse, kOp>(d, x),
                   SlideInIdentity<kE + 1, kReverse, kOp>(d, x),
                   SlideInIdentity<kE + 2, kReverse, kOp>(d, x),
                   SlideInIdentity<kE + 3, kReverse, kOp>(d, x));
      first = false;
    } else {
      const auto back = [&](ptrdiff_t k) { return LoadElems<K>(d, in + at + kBack * k); };
      quads = sum4(back(kE), back(kE + 1), back(kE + 2), back(kE + 3));
    }
    const auto window = ApplyOffChain<kOp>(d, quads, BlockBefore<kReverse>(d, quads, quads_before));
    quads_before = quads;
    running = Apply<kOp>(running, window);
    auto result = running;
    if constexpr (kExclusive && kHasEmptySumHead<K, kOp>) {
      if (at_head) result = hn::IfThenZeroElse(HeadLane<kReverse>(d), result);
    }
    StoreElems<K>(d, result, out + at, stream);
  });
  if (first) return c;  // no whole vector
  constexpr size_t kLast = kReverse ? 0 : hn::MaxLanes(D()) - 1;
  c = hn::ExtractLane(running, kLast);
  if constexpr (kExclusive) {  // the last element, which its own window left out
    const hn::CappedTag<ComputeT<K>, 1> d1;
    c = ApplyScalar<kOp>(c, hn::GetLane(LoadElems<K>(d1, in + (kReverse ? *i : *i - 1))));
  }
  return c;
}
#endif

// One line's whole vectors with the state `Scan` (WindowScan, BlockWindowScan), as ScanVectors.
template <class Scan, bool kReverse, class D, class S, class C, class Side>
HWY_INLINE C OneLineVectors(D d, const S* in, S* out, size_t n, size_t* i, C c, bool head,
                            bool stream, const Side& side) {
  Scan line(d, in, out, c, stream);
  ForEachVector<kReverse>(d, n, i, head, side,
                          [&](size_t at, bool at_head) { line.Step(at, at_head); });
  return line.Carry();
}

// Whole vectors of tag d from element *i on, forward up to n or in reverse down to 0, after the
// running value c; returns the value after them and leaves *i past them. side(at) runs before
// each vector (ForEachVector).
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D, class Side>
HWY_INLINE ComputeT<K> ScanVectors(D d, const StorageT<K>* in, StorageT<K>* out, size_t n,
                                   size_t* i, ComputeT<K> c, bool head, bool stream,
                                   const Side& side) {
#if OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN
  if constexpr (IsWindowVector<D>())
    return OneLineVectors<WindowScan<K, kOp, kExclusive, kReverse, D>, kReverse>(
        d, in, out, n, i, c, head, stream, side);
#endif
#if OPCTS_CPU_SIMD_F16C
  if constexpr (K == ElemKind::kF16 && TwoBlocks<D>()) {
    if (in != out)  // it reads elements again after storing the vector that holds them
      return ShiftedLoadWindowVectors<K, kOp, kExclusive, kReverse>(d, in, out, n, i, c, head,
                                                                    stream, side);
  }
#endif
#if HWY_TARGET != HWY_SCALAR
  if constexpr (TwoBlocks<D>())
    return OneLineVectors<BlockWindowScan<K, kOp, kExclusive, kReverse, D>, kReverse>(
        d, in, out, n, i, c, head, stream, side);
#endif
  auto carry = hn::Set(d, c);
  ForEachVector<kReverse>(d, n, i, head, side, [&](size_t at, bool at_head) {
    carry = LineStep<K, kOp, kExclusive, kReverse>(d, in + at, out + at, carry, at_head, stream);
  });
  return hn::GetLane(carry);
}

// ---- reduction (the carry pass of a line split across threads) -------------------------------

// t op (the lanes of v, in lane order).
template <ScanOp kOp, class D>
HWY_INLINE hn::TFromD<D> CombineLanes(D d, hn::Vec<D> v, hn::TFromD<D> t) {
  HWY_ALIGN hn::TFromD<D> lanes[hn::MaxLanes(D())];
  hn::Store(v, d, lanes);
  for (size_t l = 0; l < hn::Lanes(d); ++l) t = ApplyScalar<kOp>(t, lanes[l]);
  return t;
}

template <ElemKind K, ScanOp kOp>
void ReduceLineT(const StorageT<K>* in, size_t n, ComputeT<K>* total) {
  using C = ComputeT<K>;
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const size_t lanes = hn::Lanes(d);
  auto acc0 = IdentityVec<kOp>(d);
  auto acc1 = acc0;  // two chains hide the add/multiply latency
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    PrefetchAhead(in + i, kPrefetchBytes);
    acc0 = Apply<kOp>(acc0, LoadElems<K>(d, in + i));
    acc1 = Apply<kOp>(acc1, LoadElems<K>(d, in + i + lanes));
  }
  for (; i + lanes <= n; i += lanes) acc0 = Apply<kOp>(acc0, LoadElems<K>(d, in + i));
  C t = CombineLanes<kOp>(d, Apply<kOp>(acc0, acc1), *total);
  for (; i < n; ++i) t = ApplyScalar<kOp>(t, hn::GetLane(LoadElems<K>(d1, in + i)));
  *total = t;
}

// ScanVectors' side work for a line read from memory: its input prefetched kPrefetchBytes ahead
// in scan order.
template <bool kReverse, class S>
struct PrefetchInput {
  const S* in;
  bool into_l1;
  HWY_INLINE void operator()(size_t at) const {
    PrefetchInputAhead(in + at, kReverse ? -kPrefetchBytes : kPrefetchBytes, into_l1);
  }
};

// *along_total op the elements of `along` (n) outside [min(start, end), max(start, end)): those
// beside the single elements of the line scanned with it, whose whole vectors ran from start to
// end (in scan order).
template <ElemKind K, ScanOp kOp>
HWY_INLINE void ReduceBesideVectors(const StorageT<K>* along, size_t n, size_t start, size_t end,
                                    ComputeT<K>* along_total) {
  const size_t lo = std::min(start, end), hi = std::max(start, end);
  ReduceLineT<K, kOp>(along, lo, along_total);
  ReduceLineT<K, kOp>(along + hi, n - hi, along_total);
}

// ScanVectors for a line in cache (a split line's quarter, where its group goes one line after
// the other: ScanLineGroupT), reducing `along` (n more elements: the next piece's quarter, in
// memory) into *along_total in the same pass: one vector of it beside each whole vector scanned,
// the elements beside the rest apart (any grouping is valid: reference/README). `along` is
// prefetched into L1: into L2 this gained nothing (bench/results/fused-split-line-ab.md,
// split-line-quarters-ab.md).
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
HWY_INLINE ComputeT<K> ScanVectorsReducingAlong(D d, const StorageT<K>* in, StorageT<K>* out,
                                                size_t n, size_t* i, ComputeT<K> c, bool head,
                                                bool stream, const StorageT<K>* along,
                                                ComputeT<K>* along_total) {
  const size_t start = *i;
  auto acc = IdentityVec<kOp>(d);
  c = ScanVectors<K, kOp, kExclusive, kReverse>(d, in, out, n, i, c, head, stream, [&](size_t at) {
    PrefetchAhead(along + at, kReverse ? -kPrefetchBytes : kPrefetchBytes);
    acc = Apply<kOp>(acc, LoadElems<K>(d, along + at));
  });
  *along_total = CombineLanes<kOp>(d, acc, *along_total);
  ReduceBesideVectors<K, kOp>(along, n, start, *i, along_total);
  return c;
}

// The single elements of a line before its whole vectors, in scan order: with *stream, those up
// to the first output vector aligned for streaming stores (then every vector is aligned, the rest
// vectors, half as wide, too; or none is and none streams). Returns where the vectors start (the
// first's index, or in reverse one past the last's) and leaves *stream true only if they stream.
// `head`: as for ScanLineT.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
HWY_INLINE size_t ScanToAlignment(D d, const StorageT<K>* in, StorageT<K>* out, size_t n,
                                  ComputeT<K>* c, bool head, bool* stream) {
  const size_t vector_bytes = hn::Lanes(d) * sizeof(StorageT<K>);
  size_t i;
  if constexpr (!kReverse) {
    const size_t aligned = *stream ? std::min(n, ElementsToAlignment(out, vector_bytes)) : 0;
    for (i = 0; i < aligned; ++i)
      *c = ScanOne<K, kOp, kExclusive, kReverse>(in, out, i, *c, head && i == 0);
  } else {  // from the end: single elements down to an aligned end
    const size_t misaligned_end = reinterpret_cast<uintptr_t>(out + n) % vector_bytes;
    const size_t tail = *stream && misaligned_end % sizeof(StorageT<K>) == 0
                            ? std::min(n, misaligned_end / sizeof(StorageT<K>))
                            : 0;
    for (i = n; i > n - tail;) {
      --i;
      *c = ScanOne<K, kOp, kExclusive, kReverse>(in, out, i, *c, head && i == n - 1);
    }
  }
  *stream = *stream && AlignedVectorAt<K>(d, out + i);  // forward the start, reverse the end
  return i;
}

// What is left of a line after its whole vectors (at i): on AVX-512, at most one 256-bit
// vector; then single elements. Returns the running value after the line.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse>
HWY_INLINE ComputeT<K> ScanRest(const StorageT<K>* in, StorageT<K>* out, size_t n, size_t i,
                                ComputeT<K> c, bool head, bool stream, bool into_l1) {
  using C = ComputeT<K>;
  if constexpr (kWholeVectorScan<C>)
    c = ScanVectors<K, kOp, kExclusive, kReverse>(
        hn::CappedTag<C, 32 / sizeof(C)>(), in, out, n, &i, c, head, stream,
        PrefetchInput<kReverse, StorageT<K>>{in, into_l1});
  if constexpr (!kReverse) {
    for (; i < n; ++i) c = ScanOne<K, kOp, kExclusive, kReverse>(in, out, i, c, head && i == 0);
  } else {
    while (i > 0) {
      --i;
      c = ScanOne<K, kOp, kExclusive, kReverse>(in, out, i, c, head && i == n - 1);
    }
  }
  return c;
}

// `head`: the line starts here (element 0, or n - 1 in reverse); false for a later piece of a
// line split across threads. `along`: null, or as for ScanVectorsReducingAlong. On vectors of
// tag d.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
void ScanLineOn(D d, const StorageT<K>* in, StorageT<K>* out, size_t n, ComputeT<K>* carry_io,
                bool head, bool stream, const StorageT<K>* along, ComputeT<K>* along_total) {
  const bool into_l1 = IsAmdZen5();
  ComputeT<K> c = *carry_io;
  size_t i = ScanToAlignment<K, kOp, kExclusive, kReverse>(d, in, out, n, &c, head, &stream);
  c = along ? ScanVectorsReducingAlong<K, kOp, kExclusive, kReverse>(d, in, out, n, &i, c, head,
                                                                     stream, along, along_total)
            : ScanVectors<K, kOp, kExclusive, kReverse>(
                  d, in, out, n, &i, c, head, stream,
                  PrefetchInput<kReverse, StorageT<K>>{in, into_l1});
  *carry_io = ScanRest<K, kOp, kExclusive, kReverse>(in, out, n, i, c, head, stream, into_l1);
}

// Calls scan(d) with the tag of kind K's line scan vectors: LineTag, or on Zen 4 256-bit ones for
// float16 (HalfWidthFloat16Lines).
template <ElemKind K, class Scan>
HWY_INLINE void OnLineVectors(const Scan& scan) {
#if OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN
  if constexpr (K == ElemKind::kF16) {
    if (HalfWidthFloat16Lines()) return scan(hn::CappedTag<float, 8>());
  }
#endif
  scan(LineTag<ComputeT<K>>());
}

template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse>
void ScanLineT(const StorageT<K>* in, StorageT<K>* out, size_t n, ComputeT<K>* carry_io, bool head,
               bool stream, const StorageT<K>* along = nullptr,
               ComputeT<K>* along_total = nullptr) {
  OnLineVectors<K>([&](auto d) {
    ScanLineOn<K, kOp, kExclusive, kReverse>(d, in, out, n, carry_io, head, stream, along,
                                             along_total);
  });
}

// A LineGroup (scan_kernels.h) as kind K.
template <ElemKind K>
struct TypedLineGroup {
  const StorageT<K>* in[kLineGroup];
  StorageT<K>* out[kLineGroup];
  ComputeT<K> carry[kLineGroup];
  bool head[kLineGroup];
  const StorageT<K>* along[kLineGroup];
  ComputeT<K> along_total[kLineGroup];
};

// The whole vectors of a group's lines side by side, from *i on: each step prefetches for every
// line, then loads, scans and stores a vector of each in turn, a state `Scan` (WindowScan,
// BlockWindowScan) per line. With `along`, each step first reduces a vector of every line's
// along, which is prefetched instead of the input, as in ScanVectorsReducingAlong.
template <class Scan, ElemKind K, ScanOp kOp, bool kReverse, class D, size_t... kG>
HWY_INLINE void VectorsSideBySide(D d, TypedLineGroup<K>& g, size_t n, size_t* i, bool stream,
                                  bool into_l1, std::index_sequence<kG...>) {
  Scan lines[] = {Scan(d, g.in[kG], g.out[kG], g.carry[kG], stream)...};
  constexpr ptrdiff_t kAhead = kReverse ? -kPrefetchBytes : kPrefetchBytes;
  const auto step = [&](size_t at, bool at_head) {
    (lines[kG].Step(at, at_head && g.head[kG]), ...);
  };
  if (g.along[0] == nullptr) {
    ForEachVector<kReverse>(
        d, n, i, /*head=*/true,
        [&](size_t at) { (PrefetchInputAhead(g.in[kG] + at, kAhead, into_l1), ...); }, step);
  } else {
    hn::Vec<D> acc[] = {((void)kG, IdentityVec<kOp>(d))...};
    ForEachVector<kReverse>(
        d, n, i, /*head=*/true,
        [&](size_t at) {
          ((PrefetchAhead(g.along[kG] + at, kAhead),
            acc[kG] = Apply<kOp>(acc[kG], LoadElems<K>(d, g.along[kG] + at))),
           ...);
        },
        step);
    ((g.along_total[kG] = CombineLanes<kOp>(d, acc[kG], g.along_total[kG])), ...);
  }
  ((g.carry[kG] = lines[kG].Carry()), ...);
}

// A group's lines side by side with the state `Scan` on vectors of tag D; false (nothing done)
// when streaming outputs are aligned differently (then their whole vectors start at different
// elements) or on a CPU where streaming lines go apart (LinesApartWhileStreaming).
template <class Scan, ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
bool ScanSideBySide(D d, TypedLineGroup<K>& g, size_t n, bool stream) {
  if (stream && LinesApartWhileStreaming()) return false;
  const size_t vector_bytes = hn::Lanes(d) * sizeof(StorageT<K>);
  const auto misalignment = [&](const StorageT<K>* p) {
    return reinterpret_cast<uintptr_t>(p) % vector_bytes;
  };
  if (stream && !std::all_of(g.out, g.out + kLineGroup, [&](const StorageT<K>* p) {
        return misalignment(p) == misalignment(g.out[0]);
      }))
    return false;
  const bool into_l1 = IsAmdZen5();
  size_t i = 0;
  bool vectors_stream = stream;  // i and vectors_stream come out alike for every line
  for (size_t l = 0; l < kLineGroup; ++l) {
    vectors_stream = stream;
    i = ScanToAlignment<K, kOp, kExclusive, kReverse>(d, g.in[l], g.out[l], n, &g.carry[l],
                                                      g.head[l], &vectors_stream);
  }
  const size_t start = i;
  VectorsSideBySide<Scan, K, kOp, kReverse>(d, g, n, &i, vectors_stream, into_l1,
                                            std::make_index_sequence<kLineGroup>());
  for (size_t l = 0; l < kLineGroup; ++l) {
    g.carry[l] = ScanRest<K, kOp, kExclusive, kReverse>(g.in[l], g.out[l], n, i, g.carry[l],
                                                        g.head[l], vectors_stream, into_l1);
    if (g.along[l] != nullptr)
      ReduceBesideVectors<K, kOp>(g.along[l], n, start, i, &g.along_total[l]);
  }
  return true;
}

// A group's lines (ScanLineGroup) on vectors of tag D: side by side on window vectors
// (IsWindowVector: AVX-512's whole vectors, Zen 4's float16 256-bit ones) and on vectors of two
// blocks (AVX2's float16 too, on BlockWindowScan rather than its shifted-load loop: from memory
// on Granite Rapids inner lines 0.41 -> 0.59 of the copy limit,
// bench/results/lines-side-by-side-ab.md); else one after the other.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
void ScanLineGroupOn(D /*d*/, size_t n, bool stream, TypedLineGroup<K>& g) {
#if OPCTS_CPU_SIMD_WHOLE_VECTOR_SCAN
  if constexpr (IsWindowVector<D>()) {
    if (ScanSideBySide<WindowScan<K, kOp, kExclusive, kReverse, D>, K, kOp, kExclusive, kReverse>(
            D(), g, n, stream))
      return;
  }
#endif
#if HWY_TARGET != HWY_SCALAR
  // Never after window vectors: ScanSideBySide declined those for reasons that hold for any scan.
  if constexpr (TwoBlocks<D>() && !IsWindowVector<D>()) {
    if (ScanSideBySide<BlockWindowScan<K, kOp, kExclusive, kReverse, D>, K, kOp, kExclusive,
                       kReverse>(D(), g, n, stream))
      return;
  }
#endif
  for (size_t l = 0; l < kLineGroup; ++l)
    ScanLineT<K, kOp, kExclusive, kReverse>(g.in[l], g.out[l], n, &g.carry[l], g.head[l], stream,
                                            g.along[l], &g.along_total[l]);
}

template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse>
void ScanLineGroupT(size_t n, bool stream, TypedLineGroup<K>& g) {
  OnLineVectors<K>([&](auto d) { ScanLineGroupOn<K, kOp, kExclusive, kReverse>(d, n, stream, g); });
}

// ---- entry points, one per target, exported by scan_kernels.cc -------------------------------

void ScanRowsTarget(const ScanType& t, const RowsJob& job) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() { ScanRowsT<K, kOp>(t.exclusive, job); });
}

void ScanLineTarget(const ScanType& t, bool reverse, const void* in, void* out, size_t n,
                    Carry* carry, bool head, bool stream) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() {
    const auto* src = static_cast<const StorageT<K>*>(in);
    auto* dst = static_cast<StorageT<K>*>(out);
    ComputeT<K>* c = &CarryAs<ComputeT<K>>(*carry);
    if (t.exclusive) {
      if (reverse)
        ScanLineT<K, kOp, true, true>(src, dst, n, c, head, stream);
      else
        ScanLineT<K, kOp, true, false>(src, dst, n, c, head, stream);
    } else {
      if (reverse)
        ScanLineT<K, kOp, false, true>(src, dst, n, c, head, stream);
      else
        ScanLineT<K, kOp, false, false>(src, dst, n, c, head, stream);
    }
  });
}

void ScanLineGroupTarget(const ScanType& t, bool reverse, size_t n, bool stream, LineGroup* group) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() {
    using S = StorageT<K>;
    using C = ComputeT<K>;
    TypedLineGroup<K> g;
    for (size_t l = 0; l < kLineGroup; ++l) {
      g.in[l] = static_cast<const S*>(group->in[l]);
      g.out[l] = static_cast<S*>(group->out[l]);
      g.carry[l] = CarryAs<C>(group->carry[l]);
      g.head[l] = group->head[l];
      g.along[l] = static_cast<const S*>(group->along[l]);
      g.along_total[l] = CarryAs<C>(group->along_total[l]);
    }
    if (t.exclusive) {
      if (reverse)
        ScanLineGroupT<K, kOp, true, true>(n, stream, g);
      else
        ScanLineGroupT<K, kOp, true, false>(n, stream, g);
    } else {
      if (reverse)
        ScanLineGroupT<K, kOp, false, true>(n, stream, g);
      else
        ScanLineGroupT<K, kOp, false, false>(n, stream, g);
    }
    for (size_t l = 0; l < kLineGroup; ++l) {
      CarryAs<C>(group->carry[l]) = g.carry[l];
      CarryAs<C>(group->along_total[l]) = g.along_total[l];
    }
  });
}

void ReduceLineTarget(const ScanType& t, const void* in, size_t n, Carry* total) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() {
    ReduceLineT<K, kOp>(static_cast<const StorageT<K>*>(in), n, &CarryAs<ComputeT<K>>(*total));
  });
}

int64_t TargetBit() { return HWY_TARGET; }

}  // namespace opcts::cpu_simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
