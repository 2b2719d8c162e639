// The cpu-simd scan kernels: one Highway-dispatched translation unit (scan_kernels.cc, kernels in
// scan_kernels-inl.h), called through these plain functions. Each runs on one thread; scan.cc
// splits the work.
//
//   ScanType t{ElemKind::kF32, ScanOp::kSum, /*exclusive=*/false};
//   Carry carry = IdentityCarry(t);
//   ScanLine(BestTarget(), t, /*reverse=*/false, in, out, n, &carry, /*head=*/true,
//            /*stream=*/false);
//   // carry: the line's total
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cpu_simd/simd_target.h"

namespace opcts::cpu_simd {

// Storage classes: signed integers share the unsigned kernels (two's complement arithmetic wraps
// identically and unsigned types have no overflow UB); float16/bfloat16 differ only in conversion.
enum class ElemKind : uint8_t { kF32, kF64, kF16, kBF16, kU8, kU16, kU32, kU64 };
enum class ScanOp : uint8_t { kSum, kProduct };

struct ScanType {
  ElemKind kind;
  ScanOp op;
  bool exclusive;
};

// Storage and accumulation types. Halves accumulate in float32 and round once on store; 8-bit
// integers accumulate in uint16 because SIMD has no 8-bit multiply (the low byte is exact).
template <ElemKind K>
struct KindTraits;
template <>
struct KindTraits<ElemKind::kF32> {
  using Storage = float;
  using Compute = float;
};
template <>
struct KindTraits<ElemKind::kF64> {
  using Storage = double;
  using Compute = double;
};
template <>
struct KindTraits<ElemKind::kF16> {
  using Storage = uint16_t;
  using Compute = float;
};
template <>
struct KindTraits<ElemKind::kBF16> {
  using Storage = uint16_t;
  using Compute = float;
};
template <>
struct KindTraits<ElemKind::kU8> {
  using Storage = uint8_t;
  using Compute = uint16_t;
};
template <>
struct KindTraits<ElemKind::kU16> {
  using Storage = uint16_t;
  using Compute = uint16_t;
};
template <>
struct KindTraits<ElemKind::kU32> {
  using Storage = uint32_t;
  using Compute = uint32_t;
};
template <>
struct KindTraits<ElemKind::kU64> {
  using Storage = uint64_t;
  using Compute = uint64_t;
};

// The running value carried between pieces of one line, in the compute type.
union Carry {
  float f32;
  double f64;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
};

template <class C>
C& CarryAs(Carry& c) {
  if constexpr (std::is_same_v<C, float>)
    return c.f32;
  else if constexpr (std::is_same_v<C, double>)
    return c.f64;
  else if constexpr (std::is_same_v<C, uint16_t>)
    return c.u16;
  else if constexpr (std::is_same_v<C, uint32_t>)
    return c.u32;
  else
    return c.u64;
}

// a op b in the compute type; small unsigned types are widened first so `*` cannot overflow int.
template <ScanOp kOp, class C>
C ApplyScalar(C a, C b) {
  if constexpr (std::is_integral_v<C> && sizeof(C) < sizeof(unsigned))
    return static_cast<C>(kOp == ScanOp::kSum ? unsigned{a} + b : unsigned{a} * b);
  else
    return kOp == ScanOp::kSum ? a + b : a * b;
}

// The neutral element, where every line's running value starts. A float sum uses -0.0 so that
// x + identity == x for x == -0.0 too: an inclusive scan copies its first element as is, and a
// sum of -0.0 alone stays -0.0 (IEEE: x + y is -0.0 only when both are). An exclusive float sum
// still writes +0.0, the empty sum, at the line's head (the kernels' LineStep and
// EmptySumRowStep).
template <ScanOp kOp, class C>
constexpr C Identity() {
  if constexpr (kOp == ScanOp::kProduct)
    return C(1);
  else if constexpr (std::is_floating_point_v<C>)
    return C(-0.0);
  else
    return C(0);
}

// Calls f.template operator()<K, kOp>() for the runtime (kind, op).
template <class F>
void VisitKindOp(ElemKind kind, ScanOp op, F&& f) {
  auto with_kind = [&]<ElemKind K>() {
    if (op == ScanOp::kSum)
      f.template operator()<K, ScanOp::kSum>();
    else
      f.template operator()<K, ScanOp::kProduct>();
  };
  switch (kind) {
    case ElemKind::kF32:
      return with_kind.template operator()<ElemKind::kF32>();
    case ElemKind::kF64:
      return with_kind.template operator()<ElemKind::kF64>();
    case ElemKind::kF16:
      return with_kind.template operator()<ElemKind::kF16>();
    case ElemKind::kBF16:
      return with_kind.template operator()<ElemKind::kBF16>();
    case ElemKind::kU8:
      return with_kind.template operator()<ElemKind::kU8>();
    case ElemKind::kU16:
      return with_kind.template operator()<ElemKind::kU16>();
    case ElemKind::kU32:
      return with_kind.template operator()<ElemKind::kU32>();
    case ElemKind::kU64:
      return with_kind.template operator()<ElemKind::kU64>();
  }
}

inline Carry IdentityCarry(const ScanType& t) {
  Carry c{};
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() {
    using C = typename KindTraits<K>::Compute;
    CarryAs<C>(c) = Identity<kOp, C>();
  });
  return c;
}

// a op b.
inline Carry Combine(const ScanType& t, Carry a, Carry b) {
  VisitKindOp(t.kind, t.op, [&]<ElemKind K, ScanOp kOp>() {
    using C = typename KindTraits<K>::Compute;
    CarryAs<C>(a) = ApplyScalar<kOp>(CarryAs<C>(a), CarryAs<C>(b));
  });
  return a;
}

// Rows of `width` contiguous elements, `rows` of them along the scan axis from the line's head,
// each row combined element-wise into a running row that starts at the identity:
// out_row[r] = out_row[r-1] op in_row[r] (vectorized across the row). Steps are in bytes and may
// be negative (decreasing direction) or 0 (broadcast input).
struct RowsJob {
  const unsigned char* in;
  unsigned char* out;
  ptrdiff_t in_row_step;
  ptrdiff_t out_row_step;
  size_t rows;
  size_t width;
  void* scratch;  // width compute-type elements (at most 8 bytes each), owned by the caller
  bool stream;    // output stores bypass the caches (an output larger than the caches)
  // AMD Zen 5 (IsAmdZen5): groups of rows step one cache line of each row and prefetch into L1.
  // One flag for both: with a flag of its own for the prefetch, the compiler no longer folded the
  // prefetch level into the step loops, and AVX3 float32 rows along axis 0 ran 0.93-0.98x as fast
  // (bench/results/prefetch-level-zen5-ab.md).
  bool zen5 = false;
};
void ScanRows(SimdTarget target, const ScanType& t, const RowsJob& job);

// The x86 family number (cpuid leaf 1, the extended family added) of an AMD CPU, 0 on any other.
// Inline, the detection (cpuid) done once: the line kernel asks it for every line.
unsigned DetectAmdFamily();
inline unsigned AmdFamily() {
  static const unsigned family = DetectAmdFamily();
  return family;
}

// AMD family 1Ah (Zen 5), where groups of rows step one cache line of each row (RowsJob), and the
// line scans and those groups prefetch their input into L1 (PrefetchInputAhead; NarrowRows not).
inline bool IsAmdZen5() { return AmdFamily() == 0x1A; }

// AMD family 19h on AVX-512 (Zen 4, which runs 512-bit operations as two 256-bit halves): lines
// of float16, one at a time or side by side, scan 256-bit vectors of 8 float32 lanes, three
// `valignd` (AVX-512VL) and four adds per 8, where a 512-bit vector takes four and five per 16.
// In cache a float16 line there is bound by its arithmetic
// (bench/results/roofline-zen4-9fd6fea.md); one thread runs it 1.2x as fast as on the 512-bit
// loop, one line at a time or side by side (bench/results/float16-ymm-window-zen4.md,
// float16-ymm-side-by-side-zen4.md).
inline bool HalfWidthFloat16Lines() { return AmdFamily() == 0x19; }

// Where lines are scanned one after the other while their stores stream, never side by side
// (ScanLineGroup): AMD. On Zen 4, four lines' streaming stores interleaved were the slower, the
// narrower each store: one line at a time ran float16 lines from memory 1.1-4.9x as fast (AVX2's
// 16-byte stores the most), AVX2 4- and 8-byte lines 1.1-2.2x, AVX3 inner and strided ones
// 0.83-1.35x, AVX3 1d ones 0.82-0.96x against a control of 0.96-1.05x
// (bench/results/side-by-side-streams-zen4-ab.md). On Intel Granite Rapids side by side gained
// 1.1-1.4x. Zen 5 was not measured: a loss like Zen 4's would cost more there than that gain.
inline bool LinesApartWhileStreaming() { return AmdFamily() != 0; }

// How far ahead, in scan order, the scans prefetch their input. For the line scan, with the
// hardware prefetchers alone, float16 lines scanned from memory ran at 0.3x of the copy limit
// and float32 ones at 0.8-0.9x; with this, 0.7-1.15x and 1.1-2.1x (same-run A/B, Sapphire
// Rapids, bench/results/prefetch-ab.md). 4 KiB and 8 KiB measured alike.
constexpr ptrdiff_t kPrefetchBytes = 8192;

// One contiguous line of n elements, scanned in registers; *carry comes in as the running value
// before the line and goes out as the value after it. `reverse` walks from the end. `head`: the
// n elements start the line (in scan order), *carry is the identity and an exclusive float sum
// writes +0.0 first; false for the later pieces of a line split across threads. `stream`: output
// stores bypass the caches, and the caller calls hwy::FlushStream() before another thread may
// read them: once per run of lines, as a fence waits for the stores to reach memory (one per
// 16 KiB line cost a thread 11% of its GB/s on Zen 5: bench/results/line-fence-ab.md). Each
// vector prefetches into L2 the input kPrefetchBytes after it in scan order.
void ScanLine(SimdTarget target, const ScanType& t, bool reverse, const void* in, void* out,
              size_t n, Carry* carry, bool head, bool stream);

// kLineGroup lines of n contiguous elements each, each as ScanLine: where the kernel has a
// side-by-side loop (AVX-512's whole vectors, vectors of two blocks), it scans a vector of each
// line in turn, else one line after the other. A line's scan puts a chain of shuffles and combines
// between each load and its store; one line at a time, that held the line loop to 0.79-0.80 of a
// prefetching streaming copy on Intel Granite Rapids, four lines side by side ran 0.96-0.98
// (bench/results/lines-side-by-side-ab.md). Not while streaming on AMD (LinesApartWhileStreaming).
// RunLines scans whole lines four at a time (in place each alone: slower side by side);
// ScanSplitLine a piece of a long line as four quarters.
inline constexpr size_t kLineGroup = 4;
struct LineGroup {
  const void* in[kLineGroup];
  void* out[kLineGroup];
  Carry carry[kLineGroup];  // in: the running value before each line; out: after it
  bool head[kLineGroup];    // as ScanLine's `head`
  // Null for every line, or n more elements for each (a split line's next piece's quarter):
  // along_total[l] = along_total[l] op (combination of them), reduced in the same pass. The
  // lines' own input is then taken to be in cache, and `along` is prefetched instead, into L1,
  // kPrefetchBytes ahead.
  const void* along[kLineGroup];
  Carry along_total[kLineGroup];
};
void ScanLineGroup(SimdTarget target, const ScanType& t, bool reverse, size_t n, bool stream,
                   LineGroup* group);

// *total = *total op (combination of the n contiguous elements at `in`).
void ReduceLine(SimdTarget target, const ScanType& t, const void* in, size_t n, Carry* total);

// "1.0.3": the Highway the plugin was compiled against.
std::string HighwayVersion();
// The best compiled target this CPU supports: what an instance runs unless `target=` says.
SimdTarget BestTarget();
// The compiled target called `name` ("AVX2"), or 0 when it is not compiled in or this CPU lacks it.
SimdTarget FindTarget(const std::string& name);
// Highway's name of the target the kernels' dispatch table gives for `target` (asked of the
// dispatched code itself, so it names what really runs).
const char* DispatchedTargetName(SimdTarget target);
// The targets compiled into the plugin, best first, space-separated.
std::string CompiledTargetNames();

}  // namespace opcts::cpu_simd
