// ScatterND reductions, element by element.
//
// - none: any one of the values written (with duplicate tuples the specs promise no winner).
// - add, mul on integers: exact, wrapping modulo 2^n, signed types included; modular arithmetic
//   gives the same result in every order.
// - add, mul on floats: one update is one IEEE operation, correctly rounded, so bit-exact.
//   Several updates may be combined in any order and grouping, so the result is judged by the
//   accuracy model of a sum or product of the same terms (reference/accumulation.h).
// - max, min: exact. A NaN operand makes the result NaN, as numpy's maximum/minimum (which the
//   ONNX reference implementation uses) do; +0 and -0 compare equal, so either may win a tie.
//   The pages state neither rule (spec/onnx_scatter_nd.yaml, defects).
#include "reference/scatter_reduction.h"

#include <algorithm>
#include <utility>

#include "reference/accumulation.h"
#include "spec/element.h"

namespace opcts {
namespace {

ExpectedElement Exactly(uint64_t bits) {
  ExpectedElement e;
  e.kind = Expect::kBits;
  e.bits = bits;
  return e;
}

ExpectedElement AnyNaN() {
  ExpectedElement e;
  e.kind = Expect::kNaN;
  return e;
}

// One distinct pattern is exact; several are a set of permitted patterns.
ExpectedElement OneOf(std::vector<uint64_t> patterns,
                      std::vector<std::vector<uint64_t>>& candidates) {
  std::sort(patterns.begin(), patterns.end());
  patterns.erase(std::unique(patterns.begin(), patterns.end()), patterns.end());
  if (patterns.size() == 1) return Exactly(patterns[0]);
  ExpectedElement e;
  e.kind = Expect::kAnyOf;
  e.bits = candidates.size();
  candidates.push_back(std::move(patterns));
  return e;
}

// a > b by value (floats: neither is NaN).
bool Greater(DType t, uint64_t a, uint64_t b) {
  if (IsFloat(t)) return BitsToLongDouble(t, a) > BitsToLongDouble(t, b);
  if (IsSignedInt(t)) return BitsToInt64(t, a) > BitsToInt64(t, b);
  return a > b;
}

// One step of the pages' loop, output = f(output, update), rounded once to t.
uint64_t Apply(DType t, ScatterReduction reduction, uint64_t acc, uint64_t update) {
  switch (reduction) {
    case ScatterReduction::kNone:
      return update;
    case ScatterReduction::kMax:
    case ScatterReduction::kMin: {
      if (IsNaNBits(t, acc)) return acc;
      if (IsNaNBits(t, update)) return update;
      const bool update_wins =
          reduction == ScatterReduction::kMax ? Greater(t, update, acc) : Greater(t, acc, update);
      return update_wins ? update : acc;
    }
    case ScatterReduction::kAdd:
    case ScatterReduction::kMul:
      break;
  }
  const bool add = reduction == ScatterReduction::kAdd;
  if (!IsFloat(t)) return (add ? acc + update : acc * update) & BitsMask(t);
  // The operands are exact in double and the operation rounds once to double, then to t. For
  // FLOAT64 that is the IEEE operation itself; for FLOAT32, FLOAT16 and BFLOAT16 double carries
  // at least 2p + 2 bits, so rounding twice equals rounding once (Figueroa, "When is double
  // rounding innocuous?", 1995).
  const double a = static_cast<double>(BitsToLongDouble(t, acc));
  const double b = static_cast<double>(BitsToLongDouble(t, update));
  return DoubleToBits(t, add ? a + b : a * b);
}

// max / min of floats: NaN if any operand is; otherwise every operand equal to the extreme.
ExpectedElement FloatExtreme(DType t, ScatterReduction reduction, uint64_t original,
                             const std::vector<uint64_t>& written,
                             std::vector<std::vector<uint64_t>>& candidates) {
  std::vector<uint64_t> operands = written;
  operands.push_back(original);
  if (std::any_of(operands.begin(), operands.end(), [&](uint64_t b) { return IsNaNBits(t, b); }))
    return AnyNaN();
  const long double extreme =
      BitsToLongDouble(t, SequentialScatter(t, reduction, original, written));
  std::vector<uint64_t> ties;
  for (uint64_t b : operands)
    if (BitsToLongDouble(t, b) == extreme) ties.push_back(b);
  return OneOf(std::move(ties), candidates);
}

}  // namespace

uint64_t SequentialScatter(DType t, ScatterReduction reduction, uint64_t original,
                           const std::vector<uint64_t>& written) {
  uint64_t acc = original;
  for (uint64_t update : written) acc = Apply(t, reduction, acc, update);
  return acc;
}

ExpectedElement ScatteredElement(DType t, ScatterReduction reduction, uint64_t original,
                                 const std::vector<uint64_t>& written,
                                 std::vector<std::vector<uint64_t>>& candidates) {
  if (written.empty()) return Exactly(original);
  if (reduction == ScatterReduction::kNone) return OneOf(written, candidates);
  if (!IsFloat(t)) return Exactly(SequentialScatter(t, reduction, original, written));
  if (reduction == ScatterReduction::kMax || reduction == ScatterReduction::kMin)
    return FloatExtreme(t, reduction, original, written, candidates);
  if (written.size() == 1) {
    const uint64_t bits = Apply(t, reduction, original, written[0]);
    return IsNaNBits(t, bits) ? AnyNaN() : Exactly(bits);
  }
  const Accumulation op =
      reduction == ScatterReduction::kAdd ? Accumulation::kSum : Accumulation::kProduct;
  FloatTally tally;
  tally.Add(BitsToLongDouble(t, original), op);
  for (uint64_t update : written) tally.Add(BitsToLongDouble(t, update), op);
  return FloatExpectation(tally, op, t);
}

}  // namespace opcts
