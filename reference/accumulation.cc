#include "reference/accumulation.h"

#include <algorithm>
#include <cmath>

#include "spec/element.h"

namespace opcts {
namespace {

// The computed bounds are themselves rounded; widen them slightly so the oracle never judges
// an exact answer as out of bound.
constexpr long double kBoundSlack = 1.0L + 0x1p-20L;

// A float type's constants, looked up once per element rather than recomputed.
struct Limits {
  long double u, threshold, normal;
  double log2_subnormal, log2_normal, log2_threshold;
};

Limits MakeLimits(DType t) {
  return {UnitRoundoff(t),
          OverflowThreshold(t),
          SmallestNormal(t),
          static_cast<double>(std::ilogb(SmallestSubnormal(t))),
          static_cast<double>(std::ilogb(SmallestNormal(t))),
          static_cast<double>(std::log2(OverflowThreshold(t)))};
}

const Limits& LimitsOf(DType t) {
  static const Limits f64 = MakeLimits(DType::kFloat64), f32 = MakeLimits(DType::kFloat32),
                      f16 = MakeLimits(DType::kFloat16), bf16 = MakeLimits(DType::kBFloat16);
  switch (t) {
    case DType::kFloat64:
      return f64;
    case DType::kFloat16:
      return f16;
    case DType::kBFloat16:
      return bf16;
    default:
      return f32;
  }
}

// (1 + u)^k - 1: the relative error of k roundings, each within u. Below k * u = 1/2 Higham's
// gamma k*u / (1 - k*u) bounds it cheaply; above (long float16 accumulations) it is computed.
long double Growth(uint64_t k, long double u) {
  const long double ku = static_cast<long double>(k) * u;
  return ku <= 0.5L ? ku / (1 - ku) : std::expm1(static_cast<long double>(k) * std::log1p(u));
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
// larger operand within |x_k|). Terms are grouped by binade: the j-th of a group is at most the
// group's largest, and the partial sum before it at most the sum before the group plus j times
// that; the terms past the crossover are the group's smallest, so they sum to at most their
// share of the group's sum. Unlike m * u * sum|x| it stays below the result on axes longer
// than 1/u (a float16 sum of 4096 terms).
long double SequentialBound(const FloatTally& t, long double u) {
  long double before = 0, bound = 0;
  for (auto it = t.binades.rbegin(); it != t.binades.rend(); ++it) {
    const long double count = static_cast<long double>(it->count), top = it->largest;
    // Additions j < first_full err by at most u * (before + j * top); the rest by their term.
    const long double first_full = std::max(1.0L, std::ceil(1 / u - before / top));
    const long double partial = std::min(count, first_full - 1);
    const long double error = u * (partial * before + top * partial * (partial + 1) / 2) +
                              (count - partial) / count * it->sum;
    bound += std::min(error, it->sum);
    before += it->sum;
  }
  return bound;
}

ExpectedElement SumExpectation(const FloatTally& t, DType out) {
  if (t.nan || (t.pos_inf && t.neg_inf)) return AnyNaN();
  const DType acc = PassAccumulator(out);
  const Limits &pass_limits = LimitsOf(acc), &out_limits = LimitsOf(out);
  const uint64_t additions = t.terms > 0 ? t.terms - 1 : 0;
  const long double pass_growth = Growth(additions, pass_limits.u);
  const long double warn_growth = Growth(additions, out_limits.u);
  // An accumulator overflows to +inf in some order exactly when the positive terms, added
  // first, reach its threshold (likewise -inf); both in one order make inf - inf = NaN.
  const auto overflows = [&](const Limits& l, long double growth) {
    uint8_t s = 0;
    if (t.positive_sum * (1 + growth) >= l.threshold) s |= kPosInf;
    if (t.negative_sum * (1 + growth) >= l.threshold) s |= kNegInf;
    if (s == (kPosInf | kNegInf)) s |= kAnyNaN;
    return s;
  };
  const uint8_t pass_overflows = overflows(pass_limits, pass_growth);
  const uint8_t warn_overflows = overflows(out_limits, warn_growth);
  if (t.pos_inf || t.neg_inf) {
    // The infinity survives every finite partial sum, except one that overflowed the other way.
    ExpectedElement e = Exactly(out, t.pos_inf ? INFINITY : -INFINITY);
    const uint8_t other = InfinityOf(t.pos_inf);
    e.pass_specials = pass_overflows & other ? kAnyNaN : 0;
    e.warn_specials = warn_overflows & other ? kAnyNaN : 0;
    return e;
  }
  if (t.zeros == t.terms)  // exact: -0 + -0 is the only sum that is -0; the empty sum is +0
    return Exactly(out, t.terms > 0 && t.negative_zeros == t.terms ? -0.0L : 0.0L);
  if (t.terms == 1) {  // copied as is; a platform that flushes may zero a subnormal
    ExpectedElement e = Exactly(out, t.sum);
    if (std::fabs(t.sum) < pass_limits.normal) e.flush_specials = ZeroOf(std::signbit(t.sum));
    return e;
  }
  const long double s = t.sum + t.compensation;
  const long double abs_sum = t.positive_sum + t.negative_sum;
  const auto bound = [&](long double error) {
    return static_cast<double>((error + FinalRounding(out, s, error)) * kBoundSlack);
  };
  long double warn_error = warn_growth * abs_sum;
  if (additions * out_limits.u > 0.5L)  // below, m * u * sum|x| is well under the result
    warn_error = std::min(warn_error, SequentialBound(t, out_limits.u));

  ExpectedElement e;
  e.kind = Expect::kNear;
  e.value = s;  // a zero result is +0: x + (-x) is +0 in round-to-nearest, whatever the order
  e.pass_bound = bound(pass_growth * abs_sum);
  e.warn_bound = bound(warn_error);
  e.pass_specials = pass_overflows;
  e.warn_specials = warn_overflows;
  // Every partial sum is a multiple of the finest term's ULP: only if that is below the
  // smallest normal (the term below 2^(p-1) normals) can a term or a partial sum be
  // subnormal, flush (losing less than the smallest normal each time) and leave a zero of
  // either sign.
  if (t.min_magnitude < pass_limits.normal / (2 * pass_limits.u)) {
    e.flush_extra = static_cast<double>(2 * t.terms * pass_limits.normal);
    e.flush_specials = kZeroEitherSign;
  }
  // Truncation errs by up to a whole ULP per addition; an overflowing partial saturates at the
  // largest finite value, after which the result is bounded only by the range.
  e.truncate_extra = static_cast<double>((Growth(additions, 2 * pass_limits.u) - pass_growth) *
                                         abs_sum * kBoundSlack);
  e.truncate_specials = pass_overflows != 0 ? kAnyFinite : 0;
  return e;
}

// What the factors' subset products reach in one accumulator type.
struct ProductReach {
  bool overflows = false;   // the largest subset product reaches infinity
  bool underflows = false;  // the smallest reaches zero
  bool flushes = false;     // the smallest is below the smallest normal
  bool gradual = false;     // some subset product is subnormal
};

ProductReach Reach(const FloatTally& t, const Limits& l, long double growth) {
  // In log2, widened by the growth of the roundings (log2(1 + g) <= g / ln 2). A partial
  // product in the subnormal range may round down by one subnormal step first.
  const double slack = static_cast<double>(growth / M_LN2);
  const double smallest = t.subset_products.Smallest(), largest = t.subset_products.Largest();
  return {largest + slack >= l.log2_threshold, smallest - slack <= l.log2_subnormal,
          smallest - slack < l.log2_normal,
          t.subset_products.Meets(l.log2_subnormal - 1 - slack, l.log2_normal + slack)};
}

ExpectedElement ProductExpectation(const FloatTally& t, DType out) {
  if (t.nan || ((t.pos_inf || t.neg_inf) && t.zero)) return AnyNaN();  // inf * 0 in every order
  const DType acc = PassAccumulator(out);
  const Limits &pass_limits = LimitsOf(acc), &out_limits = LimitsOf(out);
  const uint64_t multiplications = t.terms > 0 ? t.terms - 1 : 0;
  const long double pass_growth = Growth(multiplications, pass_limits.u);
  const long double warn_growth = Growth(multiplications, out_limits.u);
  const ProductReach pass = Reach(t, pass_limits, pass_growth);
  const ProductReach warn = Reach(t, out_limits, warn_growth);
  if (t.pos_inf || t.neg_inf) {  // the infinity survives unless a partial product reaches 0
    ExpectedElement e = Exactly(out, t.negative ? -INFINITY : INFINITY);
    e.pass_specials = pass.underflows ? kAnyNaN : 0;
    e.warn_specials = warn.underflows ? kAnyNaN : 0;
    e.flush_specials = t.terms > 1 && pass.flushes ? kAnyNaN : 0;
    return e;
  }
  if (t.zero) {  // exactly a signed zero, unless a partial product reaches inf first
    ExpectedElement e = Exactly(out, t.negative ? -0.0L : 0.0L);
    e.pass_specials = pass.overflows ? kAnyNaN : 0;
    e.warn_specials = warn.overflows ? kAnyNaN : 0;
    return e;
  }
  if (t.terms <= 1) {  // the empty product is 1; one factor is copied as is
    ExpectedElement e = Exactly(out, t.product);
    if (std::fabs(t.product) < pass_limits.normal) e.flush_specials = ZeroOf(t.negative);
    return e;
  }
  const long double p = t.product;
  const auto specials = [&](const ProductReach& r) {
    return static_cast<uint8_t>((r.overflows ? InfinityOf(t.negative) : 0) |
                                (r.underflows ? ZeroOf(t.negative) : 0) |
                                (r.overflows && r.underflows ? kAnyNaN : 0));
  };
  // Normal partial products err relatively. A subnormal one errs by up to half a subnormal
  // step, magnified by the factors multiplied after it (at most the largest subset product);
  // that is only counted when some subset product is subnormal.
  const auto bound = [&](const Limits& l, const ProductReach& r, long double growth) {
    long double error = growth * std::fabs(p);
    if (r.gradual) {
      const double log2_allowance = std::log2(static_cast<double>(multiplications)) +
                                    l.log2_subnormal - 1 + t.subset_products.Largest();
      error += std::exp2(std::fmin(log2_allowance, 1000.0));  // beyond: every finite value
    }
    return static_cast<double>((error + FinalRounding(out, p, error)) * kBoundSlack);
  };
  ExpectedElement e;
  e.kind = Expect::kNear;
  e.value = p;
  e.negative = t.negative;
  e.sign_exact = true;
  e.pass_bound = bound(pass_limits, pass, pass_growth);
  e.warn_bound = bound(out_limits, warn, warn_growth);
  e.pass_specials = specials(pass);
  e.warn_specials = specials(warn);
  // Flushing turns every subnormal partial product into a signed zero.
  e.flush_specials = pass.flushes ? ZeroOf(t.negative) | (pass.overflows ? kAnyNaN : 0) : 0;
  e.truncate_extra = static_cast<double>(
      (Growth(multiplications, 2 * pass_limits.u) - pass_growth) * std::fabs(p) * kBoundSlack);
  e.truncate_specials = pass.overflows ? kAnyFinite : 0;
  return e;
}

}  // namespace

DType PassAccumulator(DType out) {
  return out == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32;
}

void SubsetLog2Products::Add(double log2_magnitude) {
  if (std::fabs(log2_magnitude) < kMergeGap) {
    // Each span and its shift overlap or lie closer than the gap: they merge into one.
    for (auto& [lo, hi] : spans_) {
      lo += std::fmin(log2_magnitude, 0);
      hi += std::fmax(log2_magnitude, 0);
    }
  } else {
    const size_t n = spans_.size();
    for (size_t i = 0; i < n; ++i)
      spans_.emplace_back(spans_[i].first + log2_magnitude, spans_[i].second + log2_magnitude);
    std::sort(spans_.begin(), spans_.end());
  }
  size_t kept = 0;
  for (size_t i = 1; i < spans_.size(); ++i) {
    if (spans_[i].first - spans_[kept].second < kMergeGap)
      spans_[kept].second = std::max(spans_[kept].second, spans_[i].second);
    else
      spans_[++kept] = spans_[i];
  }
  spans_.resize(kept + 1);
  // Pathological factors (many far-apart magnitudes): one span, which only widens the bound.
  if (spans_.size() > kMaxSpans) spans_ = {{spans_.front().first, spans_.back().second}};
}

bool SubsetLog2Products::Meets(double lo, double hi) const {
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
      const int exponent = std::ilogb(static_cast<double>(x));  // terms are at most float64
      auto it = std::lower_bound(binades.begin(), binades.end(), exponent,
                                 [](const Binade& b, int e) { return b.exponent < e; });
      if (it == binades.end() || it->exponent != exponent)
        it = binades.insert(it, {exponent, 0, 0, 0});
      ++it->count;
      it->sum += std::fabs(x);
      it->largest = std::fmax(it->largest, std::fabs(x));
    }
    return;
  }
  if (std::signbit(x)) negative = !negative;
  if (x == 0) {
    zero = true;
    return;
  }
  product *= x;
  subset_products.Add(std::log2(static_cast<double>(std::fabs(x))));
}

ExpectedElement FloatExpectation(const FloatTally& t, Accumulation op, DType out) {
  return op == Accumulation::kSum ? SumExpectation(t, out) : ProductExpectation(t, out);
}

}  // namespace opcts
