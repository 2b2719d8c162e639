// The float accuracy model and the judge together, on one accumulated element: the edge
// cases with outcomes derived by hand from IEEE 754, and properties that evaluate random terms
// in random orders (random binary trees) and require the judge to accept every result, and to
// reject what no order produces (a zero or a product of the wrong sign).
#include <cfenv>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "conformance/judge.h"
#include "reference/accumulation.h"
#include "spec/element.h"
#include "spec/half.h"

namespace opcts {
namespace {

const std::vector<FloatRule> kIeee;
const std::vector<FloatRule> kDirectML = {{DType::kFloat32, true, true, "d3d"}};

ExpectedTensor Expectation(DType out, Accumulation op, const std::vector<long double>& terms) {
  FloatTally tally;
  for (long double x : terms) tally.Add(x, op);
  ExpectedTensor e;
  e.name = "out";
  e.desc = PackedDesc(out, {1});
  e.elements = {FloatExpectation(tally, op, out)};
  return e;
}

Judgement JudgeBits(DType out, Accumulation op, const std::vector<long double>& terms,
                    uint64_t bits, const std::vector<FloatRule>& rules = kIeee) {
  TensorData actual = MakeTensor(PackedDesc(out, {1}));
  StoreBits(out, actual.Element(0), bits);
  return JudgeTensor(Expectation(out, op, terms), actual, rules);
}

Verdict Judge(DType out, Accumulation op, const std::vector<long double>& terms, double value,
              const std::vector<FloatRule>& rules = kIeee) {
  return JudgeBits(out, op, terms, DoubleToBits(out, value), rules).verdict;
}

constexpr auto kSum = Accumulation::kSum;
constexpr auto kProduct = Accumulation::kProduct;
constexpr auto kF32 = DType::kFloat32;
constexpr auto kF16 = DType::kFloat16;
constexpr auto kPass = Verdict::kPass;
constexpr auto kWarn = Verdict::kQualityWarning;
constexpr auto kFail = Verdict::kFail;

TEST(FloatJudge, ZeroSignsOfSums) {
  // IEEE round to nearest: x + y is -0 only when both are -0; x + (-x) is +0.
  EXPECT_EQ(Judge(kF32, kSum, {-0.0L}, -0.0), kPass);  // one term is copied as is
  EXPECT_EQ(Judge(kF32, kSum, {-0.0L}, 0.0), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {-0.0L, -0.0L}, -0.0), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {-0.0L, 0.0L}, -0.0), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {-0.0L, 0.0L}, 0.0), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {1.0L, -1.0L}, -0.0), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {1.0L, -1.0L}, 0.0), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {}, 0.0), kPass);  // the empty sum (exclusive head)
  EXPECT_EQ(Judge(kF32, kSum, {}, -0.0), kFail);
  EXPECT_EQ(Judge(kF16, kSum, {-0.0L, -0.0L, -0.0L}, -0.0), kPass);
}

TEST(FloatJudge, OverflowedInfinityHasAReachableSign) {
  // FLOAT32 [3e38, 3e38]: every order overflows upwards; -inf and NaN are unreachable.
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L}, INFINITY), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L}, -INFINITY), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L}, NAN), kFail);
  // [3e38, 3e38, -3e38]: 3e38 in one order, +inf in another; never -inf or NaN.
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L, -3e38L}, 3e38), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L, -3e38L}, INFINITY), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L, -3e38L}, -INFINITY), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L, -3e38L}, NAN), kFail);
  // Both directions overflow in one order ((a + a) + (-a + -a)): inf - inf.
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L, -3e38L, -3e38L}, NAN), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {3e38L, 3e38L, -3e38L, -3e38L}, 0.0), kPass);
  // An input infinity survives, unless the finite terms overflow the other way first.
  EXPECT_EQ(Judge(kF32, kSum, {INFINITY, -3e38L}, INFINITY), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {INFINITY, -3e38L}, NAN), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {INFINITY, -3e38L, -3e38L}, NAN), kPass);
}

// The judgement's max error: every wrong element counts (one beyond measure is infinitely far),
// so a Fail's error exceeds its bound; an allowed special is no error.
TEST(FloatJudge, MaxErrorOfAFailExceedsItsBound) {
  const Judgement off = JudgeBits(kF32, kSum, {1.0L, 2.0L}, DoubleToBits(kF32, 4.0));
  EXPECT_EQ(off.verdict, kFail);
  ASSERT_TRUE(off.max_error && off.bound);
  EXPECT_EQ(*off.max_error, 1.0);
  EXPECT_GT(*off.max_error, *off.bound);
  const Judgement nan = JudgeBits(kF32, kSum, {1.0L, 2.0L}, DoubleToBits(kF32, NAN));
  EXPECT_EQ(nan.verdict, kFail);
  ASSERT_TRUE(nan.max_error);
  EXPECT_TRUE(std::isinf(*nan.max_error));
  const Judgement zero_sign = JudgeBits(kF32, kSum, {0.0L, 0.0L}, DoubleToBits(kF32, -0.0));
  EXPECT_EQ(zero_sign.verdict, kFail);
  ASSERT_TRUE(zero_sign.max_error);
  EXPECT_TRUE(std::isinf(*zero_sign.max_error)) << "a wrong zero sign is no distance";
  const Judgement overflow = JudgeBits(kF32, kSum, {3e38L, 3e38L}, DoubleToBits(kF32, INFINITY));
  EXPECT_EQ(overflow.verdict, kPass);
  EXPECT_FALSE(overflow.max_error && std::isinf(*overflow.max_error))
      << "a reachable infinity is no error";
}

TEST(FloatJudge, ProductsWithAZeroAreZeroOrNaN) {
  // [1e38, 1e38, 0]: 0 (1e38 * 0 first) or NaN ((1e38 * 1e38) * 0 = inf * 0); nothing else.
  EXPECT_EQ(Judge(kF32, kProduct, {1e38L, 1e38L, 0.0L}, 0.0), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, {1e38L, 1e38L, 0.0L}, NAN), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, {1e38L, 1e38L, 0.0L}, 1e30), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, {1e38L, 1e38L, 0.0L}, -0.0), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, {1e30L, 1e30L, 0.0L, 5.0L}, 5.0), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, {1e30L, 1e30L, 0.0L, 5.0L}, 0.0), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, {1e30L, -1e30L, 0.0L}, -0.0), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, {1.0L, 2.0L, 0.0L}, NAN), kFail);  // nothing overflows
  EXPECT_EQ(Judge(kF32, kProduct, {}, 1.0), kPass);                  // the empty product
  EXPECT_EQ(Judge(kF32, kProduct, {}, 0.99999994), kFail);
}

TEST(FloatJudge, ProductBoundIsRelativeWithoutGradualUnderflow) {
  // [1e30, 1e30, 1e-30, 1e-30]: no subset product is subnormal (they are 1e±60, 1e±30, 1),
  // so a finite result is 1 within a few roundings; 0 (1e-60 underflows), inf (1e60
  // overflows) and NaN (both, then inf * 0) are reachable.
  const std::vector<long double> f = {1e30L, 1e30L, 1e-30L, 1e-30L};
  FloatTally tally;
  for (long double x : f) tally.Add(static_cast<float>(x), kProduct);
  const double p = static_cast<double>(tally.product);
  EXPECT_EQ(Judge(kF32, kProduct, f, p), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, f, 1e15), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, f, 2 * p), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, f, 0.0), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, f, INFINITY), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, f, NAN), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, f, -0.0), kFail);  // the sign is the parity: +
  // A product's sign is exact in every order.
  EXPECT_EQ(Judge(kF32, kProduct, {-2.0L, 3.0L}, -6.0), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, {-2.0L, 3.0L}, 6.0), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, {-1e-30L, 1e-30L}, -0.0), kPass);  // underflows
  EXPECT_EQ(Judge(kF32, kProduct, {-1e-30L, 1e-30L}, 0.0), kFail);
  EXPECT_EQ(Judge(kF32, kProduct, {-1e30L, 1e30L}, -INFINITY), kPass);
  EXPECT_EQ(Judge(kF32, kProduct, {-1e30L, 1e30L}, INFINITY), kFail);
}

std::vector<long double> Long(const std::vector<double>& v) { return {v.begin(), v.end()}; }

// The value a float16 accumulator holds after adding `terms` one at a time.
double SequentialFloat16Sum(const std::vector<long double>& terms) {
  double acc = 0;
  for (long double x : terms) acc = HalfBitsToFloat(DoubleToHalfBits(acc + static_cast<double>(x)));
  return acc;
}

TEST(FloatJudge, Float16QualityWarningIsNotVacuousOnLongAxes) {
  // 4096 x 0.1 in float16: from 256 on, +0.1 rounds back (half the spacing is 0.125), so a
  // sequential float16 accumulation stalls at 256 while the sum is ~409.5. That is a
  // QualityWarning; zeros or twice the sum are no float16 accumulation's result.
  const std::vector<long double> terms(4096, HalfBitsToFloat(DoubleToHalfBits(0.1)));
  const double sequential = SequentialFloat16Sum(terms);
  EXPECT_EQ(sequential, 256);
  EXPECT_EQ(Judge(kF16, kSum, terms, sequential), kWarn);
  FloatTally tally;
  for (long double x : terms) tally.Add(x, kSum);
  const double exact = static_cast<double>(tally.sum);
  EXPECT_EQ(Judge(kF16, kSum, terms, exact), kPass);
  EXPECT_EQ(Judge(kF16, kSum, terms, 0.0), kFail);
  EXPECT_EQ(Judge(kF16, kSum, terms, 2 * exact), kFail);
}

TEST(FloatJudge, PlatformRulesFlushAndTruncateFloat32) {
  // Two subnormals: 2e-39 exactly; a platform that flushes inputs writes +0.
  const std::vector<long double> tiny = {static_cast<float>(1e-39), static_cast<float>(1e-39)};
  EXPECT_EQ(Judge(kF32, kSum, tiny, 0.0), kFail);
  const Judgement flushed = JudgeBits(kF32, kSum, tiny, DoubleToBits(kF32, 0.0), kDirectML);
  EXPECT_EQ(flushed.verdict, kPass);
  EXPECT_EQ(flushed.behaviour, "flushes FLOAT32 subnormals");
  // Sign-preserved: a negative subnormal flushes to -0, and a lone one may flush too.
  EXPECT_EQ(Judge(kF32, kSum, {-tiny[0], -tiny[1]}, -0.0, kDirectML), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {tiny[0]}, 0.0, kDirectML), kPass);
  EXPECT_EQ(Judge(kF32, kSum, {tiny[0]}, -0.0, kDirectML), kFail);
  // 1 + 1000 x 1.5 * 2^-24: round to nearest adds 2^-23 each time, truncation nothing; the
  // truncated 1 is 1000 * 1.5 * 2^-24 off, beyond the IEEE bound (~1000 * 2^-24).
  std::vector<long double> terms(1001, 0x1.8p-24L);
  terms[0] = 1;
  EXPECT_EQ(Judge(kF32, kSum, terms, 1.0), kFail);
  const Judgement truncated = JudgeBits(kF32, kSum, terms, DoubleToBits(kF32, 1.0), kDirectML);
  EXPECT_EQ(truncated.verdict, kPass);
  EXPECT_EQ(truncated.behaviour, "truncates FLOAT32 arithmetic");
  // Data movement and what no rule explains still fail.
  EXPECT_EQ(Judge(kF32, kSum, terms, 0.5, kDirectML), kFail);
  EXPECT_EQ(Judge(kF32, kSum, {1.0L, -1.0L}, -0.0, kDirectML), kFail);
}

// --- Random orders -------------------------------------------------------------------------

// Round a value to the accumulator: float32 or float16 (round to nearest even), or float32
// under a platform that truncates and flushes.
enum class Arith { kFloat32, kFloat16, kFloat32FlushTruncate };

double Flush(double x) { return std::fabs(x) < 0x1p-126 ? std::copysign(0.0, x) : x; }

double Combine(Arith arith, Accumulation op, double a, double b) {
  switch (arith) {
    case Arith::kFloat32: {
      const float fa = static_cast<float>(a), fb = static_cast<float>(b);
      return op == kSum ? fa + fb : fa * fb;
    }
    case Arith::kFloat16: {
      // float16 operands: the sum or product is exact in double, then rounded once.
      return HalfBitsToFloat(DoubleToHalfBits(op == kSum ? a + b : a * b));
    }
    case Arith::kFloat32FlushTruncate: {
      const volatile float fa = static_cast<float>(Flush(a)), fb = static_cast<float>(Flush(b));
      std::fesetround(FE_TOWARDZERO);
      const volatile float r = op == kSum ? fa + fb : fa * fb;
      std::fesetround(FE_TONEAREST);
      return Flush(r);
    }
  }
  return 0;
}

// Evaluates terms[lo, hi) as a random binary tree.
double Evaluate(Arith arith, Accumulation op, const std::vector<double>& terms, size_t lo,
                size_t hi, const std::function<size_t(size_t)>& pick) {
  if (hi - lo == 1) return arith == Arith::kFloat32FlushTruncate ? Flush(terms[lo]) : terms[lo];
  const size_t mid = lo + 1 + pick(hi - lo - 1);
  return Combine(arith, op, Evaluate(arith, op, terms, lo, mid, pick),
                 Evaluate(arith, op, terms, mid, hi, pick));
}

// Terms that reach the edges of `t`: signed zeros, extremes, subnormals, specials, ordinary.
rc::Gen<double> EdgeTerm(DType t) {
  const double max = static_cast<double>(MaxFinite(t));
  const double normal = static_cast<double>(SmallestNormal(t));
  const double subnormal = static_cast<double>(SmallestSubnormal(t));
  const std::vector<double> edges = {0.0,
                                     -0.0,
                                     1,
                                     -1,
                                     max,
                                     -max,
                                     max / 2,
                                     -max / 3,
                                     normal,
                                     -normal,
                                     subnormal,
                                     -3 * subnormal,
                                     INFINITY,
                                     -INFINITY,
                                     NAN,
                                     std::sqrt(max),
                                     1 / std::sqrt(max)};
  return rc::gen::map(
      rc::gen::pair(rc::gen::inRange<size_t>(0, edges.size() + 8), rc::gen::arbitrary<int>()),
      [=](std::pair<size_t, int> choice) {
        const double v = choice.first < edges.size()
                             ? edges[choice.first]
                             : std::ldexp(choice.second % 1000 / 100.0, choice.second % 40 - 20);
        return static_cast<double>(BitsToLongDouble(t, DoubleToBits(t, v)));
      });
}

struct Drawn {
  DType out;
  Accumulation op;
  std::vector<double> terms;
};

Drawn DrawTerms() {
  const DType out = *rc::gen::element(kF32, kF16);
  const Accumulation op = *rc::gen::element(kSum, kProduct);
  const auto terms =
      *rc::gen::container<std::vector<double>>(*rc::gen::inRange<size_t>(1, 7), EdgeTerm(out));
  return {out, op, terms};
}

double DrawResult(const Drawn& d, Arith arith) {
  const auto choices =
      *rc::gen::container<std::vector<size_t>>(d.terms.size(), rc::gen::arbitrary<size_t>());
  size_t next = 0;
  const auto pick = [&](size_t n) { return n == 0 ? 0 : choices[next++ % choices.size()] % n; };
  return Evaluate(arith, d.op, d.terms, 0, d.terms.size(), pick);
}

TEST(FloatJudgeProperty, EveryEvaluationOrderPasses) {
  const bool ok = rc::check("float32 accumulation in any order passes", [] {
    const Drawn d = DrawTerms();
    const double r = DrawResult(d, Arith::kFloat32);
    const Judgement j = JudgeBits(d.out, d.op, Long(d.terms), DoubleToBits(d.out, r));
    RC_ASSERT(j.verdict == kPass);
  });
  EXPECT_TRUE(ok);
}

TEST(FloatJudgeProperty, Float16AccumulationIsAtWorstAQualityWarning) {
  const bool ok = rc::check("float16 accumulation in any order is Pass or QualityWarning", [] {
    Drawn d = DrawTerms();
    d.out = kF16;
    for (double& x : d.terms) x = HalfBitsToFloat(DoubleToHalfBits(x));
    const double r = DrawResult(d, Arith::kFloat16);
    const Judgement j = JudgeBits(kF16, d.op, Long(d.terms), DoubleToBits(kF16, r));
    RC_ASSERT(j.verdict != kFail);
  });
  EXPECT_TRUE(ok);
}

TEST(FloatJudgeProperty, LongFloat16SumsAreAtWorstAQualityWarning) {
  // Beyond 1/u = 2048 terms the QualityWarning bound is the sequential one, not m * u * sum|x|.
  const bool ok = rc::check("long float16 sums, sequential or any tree, do not fail", [] {
    const size_t n = *rc::gen::inRange<size_t>(100, 5000);
    const bool mixed_signs = *rc::gen::arbitrary<bool>();
    const int scale = *rc::gen::inRange(-8, 8);
    const auto units = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, 1000));
    std::vector<double> terms;
    for (size_t i = 0; i < n; ++i) {
      const double v = std::ldexp(units[i] / 1000.0, scale) * (mixed_signs && i % 3 == 0 ? -1 : 1);
      terms.push_back(HalfBitsToFloat(DoubleToHalfBits(v)));
    }
    const double r = *rc::gen::arbitrary<bool>() ? SequentialFloat16Sum(Long(terms))
                                                 : DrawResult({kF16, kSum, terms}, Arith::kFloat16);
    RC_ASSERT(JudgeBits(kF16, kSum, Long(terms), DoubleToBits(kF16, r)).verdict != kFail);
  });
  EXPECT_TRUE(ok);
}

TEST(FloatJudgeProperty, FlushingTruncatingFloat32PassesOnlyUnderThePlatformRules) {
  const bool ok = rc::check("a flushing, truncating float32 platform passes its rules", [] {
    Drawn d = DrawTerms();
    d.out = kF32;
    const double r = DrawResult(d, Arith::kFloat32FlushTruncate);
    const Judgement j = JudgeBits(kF32, d.op, Long(d.terms), DoubleToBits(kF32, r), kDirectML);
    RC_ASSERT(j.verdict == kPass);
  });
  EXPECT_TRUE(ok);
}

TEST(FloatJudgeProperty, TheWrongSignIsRejected) {
  // A sum's zero and every non-NaN product have one sign in every order: the other fails.
  const bool ok = rc::check("a zero sum or a product of the other sign fails", [] {
    const Drawn d = DrawTerms();
    const double r = DrawResult(d, Arith::kFloat32);
    RC_PRE(!std::isnan(r) && (d.op == kProduct || r == 0));
    const Judgement j = JudgeBits(d.out, d.op, Long(d.terms), DoubleToBits(d.out, -r));
    RC_ASSERT(j.verdict == kFail);
  });
  EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace opcts
