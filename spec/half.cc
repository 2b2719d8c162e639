#include "spec/half.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace opcts {
namespace {

// Layout of a binary interchange format: mantissa (stored fraction) bits and exponent bits.
struct Format {
  int mantissa_bits;
  int exponent_bits;
  constexpr int Bias() const { return (1 << (exponent_bits - 1)) - 1; }
  constexpr uint64_t ExponentMask() const { return (uint64_t{1} << exponent_bits) - 1; }
};

constexpr Format kDouble{52, 11};
constexpr Format kFloat{23, 8};
constexpr Format kHalf{10, 5};
constexpr Format kBFloat16{7, 8};

// Rounds the value encoded by `bits` (in format `src`) to the 16-bit format `dst`, once, to
// nearest even. Works on the exact integer significand so no intermediate rounding can happen.
uint16_t Narrow(uint64_t bits, Format src, Format dst) {
  const int src_width = 1 + src.exponent_bits + src.mantissa_bits;
  const auto sign = static_cast<uint16_t>((bits >> (src_width - 1)) << 15);
  const uint64_t exponent_field = (bits >> src.mantissa_bits) & src.ExponentMask();
  const uint64_t mantissa = bits & ((uint64_t{1} << src.mantissa_bits) - 1);
  const auto infinity = static_cast<uint16_t>(dst.ExponentMask() << dst.mantissa_bits);

  if (exponent_field == src.ExponentMask()) {
    if (mantissa == 0) return sign | infinity;
    // Setting the quiet bit also keeps a NaN whose payload sits only in dropped bits from
    // turning into infinity.
    const auto quiet = static_cast<uint16_t>(1u << (dst.mantissa_bits - 1));
    const auto payload = static_cast<uint16_t>(mantissa >> (src.mantissa_bits - dst.mantissa_bits));
    return sign | infinity | quiet | payload;
  }

  // value = significand * 2^exponent, exactly.
  uint64_t significand = mantissa;
  int exponent = 1 - src.Bias() - src.mantissa_bits;
  if (exponent_field != 0) {
    significand |= uint64_t{1} << src.mantissa_bits;
    exponent += static_cast<int>(exponent_field) - 1;
  }
  if (significand == 0) return sign;

  // Quantum (ULP exponent) of the destination at this magnitude, never finer than its
  // subnormal quantum.
  const int top_bit = static_cast<int>(std::bit_width(significand)) - 1;
  const int min_quantum = 1 - dst.Bias() - dst.mantissa_bits;
  const int quantum = std::max(top_bit + exponent - dst.mantissa_bits, min_quantum);
  // Positive: every destination has fewer mantissa bits and no finer subnormal quantum.
  const int shift = quantum - exponent;

  uint64_t rounded;
  if (shift >= 64) {
    rounded = 0;  // below half the smallest subnormal (significand < 2^53)
  } else {
    rounded = significand >> shift;
    const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (remainder > half || (remainder == half && (rounded & 1) != 0)) ++rounded;
  }

  // With the implicit bit inside `rounded`, (biased exponent - 1) << mantissa_bits + rounded
  // encodes normals and subnormals alike, and a carry out of the mantissa bumps the exponent,
  // up to exactly the infinity encoding on overflow.
  const int biased_minus_one = quantum + dst.mantissa_bits + dst.Bias() - 1;  // >= 0
  if (biased_minus_one >= static_cast<int>(dst.ExponentMask()) - 1) return sign | infinity;
  return sign | static_cast<uint16_t>(
                    (static_cast<uint64_t>(biased_minus_one) << dst.mantissa_bits) + rounded);
}

}  // namespace

uint16_t FloatToHalfBits(float f) { return Narrow(std::bit_cast<uint32_t>(f), kFloat, kHalf); }

uint16_t DoubleToHalfBits(double d) { return Narrow(std::bit_cast<uint64_t>(d), kDouble, kHalf); }

float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent_field = (h >> kHalf.mantissa_bits) & kHalf.ExponentMask();
  uint32_t mantissa = h & ((1u << kHalf.mantissa_bits) - 1);
  const int mantissa_shift = kFloat.mantissa_bits - kHalf.mantissa_bits;
  const uint32_t float_infinity = 0xFFu << kFloat.mantissa_bits;

  if (exponent_field == kHalf.ExponentMask()) {
    const uint32_t quiet = mantissa != 0 ? 1u << (kFloat.mantissa_bits - 1) : 0;
    return std::bit_cast<float>(sign | float_infinity | quiet | (mantissa << mantissa_shift));
  }
  if (exponent_field == 0) {
    if (mantissa == 0) return std::bit_cast<float>(sign);
    // Subnormal half: normalise, since every half subnormal is a float normal.
    const int leading = kHalf.mantissa_bits + 1 - static_cast<int>(std::bit_width(mantissa));
    mantissa = (mantissa << leading) & ((1u << kHalf.mantissa_bits) - 1);
    const uint32_t biased = static_cast<uint32_t>(kFloat.Bias() - kHalf.Bias() + 1 - leading);
    return std::bit_cast<float>(sign | (biased << kFloat.mantissa_bits) |
                                (mantissa << mantissa_shift));
  }
  const uint32_t biased = exponent_field + kFloat.Bias() - kHalf.Bias();
  return std::bit_cast<float>(sign | (biased << kFloat.mantissa_bits) |
                              (mantissa << mantissa_shift));
}

uint16_t FloatToBFloat16Bits(float f) {
  return Narrow(std::bit_cast<uint32_t>(f), kFloat, kBFloat16);
}

uint16_t DoubleToBFloat16Bits(double d) {
  return Narrow(std::bit_cast<uint64_t>(d), kDouble, kBFloat16);
}

float BFloat16BitsToFloat(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

}  // namespace opcts
