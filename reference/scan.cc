#include "reference/scan.h"

#include <cmath>
#include <limits>

#include "spec/element.h"

namespace opcts {
namespace {

// Accumulation precision of each accuracy tier: Pass needs at least float32 (float64 for
// FLOAT64 data), QualityWarning is accumulation in the output type itself.
DType PassAccumulator(DType t) { return t == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32; }

// The computed bound is itself rounded; widen it slightly so the oracle never judges an exact
// answer as out of bound.
constexpr long double kBoundSlack = 1.0L + 0x1p-20L;

// Running state along one line for floats.
struct FloatTally {
  long double sum = 0, compensation = 0;  // Neumaier-compensated exact-as-possible sum
  long double product = 1;
  long double abs_sum = 0;                // sum of |x|
  long double big_product = 1;            // product of max(|x|, 1): largest partial product
  long double small_product = 1;          // product of min(|x|, 1) over nonzero x: smallest one
  uint64_t terms = 0;
  bool nan = false, pos_inf = false, neg_inf = false, zero = false;
  bool negative_inf_product = false;      // sign of an infinite product

  void Add(long double x, ScanOp op) {
    ++terms;
    if (std::isnan(x)) { nan = true; return; }
    if (std::isinf(x)) {
      (x > 0 ? pos_inf : neg_inf) = true;
      if (x < 0) negative_inf_product = !negative_inf_product;
      return;
    }
    if (op == ScanOp::kSum) {
      const long double t = sum + x;
      compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
      abs_sum += std::fabs(x);
    } else {
      if (x == 0) zero = true;
      if (x < 0) negative_inf_product = !negative_inf_product;
      product *= x;
      big_product *= std::fmax(std::fabs(x), 1.0L);
      if (x != 0) small_product *= std::fmin(std::fabs(x), 1.0L);
    }
  }
};

ExpectedElement FloatExpectation(const FloatTally& t, ScanOp op, DType out) {
  ExpectedElement e;
  const DType pass_acc = PassAccumulator(out);
  if (op == ScanOp::kSum) {
    if (t.nan || (t.pos_inf && t.neg_inf)) { e.kind = Expect::kNaN; return e; }
    // The finite terms may overflow to an infinity of the other sign first.
    const auto overflows = [&](DType acc) {
      return t.abs_sum * (1 + t.terms * UnitRoundoff(acc)) >= OverflowThreshold(acc);
    };
    if (t.pos_inf || t.neg_inf) {
      e.kind = Expect::kBits;
      e.bits = DoubleToBits(out, t.pos_inf ? INFINITY : -INFINITY);
      e.pass_overflow_ok = overflows(pass_acc);
      e.warn_overflow_ok = overflows(out);
      return e;
    }
    const long double s = t.sum + t.compensation;
    // m terms need m - 1 additions, each rounding once, in any summation order.
    const long double m = t.terms > 0 ? static_cast<long double>(t.terms - 1) : 0;
    const long double tail = UnitRoundoff(out) * std::fabs(s) + SmallestSubnormal(out) / 2;
    e.kind = Expect::kNear;
    e.value = s;
    e.pass_bound = static_cast<double>((m * UnitRoundoff(pass_acc) * t.abs_sum + tail) * kBoundSlack);
    e.warn_bound = static_cast<double>((m * UnitRoundoff(out) * t.abs_sum + tail) * kBoundSlack);
    // Any partial sum, in any order, is at most abs_sum in magnitude (plus rounding).
    e.pass_overflow_ok = t.abs_sum * (1 + m * UnitRoundoff(pass_acc)) >= OverflowThreshold(pass_acc);
    e.warn_overflow_ok = t.abs_sum * (1 + m * UnitRoundoff(out)) >= OverflowThreshold(out);
    return e;
  }
  if (t.nan || ((t.pos_inf || t.neg_inf) && t.zero)) { e.kind = Expect::kNaN; return e; }
  if (t.pos_inf || t.neg_inf) {
    // A partial product of the finite factors may underflow to 0 first: 0 * inf is NaN.
    e.kind = Expect::kBits;
    e.bits = DoubleToBits(out, t.negative_inf_product ? -INFINITY : INFINITY);
    e.pass_overflow_ok = t.small_product <= SmallestSubnormal(pass_acc);
    e.warn_overflow_ok = t.small_product <= SmallestSubnormal(out);
    return e;
  }
  const long double p = t.product;
  const long double m = t.terms > 0 ? static_cast<long double>(t.terms - 1) : 0;  // multiplications
  // Relative rounding per factor, plus what an underflowed partial product can lose: each of
  // m roundings errs by at most half a subnormal step of the accumulator, magnified by at most
  // the product of the other factors (order-independent).
  auto bound = [&](DType acc) {
    return static_cast<double>(((m * UnitRoundoff(acc) + UnitRoundoff(out)) * std::fabs(p) +
                                SmallestSubnormal(acc) / 2 * (m + 1) * t.big_product +
                                SmallestSubnormal(out) / 2) * kBoundSlack);
  };
  e.kind = Expect::kNear;
  e.value = p;
  e.pass_bound = bound(pass_acc);
  e.warn_bound = bound(out);
  e.pass_overflow_ok = t.big_product * (1 + m * UnitRoundoff(pass_acc)) >= OverflowThreshold(pass_acc);
  e.warn_overflow_ok = t.big_product * (1 + m * UnitRoundoff(out)) >= OverflowThreshold(out);
  return e;
}

// Integers: unsigned arithmetic wraps modulo 2^n; signed overflow is unconstrained by the specs,
// so once the exact prefix leaves the type's range the element only has to be memory-safe.
struct IntTally {
  uint64_t wrapped;
  __int128 exact;
  bool overflowed = false;
  bool zero = false;  // a zero factor makes every later product exactly 0

  explicit IntTally(ScanOp op) : wrapped(op == ScanOp::kSum ? 0 : 1), exact(op == ScanOp::kSum ? 0 : 1) {}

  void Add(DType t, uint64_t bits, ScanOp op) {
    if (op == ScanOp::kSum) {
      wrapped += bits;
      if (IsSignedInt(t)) exact += BitsToInt64(t, bits);
    } else {
      wrapped *= bits;
      if (IsSignedInt(t)) {
        const int64_t x = BitsToInt64(t, bits);
        if (x == 0) zero = true;
        // Stop tracking the exact product once it is out of range: it stays out (|x| >= 1).
        if (!overflowed && __builtin_mul_overflow(exact, static_cast<__int128>(x), &exact))
          overflowed = true;
      }
    }
    if (IsSignedInt(t) && !zero) {
      const unsigned n = DTypeBits(t);
      const __int128 lo = -(static_cast<__int128>(1) << (n - 1));
      const __int128 hi = (static_cast<__int128>(1) << (n - 1)) - 1;
      if (exact < lo || exact > hi) overflowed = true;
    }
  }
};

ExpectedElement IntExpectation(const IntTally& t, DType out) {
  ExpectedElement e;
  e.bits = t.zero ? 0 : t.wrapped & BitsMask(out);
  e.kind = IsSignedInt(out) && t.overflowed && !t.zero ? Expect::kAny : Expect::kBits;
  return e;
}

}  // namespace

ExpectedTensor ReferenceScan(const TensorData& input, const TensorDesc& output_desc,
                             const std::string& output_name, const ScanParams& params) {
  const TensorDesc& in = input.desc;
  const DType dtype = in.dtype;
  ExpectedTensor result{output_name, output_desc, {}, {}};
  result.elements.resize(ElementCount(in));

  // Logical row-major layout: line = (outer, inner), position along the axis.
  uint64_t inner = 1;
  for (size_t d = params.axis + 1; d < in.sizes.size(); ++d) inner *= in.sizes[d];
  const uint64_t axis_len = in.sizes[params.axis];
  const uint64_t outer = ElementCount(in) / (axis_len * inner);
  const StridedIndexer indexer(in);

  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t i = 0; i < inner; ++i) {
      FloatTally ft;
      IntTally it(params.op);
      for (uint64_t step = 0; step < axis_len; ++step) {
        const uint64_t k = params.reverse ? axis_len - 1 - step : step;
        const uint64_t logical = (o * axis_len + k) * inner + i;
        const uint64_t bits = LoadBits(dtype, input.Element(indexer.BufferIndex(logical)));
        ExpectedElement& out = result.elements[logical];
        if (IsFloat(dtype)) {
          if (params.exclusive) out = FloatExpectation(ft, params.op, dtype);
          ft.Add(BitsToLongDouble(dtype, bits), params.op);
          if (!params.exclusive) out = FloatExpectation(ft, params.op, dtype);
        } else {
          if (params.exclusive) out = IntExpectation(it, dtype);
          it.Add(dtype, bits, params.op);
          if (!params.exclusive) out = IntExpectation(it, dtype);
        }
      }
    }
  }
  return result;
}

}  // namespace opcts
