#include "spec/element.h"

#include <bit>
#include <cmath>
#include <limits>

#include "spec/half.h"

namespace opcts {

int64_t BitsToInt64(DType t, uint64_t bits) {
  const unsigned n = DTypeBits(t);
  if (!IsSignedInt(t) || n == 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (n - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

long double BitsToLongDouble(DType t, uint64_t bits) {
  switch (t) {
    case DType::kFloat64:
      return std::bit_cast<double>(bits);
    case DType::kFloat32:
      return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case DType::kFloat16:
      return HalfBitsToFloat(static_cast<uint16_t>(bits));
    case DType::kBFloat16:
      return BFloat16BitsToFloat(static_cast<uint16_t>(bits));
    default:
      if (IsSignedInt(t)) return static_cast<long double>(BitsToInt64(t, bits));
      return static_cast<long double>(bits);
  }
}

uint64_t DoubleToBits(DType t, double v) {
  switch (t) {
    case DType::kFloat64:
      return std::bit_cast<uint64_t>(v);
    case DType::kFloat32:
      return std::bit_cast<uint32_t>(static_cast<float>(v));
    case DType::kFloat16:
      return DoubleToHalfBits(v);
    case DType::kBFloat16:
      return DoubleToBFloat16Bits(v);
    default:
      if (IsSignedInt(t)) return static_cast<uint64_t>(static_cast<int64_t>(v)) & BitsMask(t);
      return static_cast<uint64_t>(v) & BitsMask(t);
  }
}

bool IsNaNBits(DType t, uint64_t bits) {
  return IsFloat(t) && std::isnan(BitsToLongDouble(t, bits));
}

namespace {
struct FloatFormat {
  int significand_bits;  // including the implicit bit
  int max_exponent;      // of the largest finite value: max = (2 - 2^(1-p)) * 2^max_exponent
  int min_exponent;      // of the smallest normal: 2^min_exponent
};
FloatFormat FormatOf(DType t) {
  switch (t) {
    case DType::kFloat64:
      return {53, 1023, -1022};
    case DType::kFloat32:
      return {24, 127, -126};
    case DType::kFloat16:
      return {11, 15, -14};
    case DType::kBFloat16:
      return {8, 127, -126};
    default:
      return {64, 16383, -16382};
  }
}
}  // namespace

long double MaxFinite(DType t) {
  const FloatFormat f = FormatOf(t);
  return std::ldexp(2.0L - std::ldexp(1.0L, 1 - f.significand_bits), f.max_exponent);
}

long double OverflowThreshold(DType t) {
  const FloatFormat f = FormatOf(t);
  return std::ldexp(2.0L - std::ldexp(1.0L, -f.significand_bits), f.max_exponent);
}

long double UnitRoundoff(DType t) { return std::ldexp(1.0L, -FormatOf(t).significand_bits); }

long double SmallestSubnormal(DType t) {
  const FloatFormat f = FormatOf(t);
  return std::ldexp(1.0L, f.min_exponent - (f.significand_bits - 1));
}

long double SmallestNormal(DType t) { return std::ldexp(1.0L, FormatOf(t).min_exponent); }

long double UlpAt(DType t, long double v) {
  const FloatFormat f = FormatOf(t);
  // In double: every ULP of these formats is a double, and long double's ilogb is slow.
  const double magnitude = static_cast<double>(std::fabs(v));
  if (!std::isfinite(magnitude)) return std::numeric_limits<long double>::infinity();
  int e = magnitude == 0 ? f.min_exponent : std::ilogb(magnitude);
  if (e < f.min_exponent) e = f.min_exponent;
  return std::ldexp(1.0, e - (f.significand_bits - 1));
}

}  // namespace opcts
