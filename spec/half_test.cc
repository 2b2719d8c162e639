// Exhaustive checks of spec/half.h against an independent ldexp-based decoder and exact
// midpoints. Every expected value comes from the format definition, not from half.cc.
#include "spec/half.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace opcts {
namespace {

// A 16-bit binary format described by its field widths; decodes from the IEEE definition.
struct Narrow16 {
  int mantissa_bits;
  int exponent_bits;
  uint16_t (*from_float)(float);
  uint16_t (*from_double)(double);
  float (*to_float)(uint16_t);

  int ExponentField(uint16_t bits) const {
    return (bits >> mantissa_bits) & ((1 << exponent_bits) - 1);
  }
  int MaxExponentField() const { return (1 << exponent_bits) - 1; }
  uint16_t Infinity() const { return static_cast<uint16_t>(MaxExponentField() << mantissa_bits); }
  bool IsNaN(uint16_t bits) const {
    return ExponentField(bits) == MaxExponentField() && (bits & ((1 << mantissa_bits) - 1)) != 0;
  }

  // Exact value of a non-NaN pattern: (-1)^s * 2^(e-bias) * 1.m, or 2^(1-bias) * 0.m.
  double Value(uint16_t bits) const {
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const int e = ExponentField(bits);
    const int m = bits & ((1 << mantissa_bits) - 1);
    double magnitude;
    if (e == MaxExponentField()) {
      magnitude = std::numeric_limits<double>::infinity();
    } else if (e == 0) {
      magnitude = std::ldexp(m, 1 - bias - mantissa_bits);
    } else {
      magnitude = std::ldexp((1 << mantissa_bits) + m, e - bias - mantissa_bits);
    }
    return (bits & 0x8000) != 0 ? -magnitude : magnitude;
  }

  // Value of the pattern one past the largest finite one (the infinity encoding), as if the
  // exponent range went on: the upper neighbour used for the overflow midpoint.
  double ValueOrNextPowerOfTwo(uint16_t bits) const {
    if ((bits & 0x7FFF) != Infinity()) return Value(bits);
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const double magnitude = std::ldexp(1.0, MaxExponentField() - bias);
    return (bits & 0x8000) != 0 ? -magnitude : magnitude;
  }
};

const Narrow16 kHalf{10, 5, FloatToHalfBits, DoubleToHalfBits, HalfBitsToFloat};
const Narrow16 kBFloat16{7, 8, FloatToBFloat16Bits, DoubleToBFloat16Bits, BFloat16BitsToFloat};

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

void ExpectDecodesEveryPattern(const Narrow16& format) {
  for (uint32_t i = 0; i <= 0xFFFF; ++i) {
    const auto bits = static_cast<uint16_t>(i);
    const float decoded = format.to_float(bits);
    if (format.IsNaN(bits)) {
      ASSERT_TRUE(std::isnan(decoded)) << "bits=0x" << std::hex << i;
      ASSERT_EQ(std::signbit(decoded), (bits & 0x8000) != 0) << "bits=0x" << std::hex << i;
      continue;
    }
    // Equality alone would accept -0 for +0; the sign bit check catches that.
    ASSERT_EQ(static_cast<double>(decoded), format.Value(bits)) << "bits=0x" << std::hex << i;
    ASSERT_EQ(std::signbit(decoded), (bits & 0x8000) != 0) << "bits=0x" << std::hex << i;
  }
}

void ExpectRoundTripsEveryPattern(const Narrow16& format) {
  const uint16_t quiet_bit = static_cast<uint16_t>(1u << (format.mantissa_bits - 1));
  for (uint32_t i = 0; i <= 0xFFFF; ++i) {
    const auto bits = static_cast<uint16_t>(i);
    const float wide = format.to_float(bits);
    // A NaN comes back quieted with its sign and payload; a quiet one comes back unchanged.
    const uint16_t expected = format.IsNaN(bits) ? bits | quiet_bit : bits;
    ASSERT_EQ(format.from_float(wide), expected) << "bits=0x" << std::hex << i;
    ASSERT_EQ(format.from_double(static_cast<double>(wide)), expected)
        << "bits=0x" << std::hex << i;
  }
}

// For every pair of adjacent finite values (and the largest finite value paired with the next
// power of two, which must give infinity), checks the midpoint goes to the even pattern and one
// float / double ULP either side goes to the nearer one.
void ExpectMidpointsRoundToEven(const Narrow16& format) {
  for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
    for (uint16_t lo = 0; lo < format.Infinity(); ++lo) {
      const auto hi = static_cast<uint16_t>(lo + 1);
      const double a = format.ValueOrNextPowerOfTwo(sign | lo);
      const double b = format.ValueOrNextPowerOfTwo(sign | hi);
      const double mid = (a + b) / 2;  // exact: one more bit than the format has
      const auto mid_f = static_cast<float>(mid);
      ASSERT_EQ(static_cast<double>(mid_f), mid) << "lo=0x" << std::hex << lo;
      const uint16_t even = sign | ((lo & 1) == 0 ? lo : hi);
      const uint16_t want_lo = sign | lo;
      const uint16_t want_hi = sign | hi;
      ASSERT_EQ(format.from_float(mid_f), even) << "lo=0x" << std::hex << lo;
      ASSERT_EQ(format.from_double(mid), even) << "lo=0x" << std::hex << lo;
      ASSERT_EQ(format.from_float(std::nextafter(mid_f, static_cast<float>(a))), want_lo)
          << "lo=0x" << std::hex << lo;
      ASSERT_EQ(format.from_float(std::nextafter(mid_f, static_cast<float>(b) * 2)), want_hi)
          << "lo=0x" << std::hex << lo;
      const double below = std::nextafter(mid, a);
      const double above = std::nextafter(mid, b * 2);
      ASSERT_EQ(format.from_double(below), want_lo) << "lo=0x" << std::hex << lo;
      ASSERT_EQ(format.from_double(above), want_hi) << "lo=0x" << std::hex << lo;
      // The double-rounding trap: these doubles round to the exact midpoint as floats.
      ASSERT_EQ(static_cast<float>(above), mid_f) << "lo=0x" << std::hex << lo;
      ASSERT_EQ(static_cast<float>(below), mid_f) << "lo=0x" << std::hex << lo;
    }
  }
}

// Every float NaN (2^24 of them): stays NaN, quiet, sign kept, top payload bits kept.
void ExpectEveryFloatNaNStaysNaN(const Narrow16& format) {
  const int dropped = 23 - format.mantissa_bits;
  const uint16_t quiet_bit = static_cast<uint16_t>(1u << (format.mantissa_bits - 1));
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t mantissa = 1; mantissa < (1u << 23); ++mantissa) {
      const uint32_t bits = sign | 0x7F800000u | mantissa;
      const uint16_t expected = static_cast<uint16_t>(sign >> 16) | format.Infinity() | quiet_bit |
                                static_cast<uint16_t>(mantissa >> dropped);
      const uint16_t got = format.from_float(std::bit_cast<float>(bits));
      if (got != expected) {
        FAIL() << "float bits=0x" << std::hex << bits << " got 0x" << got << " want 0x" << expected;
      }
    }
  }
}

TEST(Half, DecodesEveryPatternExactly) { ExpectDecodesEveryPattern(kHalf); }

TEST(Half, WideningQuietsNaNAndKeepsPayload) {
  for (uint32_t i = 0; i <= 0xFFFF; ++i) {
    const auto bits = static_cast<uint16_t>(i);
    if (!kHalf.IsNaN(bits)) continue;
    const uint32_t expected =
        ((i & 0x8000u) << 16) | 0x7F800000u | 0x00400000u | ((i & 0x3FFu) << 13);
    ASSERT_EQ(Bits(HalfBitsToFloat(bits)), expected) << "bits=0x" << std::hex << i;
  }
}

TEST(Half, RoundTripsEveryPattern) { ExpectRoundTripsEveryPattern(kHalf); }

TEST(Half, MidpointsRoundToEven) { ExpectMidpointsRoundToEven(kHalf); }

TEST(Half, DoubleJustAboveMidpointRoundsUp) {
  // Between 1 (0x3C00, even) and 1 + 2^-10 (0x3C01): the midpoint is 1 + 2^-11.
  const double just_above = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  // Through float the value lands exactly on the midpoint and would tie to even...
  ASSERT_EQ(FloatToHalfBits(static_cast<float>(just_above)), 0x3C00);
  // ...but it lies above the midpoint, so the direct conversion must round up.
  EXPECT_EQ(DoubleToHalfBits(just_above), 0x3C01);
  EXPECT_EQ(DoubleToHalfBits(-just_above), 0xBC01);
}

TEST(Half, KeepsSignedZerosAndInfinities) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FloatToHalfBits(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(DoubleToHalfBits(-0.0), 0x8000);
  EXPECT_EQ(FloatToHalfBits(kInf), 0x7C00);
  EXPECT_EQ(FloatToHalfBits(-kInf), 0xFC00);
  EXPECT_EQ(DoubleToHalfBits(-static_cast<double>(kInf)), 0xFC00);
  EXPECT_EQ(Bits(HalfBitsToFloat(0x8000)), 0x80000000u);
  EXPECT_EQ(HalfBitsToFloat(0xFC00), -kInf);
}

TEST(Half, OverflowsToInfinityFrom65520) {
  EXPECT_EQ(FloatToHalfBits(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalfBits(std::nextafter(65520.0f, 0.0f)), 0x7BFF);
  EXPECT_EQ(FloatToHalfBits(65520.0f), 0x7C00);
  EXPECT_EQ(DoubleToHalfBits(std::nextafter(65520.0, 0.0)), 0x7BFF);
  EXPECT_EQ(DoubleToHalfBits(65520.0), 0x7C00);
  EXPECT_EQ(DoubleToHalfBits(-65520.0), 0xFC00);
  // One binade past the largest exponent: an exponent field of all ones must not leak out.
  EXPECT_EQ(FloatToHalfBits(65536.0f), 0x7C00);
  EXPECT_EQ(DoubleToHalfBits(-131071.0), 0xFC00);
  EXPECT_EQ(FloatToHalfBits(std::numeric_limits<float>::max()), 0x7C00);
  EXPECT_EQ(DoubleToHalfBits(std::numeric_limits<double>::max()), 0x7C00);
  EXPECT_EQ(DoubleToHalfBits(-std::numeric_limits<double>::max()), 0xFC00);
}

TEST(Half, UnderflowsThroughSubnormalsToSignedZero) {
  const double smallest = std::ldexp(1.0, -24);
  EXPECT_EQ(DoubleToHalfBits(smallest), 0x0001);
  EXPECT_EQ(DoubleToHalfBits(smallest / 2), 0x0000);  // tie, to even
  EXPECT_EQ(DoubleToHalfBits(-smallest / 2), 0x8000);
  EXPECT_EQ(DoubleToHalfBits(std::nextafter(smallest / 2, 1.0)), 0x0001);
  EXPECT_EQ(DoubleToHalfBits(smallest * 1.5), 0x0002);  // tie, to even
  EXPECT_EQ(FloatToHalfBits(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(FloatToHalfBits(-std::numeric_limits<float>::denorm_min()), 0x8000);
  EXPECT_EQ(DoubleToHalfBits(std::numeric_limits<double>::denorm_min()), 0x0000);
  EXPECT_EQ(DoubleToHalfBits(-std::numeric_limits<double>::min()), 0x8000);
  // Largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(DoubleToHalfBits(std::ldexp(1.0, -14) - std::ldexp(1.0, -26)), 0x0400);
}

TEST(Half, EveryFloatNaNStaysNaN) { ExpectEveryFloatNaNStaysNaN(kHalf); }

TEST(Half, DoubleNaNStaysNaNWithSignAndTopPayload) {
  const auto from = [](uint64_t bits) { return DoubleToHalfBits(std::bit_cast<double>(bits)); };
  EXPECT_EQ(from(0x7FF0000000000001u), 0x7E00);  // payload only in dropped bits: not infinity
  EXPECT_EQ(from(0xFFF0000000000001u), 0xFE00);
  EXPECT_EQ(from(0x7FF8000000000000u), 0x7E00);
  EXPECT_EQ(from(0x7FF4000000000000u), 0x7F00);  // signaling, payload bit 50 -> half bit 8
  EXPECT_EQ(from(0xFFFFFFFFFFFFFFFFu), 0xFFFF);
}

TEST(Half, BannerExampleHolds) {
  EXPECT_EQ(FloatToHalfBits(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(HalfBitsToFloat(0x3555), 0.333251953125f);
}

TEST(BFloat16, DecodesEveryPatternExactly) { ExpectDecodesEveryPattern(kBFloat16); }

TEST(BFloat16, WideningIsAPlainShift) {
  for (uint32_t i = 0; i <= 0xFFFF; ++i) {
    ASSERT_EQ(Bits(BFloat16BitsToFloat(static_cast<uint16_t>(i))), i << 16)
        << "bits=0x" << std::hex << i;
  }
}

TEST(BFloat16, RoundTripsEveryPattern) { ExpectRoundTripsEveryPattern(kBFloat16); }

TEST(BFloat16, MidpointsRoundToEven) { ExpectMidpointsRoundToEven(kBFloat16); }

TEST(BFloat16, DoubleJustAboveMidpointRoundsUp) {
  // Between 1 (0x3F80, even) and 1 + 2^-7 (0x3F81): the midpoint is 1 + 2^-8.
  const double just_above = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  ASSERT_EQ(FloatToBFloat16Bits(static_cast<float>(just_above)), 0x3F80);
  EXPECT_EQ(DoubleToBFloat16Bits(just_above), 0x3F81);
}

TEST(BFloat16, OverflowsToInfinity) {
  // Largest finite bfloat16 is (2 - 2^-7) * 2^127; the tie with 2^128 goes to infinity.
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
  const double tie = std::ldexp(2.0 - std::ldexp(1.0, -8), 127);
  EXPECT_EQ(DoubleToBFloat16Bits(max_finite), 0x7F7F);
  EXPECT_EQ(DoubleToBFloat16Bits(std::nextafter(tie, 0.0)), 0x7F7F);
  EXPECT_EQ(DoubleToBFloat16Bits(tie), 0x7F80);
  EXPECT_EQ(FloatToBFloat16Bits(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(FloatToBFloat16Bits(-std::numeric_limits<float>::max()), 0xFF80);
  EXPECT_EQ(DoubleToBFloat16Bits(std::ldexp(1.5, 128)), 0x7F80);
  EXPECT_EQ(DoubleToBFloat16Bits(1e300), 0x7F80);
  EXPECT_EQ(FloatToBFloat16Bits(-std::numeric_limits<float>::infinity()), 0xFF80);
  EXPECT_EQ(FloatToBFloat16Bits(-0.0f), 0x8000);
}

TEST(BFloat16, RoundsFloatSubnormals) {
  // bfloat16 shares float's exponent range, so float subnormals round on the top 16 bits.
  EXPECT_EQ(FloatToBFloat16Bits(std::bit_cast<float>(0x00008000u)), 0x0000);  // tie, to even
  EXPECT_EQ(FloatToBFloat16Bits(std::bit_cast<float>(0x00008001u)), 0x0001);
  EXPECT_EQ(FloatToBFloat16Bits(std::bit_cast<float>(0x00018000u)), 0x0002);  // tie, to even
  EXPECT_EQ(FloatToBFloat16Bits(std::bit_cast<float>(0x807FFFFFu)), 0x8080);  // into normals
  EXPECT_EQ(DoubleToBFloat16Bits(std::numeric_limits<double>::denorm_min()), 0x0000);
  EXPECT_EQ(DoubleToBFloat16Bits(std::ldexp(1.0, -134)), 0x0000);  // tie, to even
  EXPECT_EQ(DoubleToBFloat16Bits(std::nextafter(std::ldexp(1.0, -134), 1.0)), 0x0001);
}

TEST(BFloat16, EveryFloatNaNStaysNaN) { ExpectEveryFloatNaNStaysNaN(kBFloat16); }

TEST(BFloat16, DoubleNaNStaysNaNWithSignAndTopPayload) {
  const auto from = [](uint64_t bits) { return DoubleToBFloat16Bits(std::bit_cast<double>(bits)); };
  EXPECT_EQ(from(0x7FF0000000000001u), 0x7FC0);
  EXPECT_EQ(from(0xFFF0000000000001u), 0xFFC0);
  EXPECT_EQ(from(0x7FF2000000000000u), 0x7FD0);  // signaling, payload bit 49 -> bf16 bit 4
  EXPECT_EQ(from(0xFFFFFFFFFFFFFFFFu), 0xFFFF);
}

TEST(BFloat16, BannerExampleHolds) {
  // 3e38 = 1.763... * 2^127; nearest 8-bit significand is 226/128 -> mantissa 0x62.
  EXPECT_EQ(DoubleToBFloat16Bits(3.0e38), 0x7F62);
}

}  // namespace
}  // namespace opcts
