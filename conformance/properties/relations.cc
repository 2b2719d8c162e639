#include "conformance/properties/relations.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "conformance/judge.h"
#include "spec/element.h"

namespace opcts {
namespace {

// Logical (row-major) element access through the strides.
class LogicalView {
 public:
  explicit LogicalView(const TensorData& t) : t_(t), indexer_(t.desc) {}
  uint64_t Bits(uint64_t logical) const {
    return LoadBits(t_.desc.dtype, t_.Element(indexer_.BufferIndex(logical)));
  }
  std::string Show(uint64_t logical) const {
    return FormatCoordinates(t_.desc.sizes, logical) + " = " +
           FormatElement(t_.desc.dtype, Bits(logical));
  }

 private:
  const TensorData& t_;
  StridedIndexer indexer_;
};

// Where a logical element sits on its line along the axis.
struct AxisGeometry {
  uint64_t inner = 1, length = 1;
  AxisGeometry(const std::vector<uint32_t>& sizes, unsigned axis) : length(sizes[axis]) {
    for (size_t d = axis + 1; d < sizes.size(); ++d) inner *= sizes[d];
  }
  uint64_t Position(uint64_t logical) const { return logical / inner % length; }
  uint64_t LineStart(uint64_t logical) const { return logical - Position(logical) * inner; }
  uint64_t Mirror(uint64_t logical) const {
    return LineStart(logical) + (length - 1 - Position(logical)) * inner;
  }
};

long double AccuracyBound(const ExpectedElement& e) {
  return e.kind == Expect::kNear ? std::max(e.pass_bound, e.warn_bound) : 0.0L;
}
bool OverflowOk(const ExpectedElement& e) {
  return e.kind == Expect::kNear &&
         ((e.pass_specials | e.warn_specials) & (kPosInf | kNegInf)) != 0;
}

// Whether two elements that must hold the same value agree: integers exactly; floats within
// `tolerance`, NaN matching NaN, infinities matching themselves unless overflow is permitted.
bool Agree(DType t, uint64_t a, uint64_t b, long double tolerance, bool overflow_ok) {
  if (!IsFloat(t)) return a == b;
  if (IsNaNBits(t, a) && IsNaNBits(t, b)) return true;
  const long double va = BitsToLongDouble(t, a), vb = BitsToLongDouble(t, b);
  if (va == vb) return true;  // also +0 == -0
  if (!std::isfinite(va) || !std::isfinite(vb)) return overflow_ok;
  return std::fabs(va - vb) <= tolerance;
}

std::string Number(long double v) {
  char text[48];
  std::snprintf(text, sizeof text, "%.17Lg", v);
  return text;
}

std::string Tolerance(DType t, long double tolerance) {
  return IsFloat(t) ? " (tolerance " + Number(tolerance) + ")" : "";
}

// The relation "a[i] == b[Partner(i)]" over every element of `a`.
template <typename Partner>
std::optional<std::string> CheckPairs(const ObservedOutput& a, const ObservedOutput& b,
                                      const std::string& a_name, const std::string& b_name,
                                      Partner partner) {
  const DType t = a.actual.desc.dtype;
  const LogicalView va(a.actual), vb(b.actual);
  for (uint64_t i = 0; i < a.expected.elements.size(); ++i) {
    const auto j = partner(i);
    if (!j) continue;
    const ExpectedElement &ea = a.expected.elements[i], &eb = b.expected.elements[*j];
    if (ea.kind == Expect::kAny || eb.kind == Expect::kAny) continue;
    const long double tolerance = AccuracyBound(ea) + AccuracyBound(eb);
    if (!Agree(t, va.Bits(i), vb.Bits(*j), tolerance, OverflowOk(ea) || OverflowOk(eb)))
      return a_name + " at " + va.Show(i) + ", but " + b_name + " at " + vb.Show(*j) +
             Tolerance(t, tolerance);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CheckExclusiveIsShiftedInclusive(const ObservedOutput& inclusive,
                                                            const ObservedOutput& exclusive,
                                                            unsigned axis, bool reverse,
                                                            long double identity) {
  const DType t = exclusive.actual.desc.dtype;
  const AxisGeometry g(exclusive.actual.desc.sizes, axis);
  const uint64_t first = reverse ? g.length - 1 : 0;
  const LogicalView view(exclusive.actual);
  const uint64_t identity_bits = DoubleToBits(t, static_cast<double>(identity));
  for (uint64_t i = 0; i < exclusive.expected.elements.size(); ++i) {
    const ExpectedElement& e = exclusive.expected.elements[i];
    if (g.Position(i) == first && e.kind != Expect::kAny &&
        !Agree(t, view.Bits(i), identity_bits, AccuracyBound(e), false))
      return "exclusive at " + view.Show(i) +
             ", but the first element in scan order must be the identity " +
             FormatElement(t, identity_bits) + Tolerance(t, AccuracyBound(e));
  }
  return CheckPairs(exclusive, inclusive, "exclusive", "inclusive",
                    [&](uint64_t i) -> std::optional<uint64_t> {
                      if (g.Position(i) == first) return std::nullopt;
                      return reverse ? i + g.inner : i - g.inner;
                    });
}

std::optional<std::string> CheckReverseIsFlippedForward(const ObservedOutput& reverse,
                                                        const ObservedOutput& forward_of_flipped,
                                                        unsigned axis) {
  const AxisGeometry g(reverse.actual.desc.sizes, axis);
  return CheckPairs(reverse, forward_of_flipped, "reverse scan",
                    "forward scan of the flipped input",
                    [&](uint64_t i) -> std::optional<uint64_t> { return g.Mirror(i); });
}

std::optional<std::string> CheckLastInclusiveIsTotal(const ObservedOutput& inclusive,
                                                     const TensorData& input, unsigned axis,
                                                     bool reverse, bool product) {
  const DType t = input.desc.dtype;
  const AxisGeometry g(input.desc.sizes, axis);
  const uint64_t last = reverse ? 0 : g.length - 1;
  const LogicalView in(input), out(inclusive.actual);
  for (uint64_t i = 0; i < inclusive.expected.elements.size(); ++i) {
    const ExpectedElement& e = inclusive.expected.elements[i];
    if (g.Position(i) != last || e.kind == Expect::kAny) continue;
    uint64_t wrapped = product ? 1 : 0;
    long double total = product ? 1 : 0, magnitude = 0;
    for (uint64_t k = 0, at = g.LineStart(i); k < g.length; ++k, at += g.inner) {
      const uint64_t bits = in.Bits(at);
      // Two's complement: wrapping arithmetic on the sign-extended bits is exact modulo 2^n.
      const auto as_int = static_cast<uint64_t>(BitsToInt64(t, bits));
      wrapped = product ? wrapped * as_int : wrapped + as_int;
      const long double x = BitsToLongDouble(t, bits);
      total = product ? total * x : total + x;
      magnitude += std::fabs(x);
    }
    const uint64_t actual = out.Bits(i);
    if (!IsFloat(t)) {
      if (actual != (wrapped & BitsMask(t)))
        return "inclusive at " + out.Show(i) + ", but the line's total is " +
               FormatElement(t, wrapped & BitsMask(t));
      continue;
    }
    const long double own_error =
        static_cast<long double>(g.length) * 0x1p-63L * (product ? std::fabs(total) : magnitude);
    const long double tolerance = AccuracyBound(e) + own_error, value = BitsToLongDouble(t, actual);
    const bool agree = value == total || (std::isnan(value) && std::isnan(total)) ||
                       (std::isfinite(total) && !std::isfinite(value) && OverflowOk(e)) ||
                       std::fabs(value - total) <= tolerance;
    if (!agree)
      return "inclusive at " + out.Show(i) + ", but the line's total is " + Number(total) +
             Tolerance(t, tolerance);
  }
  return std::nullopt;
}

std::optional<std::string> CheckAllOnes(const TensorData& output) {
  const DType t = output.desc.dtype;
  const uint64_t one = DoubleToBits(t, 1.0);
  const LogicalView view(output);
  for (uint64_t i = 0; i < ElementCount(output.desc); ++i)
    if (view.Bits(i) != one) return "at " + view.Show(i) + ", expected exactly 1";
  return std::nullopt;
}

std::optional<std::string> CheckSameBits(const TensorData& first, const TensorData& second) {
  const LogicalView a(first), b(second);
  for (uint64_t i = 0; i < ElementCount(first.desc); ++i)
    if (a.Bits(i) != b.Bits(i))
      return "first at " + a.Show(i) + ", second " + FormatElement(second.desc.dtype, b.Bits(i));
  return std::nullopt;
}

TensorData FlipAlongAxis(const TensorData& t, unsigned axis) {
  TensorData flipped = t;
  const AxisGeometry g(t.desc.sizes, axis);
  const StridedIndexer indexer(t.desc);
  const size_t size = DTypeSize(t.desc.dtype);
  for (uint64_t i = 0; i < ElementCount(t.desc); ++i)
    std::copy_n(t.Element(indexer.BufferIndex(i)), size,
                flipped.Element(indexer.BufferIndex(g.Mirror(i))));
  return flipped;
}

void CopyLogical(const TensorData& from, TensorData& to) {
  const StridedIndexer source(from.desc), target(to.desc);
  const size_t size = DTypeSize(from.desc.dtype);
  for (uint64_t i = 0; i < ElementCount(from.desc); ++i)
    std::copy_n(from.Element(source.BufferIndex(i)), size, to.Element(target.BufferIndex(i)));
}

}  // namespace opcts
