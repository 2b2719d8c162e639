#include "reference/accumulation.h"

#include <algorithm>
#include <cmath>

#include "spec/element.h"

namespace opcts {
namespace {

// The computed bounds are themselves rounded; widen them slightly so the oracle never judges
// an exact answer as out of bound.
constexpr long double kBoundSlack = 1.0L + 0x1p-20L;

// (1 + u)^k - 1: the relative error of k roundings, each within u (no first-order shortcut:
// long float16 accumulations have k * u well above 1).
long double Growth(uint64_t k, long double u) {
  return std::expm1(static_cast<long double>(k) * std::log1p(u));
}

// The last rounding into `out` of a result within `error` of `exact`.
long double FinalRounding(DType out, long double exact, long double error) {
  return UlpAt(out, std::fabs(exact) + error) / 2;
}

uint8_t InfinityOf(bool negative) { return negative ? kNegInf : kPosInf; }
uint8_t ZeroOf(bool negative) { return negative ? kNegZero : kPosZero; }

ExpectedElement Exactly(DType out, long double v) {
  ExpectedElement e;
  e.kind = Expect::kBits;
  e.bits = DoubleToBits(out, static_cast<double>(v));
  return e;
}

ExpectedElement AnyNaN() {
  ExpectedElement e;
  e.kind = Expect::kNaN;
  return e;
}

// The worst error of a sequential accumulation in precision u, terms added largest first:
// the k-th addition errs by at most min(|x_k|, u * |partial sum|) (round to nearest keeps the
// larger operand within |x_k|). Terms are grouped by binade, so each group's partial sums are
// bounded from above by the sum before it plus j times the binade's top. Unlike m * u * sum|x|
// it stays below the result on axes longer than 1/u (a float16 sum of 4096 terms).
long double SequentialBound(const FloatTally& t, long double u) {
  long double before = 0, bound = 0;
  for (auto it = t.binades.rbegin(); it != t.binades.rend(); ++it) {
    const auto [count, group_sum] = it->second;
    const long double top = std::ldexp(1.0L, it->first + 1);
    // Additions j < first_full err by at most u * (before + j * top); the rest by top.
    const long double first_full = std::max(1.0L, std::ceil(1 / u - before / top));
    const long double partial = std::min(static_cast<long double>(count), first_full - 1);
    const long double error = u * (partial * before + top * partial * (partial + 1) / 2) +
                              (static_cast<long double>(count) - partial) * top;
    bound += std::min(error, group_sum);
    before += group_sum;
  }
  return bound;
}

ExpectedElement SumExpectation(const FloatTally& t, DType out) {
  if (t.nan || (t.pos_inf && t.neg_inf)) return AnyNaN();
  const DType acc = PassAccumulator(out);
  const uint64_t additions = t.terms > 0 ? t.terms - 1 : 0;
  // An accumulator overflows to +inf in some order exactly when the positive terms, added
  // first, reach its threshold (likewise -inf); both in one order make inf - inf = NaN.
  const auto overflows = [&](DType d) {
    const long double grown = 1 + Growth(additions, UnitRoundoff(d));
    uint8_t s = 0;
    if (t.positive_sum * grown >= OverflowThreshold(d)) s |= kPosInf;
    if (t.negative_sum * grown >= OverflowThreshold(d)) s |= kNegInf;
    if (s == (kPosInf | kNegInf)) s |= kAnyNaN;
    return s;
  };
  const uint8_t pass_overflows = overflows(acc), warn_overflows = overflows(out);
  if (t.pos_inf || t.neg_inf) {
    // The infinity survives every finite partial sum, except one that overflowed the other way.
    ExpectedElement e = Exactly(out, t.pos_inf ? INFINITY : -INFINITY);
    const uint8_t other = InfinityOf(t.pos_inf);
    e.pass.specials = pass_overflows & other ? kAnyNaN : 0;
    e.warn.specials = warn_overflows & other ? kAnyNaN : 0;
    return e;
  }
  if (t.zeros == t.terms)  // exact: -0 + -0 is the only sum that is -0; the empty sum is +0
    return Exactly(out, t.terms > 0 && t.negative_zeros == t.terms ? -0.0L : 0.0L);
  if (t.terms == 1) {  // copied as is; a platform that flushes may zero a subnormal
    ExpectedElement e = Exactly(out, t.sum);
    if (std::fabs(t.sum) < SmallestNormal(acc)) e.flush_specials = ZeroOf(std::signbit(t.sum));
    return e;
  }
  const long double s = t.sum + t.compensation;
  const long double abs_sum = t.positive_sum + t.negative_sum;
  const auto bound = [&](long double error) {
    return static_cast<double>((error + FinalRounding(out, s, error)) * kBoundSlack);
  };
  const long double u_acc = UnitRoundoff(acc), u_out = UnitRoundoff(out);
  const long double pass_error = Growth(additions, u_acc) * abs_sum;
  long double warn_error = Growth(additions, u_out) * abs_sum;
  if (additions * u_out > 1.0L / 16) warn_error = std::min(warn_error, SequentialBound(t, u_out));

  ExpectedElement e;
  e.kind = Expect::kNear;
  e.value = s;  // a zero result is +0: x + (-x) is +0 in round-to-nearest, whatever the order
  e.pass = {bound(pass_error), pass_overflows};
  e.warn = {bound(warn_error), warn_overflows};
  // Every partial sum is a multiple of the finest term's ULP: only if that is below the
  // smallest normal can a term or a partial sum be subnormal, flush (losing less than the
  // smallest normal each time), and leave a zero of either sign.
  if (UlpAt(acc, t.min_magnitude) < SmallestNormal(acc)) {
    e.flush_extra = static_cast<double>(2 * t.terms * SmallestNormal(acc));
    e.flush_specials = kZeroEitherSign;
  }
  // Truncation errs by up to a whole ULP per addition; an overflowing partial saturates at the
  // largest finite value, after which the result is bounded only by the range.
  e.truncate_extra = bound(Growth(additions, 2 * u_acc) * abs_sum) - e.pass.bound;
  e.truncate_specials = pass_overflows != 0 ? kAnyFinite : 0;
  return e;
}

ExpectedElement ProductExpectation(const FloatTally& t, DType out) {
  if (t.nan || ((t.pos_inf || t.neg_inf) && t.zero)) return AnyNaN();  // inf * 0 in every order
  const DType acc = PassAccumulator(out);
  const uint64_t multiplications = t.terms > 0 ? t.terms - 1 : 0;
  const auto grown = [&](DType d) { return Growth(multiplications, UnitRoundoff(d)); };
  // The largest subset product overflows / the smallest underflows in some order; a partial
  // product in the subnormal range may round down by one subnormal step first.
  const auto overflows = [&](DType d) {
    return t.big_product * (1 + grown(d)) >= OverflowThreshold(d);
  };
  const auto underflows = [&](DType d) {
    return t.small_product * (1 - grown(d)) <= SmallestSubnormal(d);
  };
  const bool flush_underflows = t.small_product * (1 - grown(acc)) < SmallestNormal(acc);
  if (t.pos_inf || t.neg_inf) {  // the infinity survives unless a partial product reaches 0
    ExpectedElement e = Exactly(out, t.negative ? -INFINITY : INFINITY);
    e.pass.specials = underflows(acc) ? kAnyNaN : 0;
    e.warn.specials = underflows(out) ? kAnyNaN : 0;
    e.flush_specials = flush_underflows ? kAnyNaN : 0;
    return e;
  }
  if (t.zero) {  // exactly a signed zero, unless a partial product reaches inf first
    ExpectedElement e = Exactly(out, t.negative ? -0.0L : 0.0L);
    e.pass.specials = overflows(acc) ? kAnyNaN : 0;
    e.warn.specials = overflows(out) ? kAnyNaN : 0;
    return e;
  }
  if (t.terms <= 1) {  // the empty product is 1; one factor is copied as is
    ExpectedElement e = Exactly(out, t.product);
    if (std::fabs(t.product) < SmallestNormal(acc)) e.flush_specials = ZeroOf(t.negative);
    return e;
  }
  const long double p = t.product;
  const auto specials = [&](DType d) {
    const bool over = overflows(d), under = underflows(d);
    return static_cast<uint8_t>((over ? InfinityOf(t.negative) : 0) |
                                (under ? ZeroOf(t.negative) : 0) | (over && under ? kAnyNaN : 0));
  };
  // Normal partial products err relatively. A subnormal one errs by up to half a subnormal
  // step, magnified by the factors multiplied after it (at most the largest subset product);
  // it is only counted when some subset product falls in the subnormal range.
  const auto bound = [&](DType d, long double u) {
    const long double subnormal = SmallestSubnormal(d);
    const long double log2_slack = std::log2(1 + grown(d));
    const bool gradual = t.subset_products.Meets(std::log2(subnormal / 2) - log2_slack,
                                                 std::log2(SmallestNormal(d)) + log2_slack);
    const long double error = Growth(multiplications, u) * std::fabs(p) +
                              (gradual ? multiplications * subnormal / 2 * t.big_product : 0);
    return static_cast<double>((error + FinalRounding(out, p, error)) * kBoundSlack);
  };
  ExpectedElement e;
  e.kind = Expect::kNear;
  e.value = p;
  e.negative = t.negative;
  e.sign_exact = true;
  e.pass = {bound(acc, UnitRoundoff(acc)), specials(acc)};
  e.warn = {bound(out, UnitRoundoff(out)), specials(out)};
  // Flushing turns every subnormal partial product into a signed zero.
  e.flush_specials = flush_underflows ? ZeroOf(t.negative) | (overflows(acc) ? kAnyNaN : 0) : 0;
  e.truncate_extra = bound(acc, 2 * UnitRoundoff(acc)) - e.pass.bound;
  e.truncate_specials = overflows(acc) ? kAnyFinite : 0;
  return e;
}

}  // namespace

DType PassAccumulator(DType out) {
  return out == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32;
}

void SubsetLog2Products::Add(long double log2_magnitude) {
  std::vector<std::pair<long double, long double>> all = spans_;
  for (const auto& [lo, hi] : spans_) all.emplace_back(lo + log2_magnitude, hi + log2_magnitude);
  std::sort(all.begin(), all.end());
  spans_.clear();
  for (const auto& span : all) {
    if (!spans_.empty() && span.first - spans_.back().second < kMergeGap)
      spans_.back().second = std::max(spans_.back().second, span.second);
    else
      spans_.push_back(span);
  }
  // Pathological factors (many far-apart magnitudes): one span, which only widens the bound.
  if (spans_.size() > kMaxSpans) spans_ = {{spans_.front().first, spans_.back().second}};
}

bool SubsetLog2Products::Meets(long double lo, long double hi) const {
  return std::any_of(spans_.begin(), spans_.end(),
                     [&](const auto& span) { return span.first < hi && span.second >= lo; });
}

void FloatTally::Add(long double x, Accumulation op) {
  ++terms;
  if (std::isnan(x)) {
    nan = true;
    return;
  }
  if (std::isinf(x)) {
    (x > 0 ? pos_inf : neg_inf) = true;
    if (x < 0) negative = !negative;
    return;
  }
  if (op == Accumulation::kSum) {
    const long double t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
    (x > 0 ? positive_sum : negative_sum) += std::fabs(x);
    if (x == 0) {
      ++zeros;
      if (std::signbit(x)) ++negative_zeros;
    } else {
      min_magnitude = std::fmin(min_magnitude, std::fabs(x));
      auto& [count, binade_sum] = binades[std::ilogb(x)];
      ++count;
      binade_sum += std::fabs(x);
    }
    return;
  }
  if (std::signbit(x)) negative = !negative;
  if (x == 0) {
    zero = true;
    return;
  }
  product *= x;
  big_product *= std::fmax(std::fabs(x), 1.0L);
  small_product *= std::fmin(std::fabs(x), 1.0L);
  subset_products.Add(std::log2(std::fabs(x)));
}

ExpectedElement FloatExpectation(const FloatTally& t, Accumulation op, DType out) {
  return op == Accumulation::kSum ? SumExpectation(t, out) : ProductExpectation(t, out);
}

}  // namespace opcts
