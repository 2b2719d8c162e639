#include "reference/accumulation.h"

#include <cmath>

#include "spec/element.h"

namespace opcts {
namespace {

// Accumulation precision of each accuracy tier: Pass needs at least float32 (float64 for
// FLOAT64 data), QualityWarning is accumulation in the output type itself.
DType PassAccumulator(DType t) { return t == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32; }

// The computed bound is itself rounded; widen it slightly so the oracle never judges an exact
// answer as out of bound.
constexpr long double kBoundSlack = 1.0L + 0x1p-20L;

}  // namespace

void FloatTally::Add(long double x, Accumulation op) {
  ++terms;
  if (std::isnan(x)) {
    nan = true;
    return;
  }
  if (std::isinf(x)) {
    (x > 0 ? pos_inf : neg_inf) = true;
    if (x < 0) negative_inf_product = !negative_inf_product;
    return;
  }
  if (op == Accumulation::kSum) {
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

ExpectedElement FloatExpectation(const FloatTally& t, Accumulation op, DType out) {
  ExpectedElement e;
  const DType pass_acc = PassAccumulator(out);
  if (op == Accumulation::kSum) {
    if (t.nan || (t.pos_inf && t.neg_inf)) {
      e.kind = Expect::kNaN;
      return e;
    }
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
    e.pass_bound =
        static_cast<double>((m * UnitRoundoff(pass_acc) * t.abs_sum + tail) * kBoundSlack);
    e.warn_bound = static_cast<double>((m * UnitRoundoff(out) * t.abs_sum + tail) * kBoundSlack);
    // Any partial sum, in any order, is at most abs_sum in magnitude (plus rounding).
    e.pass_overflow_ok =
        t.abs_sum * (1 + m * UnitRoundoff(pass_acc)) >= OverflowThreshold(pass_acc);
    e.warn_overflow_ok = t.abs_sum * (1 + m * UnitRoundoff(out)) >= OverflowThreshold(out);
    return e;
  }
  if (t.nan || ((t.pos_inf || t.neg_inf) && t.zero)) {
    e.kind = Expect::kNaN;
    return e;
  }
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
                                SmallestSubnormal(out) / 2) *
                               kBoundSlack);
  };
  e.kind = Expect::kNear;
  e.value = p;
  e.pass_bound = bound(pass_acc);
  e.warn_bound = bound(out);
  e.pass_overflow_ok =
      t.big_product * (1 + m * UnitRoundoff(pass_acc)) >= OverflowThreshold(pass_acc);
  e.warn_overflow_ok = t.big_product * (1 + m * UnitRoundoff(out)) >= OverflowThreshold(out);
  return e;
}

}  // namespace opcts
