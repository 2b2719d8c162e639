// Per-target scan kernels (Highway). scan_kernels.cc re-includes this file once per target via
// hwy/foreach_target.h, as in hwy/examples/skeleton; call them through scan_kernels.h.

// Per-target include guard: toggled by foreach_target.h on each re-inclusion.
#if defined(OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_
#undef OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_
#else
#define OPCTS_CPU_SIMD_SCAN_KERNELS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>

#include "cpu_simd/scan_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace opcts::cpu_simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- conversions between storage and compute lanes -----------------------------------------
// Own float16/bfloat16 conversions: Highway 1.0.3's emulated float16 ones (SSE4, SCALAR) drop
// rounding and infinities, and its bfloat16 DemoteTo truncates. These round to nearest even,
// keep subnormals, infinities and NaN, identically on every target.

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

// Stores compute lanes as Lanes(d) elements of kind K, rounding or truncating once.
template <ElemKind K, class D>
HWY_INLINE void StoreElems(D d, hn::Vec<D> v, StorageT<K>* p) {
  if constexpr (std::is_same_v<StorageT<K>, ComputeT<K>>) {
    hn::StoreU(v, d, p);
  } else {
    const hn::Rebind<StorageT<K>, D> ds;
    if constexpr (K == ElemKind::kU8) {
      hn::StoreU(hn::TruncateTo(ds, v), ds, p);
    } else {
      const auto bits = K == ElemKind::kF16 ? FloatToHalfBits(d, v) : FloatToBFloat16Bits(d, v);
      hn::StoreU(hn::TruncateTo(ds, bits), ds, p);
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

template <ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> IdentityVec(D d) {
  return hn::Set(d, Identity<kOp, hn::TFromD<D>>());
}

// v moved kLanes lanes along the scan direction (towards higher lanes, or lower when kReverse),
// the identity filling the vacated lanes. Vectors here are at most 128 bits, so Highway's
// block-local lane shifts move across the whole vector.
template <size_t kLanes, bool kReverse, ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> ShiftInIdentity(D d, hn::Vec<D> v) {
  constexpr size_t kN = hn::MaxLanes(D());
#if HWY_TARGET == HWY_SCALAR
  // One lane and no lane-shift ops: everything shifts out.
  static_assert(kN == 1 && kLanes >= 1);
  (void)v;
  return IdentityVec<kOp>(d);
#else
  if constexpr (kLanes >= kN) {
    return IdentityVec<kOp>(d);
  } else {
    hn::Vec<D> shifted;
    if constexpr (kReverse)
      shifted = hn::ShiftRightLanes<kLanes>(d, v);
    else
      shifted = hn::ShiftLeftLanes<kLanes>(d, v);
    // Zeros are already the identity of an integer sum (not of a float sum: -0.0 is).
    if constexpr (kOp == ScanOp::kSum && !std::is_floating_point_v<hn::TFromD<D>>) {
      return shifted;
    } else {
      const auto vacated = kReverse ? hn::Not(hn::FirstN(d, kN - kLanes)) : hn::FirstN(d, kLanes);
      return hn::IfThenElse(vacated, IdentityVec<kOp>(d), shifted);
    }
  }
#endif
}

// In-register inclusive scan of one vector (Hillis-Steele shift-and-combine).
template <bool kReverse, ScanOp kOp, class D>
HWY_INLINE hn::Vec<D> InclusivePrefix(D d, hn::Vec<D> v) {
  constexpr size_t kN = hn::MaxLanes(D());
  if constexpr (kN >= 2) v = Apply<kOp>(v, ShiftInIdentity<1, kReverse, kOp>(d, v));
  if constexpr (kN >= 4) v = Apply<kOp>(v, ShiftInIdentity<2, kReverse, kOp>(d, v));
  if constexpr (kN >= 8) v = Apply<kOp>(v, ShiftInIdentity<4, kReverse, kOp>(d, v));
  if constexpr (kN >= 16) v = Apply<kOp>(v, ShiftInIdentity<8, kReverse, kOp>(d, v));
  return v;
}

// ---- row recurrence (scan along a non-innermost axis) ----------------------------------------

// Rows are combined kRowGroup at a time, so the running row is loaded and stored once per group
// rather than once per row.
constexpr size_t kRowGroup = 4;

template <ElemKind K, ScanOp kOp, class D>
HWY_INLINE void RowGroupStep(D d, bool exclusive, const StorageT<K>* const* in,
                             StorageT<K>* const* out, size_t rows, size_t x, ComputeT<K>* running) {
  auto r = hn::LoadU(d, running);
  for (size_t k = 0; k < rows; ++k) {
    const auto v = LoadElems<K>(d, in[k] + x);  // before the store: `out` may alias `in`
    if (exclusive) StoreElems<K>(d, r, out[k] + x);
    r = Apply<kOp>(r, v);
    if (!exclusive) StoreElems<K>(d, r, out[k] + x);
  }
  hn::StoreU(r, d, running);
}

template <ElemKind K, ScanOp kOp>
void ScanRowsT(bool exclusive, const RowsJob& job) {
  using S = StorageT<K>;
  using C = ComputeT<K>;
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const size_t n = hn::Lanes(d);
  C* running = static_cast<C*>(job.scratch);
  Carry init = job.init;
  std::fill_n(running, job.width, CarryAs<C>(init));
  for (size_t r = 0; r < job.rows; r += kRowGroup) {
    const size_t rows = std::min(kRowGroup, job.rows - r);
    const S* in[kRowGroup];
    S* out[kRowGroup];
    for (size_t k = 0; k < rows; ++k) {
      const auto row = static_cast<ptrdiff_t>(r + k);
      in[k] = reinterpret_cast<const S*>(job.in + row * job.in_row_step);
      out[k] = reinterpret_cast<S*>(job.out + row * job.out_row_step);
    }
    size_t x = 0;
    for (; x + n <= job.width; x += n)
      RowGroupStep<K, kOp>(d, exclusive, in, out, rows, x, running + x);
    for (; x < job.width; ++x) RowGroupStep<K, kOp>(d1, exclusive, in, out, rows, x, running + x);
  }
}

// ---- in-register line scan (scan along the innermost axis) -----------------------------------

// Scans one vector of the line; returns the carry after it.
template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse, class D>
HWY_INLINE hn::Vec<D> LineStep(D d, const StorageT<K>* in, StorageT<K>* out, hn::Vec<D> carry) {
  const auto prefix = InclusivePrefix<kReverse, kOp>(d, LoadElems<K>(d, in));
  if constexpr (kExclusive) {
    StoreElems<K>(d, Apply<kOp>(carry, ShiftInIdentity<1, kReverse, kOp>(d, prefix)), out);
  } else {
    StoreElems<K>(d, Apply<kOp>(carry, prefix), out);
  }
  constexpr int kLast = kReverse ? 0 : static_cast<int>(hn::MaxLanes(D())) - 1;
  return Apply<kOp>(carry, hn::Broadcast<kLast>(prefix));
}

template <ElemKind K, ScanOp kOp, bool kExclusive, bool kReverse>
void ScanLineT(const StorageT<K>* in, StorageT<K>* out, size_t n, ComputeT<K>* carry_io) {
  using C = ComputeT<K>;
  // 128 bits at most: lane shifts stay within one block on every target.
  const hn::CappedTag<C, 16 / sizeof(C)> d;
  const hn::CappedTag<C, 1> d1;
  const size_t lanes = hn::Lanes(d);
  const size_t tail = n % lanes;
  auto carry = hn::Set(d, *carry_io);
  if constexpr (!kReverse) {
    size_t i = 0;
    for (; i + lanes <= n; i += lanes)
      carry = LineStep<K, kOp, kExclusive, kReverse>(d, in + i, out + i, carry);
    auto carry1 = hn::Set(d1, hn::GetLane(carry));
    for (; i < n; ++i) carry1 = LineStep<K, kOp, kExclusive, kReverse>(d1, in + i, out + i, carry1);
    *carry_io = hn::GetLane(carry1);
  } else {
    // Whole vectors from the end down to `tail`, then the first `tail` elements one by one.
    for (size_t i = n; i > tail;) {
      i -= lanes;
      carry = LineStep<K, kOp, kExclusive, kReverse>(d, in + i, out + i, carry);
    }
    auto carry1 = hn::Set(d1, hn::GetLane(carry));
    for (size_t i = tail; i-- > 0;)
      carry1 = LineStep<K, kOp, kExclusive, kReverse>(d1, in + i, out + i, carry1);
    *carry_io = hn::GetLane(carry1);
  }
}

// ---- reduction (the carry pass of a line split across threads) -------------------------------

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
    acc0 = Apply<kOp>(acc0, LoadElems<K>(d, in + i));
    acc1 = Apply<kOp>(acc1, LoadElems<K>(d, in + i + lanes));
  }
  for (; i + lanes <= n; i += lanes) acc0 = Apply<kOp>(acc0, LoadElems<K>(d, in + i));
  HWY_ALIGN C lane_values[hn::MaxLanes(hn::ScalableTag<C>())];
  hn::Store(Apply<kOp>(acc0, acc1), d, lane_values);
  C t = *total;
  for (size_t l = 0; l < lanes; ++l) t = ApplyScalar<kOp>(t, lane_values[l]);
  for (; i < n; ++i) t = ApplyScalar<kOp>(t, hn::GetLane(LoadElems<K>(d1, in + i)));
  *total = t;
}

// ---- entry points, one per target, exported by scan_kernels.cc -------------------------------

void ScanRowsTarget(const ScanType& t, const RowsJob& job) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() { ScanRowsT<K, kOp>(t.exclusive, job); });
}

void ScanLineTarget(const ScanType& t, bool reverse, const void* in, void* out, size_t n,
                    Carry* carry) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() {
    const auto* src = static_cast<const StorageT<K>*>(in);
    auto* dst = static_cast<StorageT<K>*>(out);
    ComputeT<K>* c = &CarryAs<ComputeT<K>>(*carry);
    if (t.exclusive) {
      if (reverse)
        ScanLineT<K, kOp, true, true>(src, dst, n, c);
      else
        ScanLineT<K, kOp, true, false>(src, dst, n, c);
    } else {
      if (reverse)
        ScanLineT<K, kOp, false, true>(src, dst, n, c);
      else
        ScanLineT<K, kOp, false, false>(src, dst, n, c);
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
