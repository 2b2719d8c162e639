// float16 / bfloat16 <-> float32 and float32 / bfloat16 <-> float64 on raw bits, with integer
// arithmetic only: exact, independent of the device's float16 support and of how its float units
// treat subnormals. Narrowing rounds to nearest even, overflows to infinity, produces subnormals
// and keeps a NaN a (quiet) NaN with its sign and top payload bits - the rules of spec/half.h,
// which the tests' oracle uses.

uint HalfToFloatBits(uint h) {
  uint sign = (h & 0x8000u) << 16u;
  uint exponent = (h >> 10u) & 0x1Fu;
  uint mantissa = h & 0x3FFu;
  if (exponent == 0x1Fu) return sign | 0x7F800000u | (mantissa << 13u);
  if (exponent != 0u) return sign | ((exponent + 112u) << 23u) | (mantissa << 13u);
  if (mantissa == 0u) return sign;
  // A float16 subnormal m * 2^-24 is a normal float32: renormalize around its top set bit.
  uint top = uint(findMSB(mantissa));
  return sign | ((top + 103u) << 23u) | ((mantissa << (23u - top)) & 0x7FFFFFu);
}

uint FloatToHalfBits(uint f) {
  uint sign = (f >> 16u) & 0x8000u;
  uint magnitude = f & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return sign | 0x7E00u | ((magnitude >> 13u) & 0x3FFu);
  if (magnitude >= 0x477FF000u) return sign | 0x7C00u;  // >= 65520 rounds to infinity
  if (magnitude >= 0x38800000u) {                       // a normal float16 (>= 2^-14)
    uint rebiased = magnitude - 0x38000000u;
    return sign | ((rebiased + 0xFFFu + ((rebiased >> 13u) & 1u)) >> 13u);
  }
  if (magnitude < 0x33000000u) return sign;  // below 2^-25: rounds to zero
  // Subnormal float16: the significand, implicit bit included, in units of 2^-24.
  uint exponent = magnitude >> 23u;
  uint significand = (magnitude & 0x7FFFFFu) | 0x800000u;
  uint shift = 126u - exponent;
  uint quotient = significand >> shift;
  uint remainder = significand & ((1u << shift) - 1u);
  uint half_unit = 1u << (shift - 1u);
  if (remainder > half_unit || (remainder == half_unit && (quotient & 1u) != 0u)) quotient += 1u;
  return sign | quotient;
}

uint BFloat16ToFloatBits(uint b) { return b << 16u; }

uint FloatToBFloat16Bits(uint f) {
  if ((f & 0x7FFFFFFFu) > 0x7F800000u) return (f >> 16u) | 0x40u;
  return (f + 0x7FFFu + ((f >> 16u) & 1u)) >> 16u;
}

// float32 -> float64: exact, subnormals renormalized, a NaN's payload kept. uvec2(low, high).
uvec2 FloatToDoubleBits(uint f) {
  uint sign = f & 0x80000000u;
  uint exponent = (f >> 23u) & 0xFFu;
  uint mantissa = f & 0x7FFFFFu;
  uint biased = exponent + 896u;  // float64's bias 1023 over float32's 127
  if (exponent == 0xFFu) biased = 0x7FFu;
  if (exponent == 0u) {
    if (mantissa == 0u) return uvec2(0u, sign);
    // m * 2^-149 with its top set bit at `top` is 2^(top - 149) times 1.fraction.
    uint top = uint(findMSB(mantissa));
    biased = top + 874u;
    mantissa = (mantissa << (23u - top)) & 0x7FFFFFu;
  }
  return uvec2(mantissa << 29u, sign | (biased << 20u) | (mantissa >> 3u));
}

// (high, low) >> shift rounded to nearest, ties to even: the 53-bit significands below.
uint ShiftRightRoundingToEven(uint high, uint low, uint shift) {
  if (shift >= 64u) return 0u;  // below a quarter of the unit: the significand is < 2^53
  uint quotient, rest_high, rest_low, half_high, half_low;
  if (shift >= 32u) {
    uint s = shift - 32u;
    quotient = high >> s;
    rest_high = s == 0u ? 0u : high & ((1u << s) - 1u);
    rest_low = low;
    half_high = s == 0u ? 0u : 1u << (s - 1u);
    half_low = s == 0u ? 0x80000000u : 0u;
  } else {
    quotient = (high << (32u - shift)) | (low >> shift);
    rest_high = 0u;
    rest_low = low & ((1u << shift) - 1u);
    half_high = 0u;
    half_low = 1u << (shift - 1u);
  }
  bool above = rest_high > half_high || (rest_high == half_high && rest_low > half_low);
  bool tie = rest_high == half_high && rest_low == half_low;
  return quotient + ((above || (tie && (quotient & 1u) != 0u)) ? 1u : 0u);
}

// float64 -> a float of float32's exponent range with `fraction_bits` (23: float32, 7: bfloat16),
// rounded once to nearest even: overflow to infinity, gradual underflow to subnormals, a NaN kept
// a quiet NaN with its sign and top payload bits (as FloatToBFloat16Bits keeps them).
uint DoubleToNarrowBits(uvec2 d, uint fraction_bits) {
  uint sign = d.y & 0x80000000u;
  uint exponent = (d.y >> 20u) & 0x7FFu;
  uint high = d.y & 0xFFFFFu;
  uint narrow_shift = 23u - fraction_bits;
  if (exponent == 0x7FFu) {
    uint f = sign | 0x7F800000u;
    if ((high | d.x) != 0u) f |= 0x400000u | (high << 3u) | (d.x >> 29u);
    return fraction_bits == 23u ? f : FloatToBFloat16Bits(f);
  }
  sign >>= narrow_shift;
  if (exponent > 1150u) return sign | (0xFFu << fraction_bits);  // beyond float32's range
  if (exponent == 0u) return sign;  // a float64 subnormal rounds to zero here
  high |= 0x100000u;                 // the implicit bit: a 53-bit significand
  if (exponent >= 897u) {
    // Normal: keep 1 + fraction_bits bits; a carry out of them steps the exponent (to infinity
    // at the top), as the sum below does.
    uint kept = ShiftRightRoundingToEven(high, d.x, 52u - fraction_bits);
    return sign + ((exponent - 896u) << fraction_bits) + kept - (1u << fraction_bits);
  }
  // Subnormal: units of 2^-149 (float32) or 2^-133 (bfloat16); rounding up to the smallest
  // normal gives its bits too.
  return sign | ShiftRightRoundingToEven(high, d.x, 926u - exponent + narrow_shift);
}

uint DoubleToFloatBits(uvec2 d) { return DoubleToNarrowBits(d, 23u); }
uint DoubleToBFloat16Bits(uvec2 d) { return DoubleToNarrowBits(d, 7u); }

// Conversion codes shared with the host (strided_copy.h, enum Convert).
const uint kConvertNone = 0u;
const uint kConvertHalfToFloat = 1u;
const uint kConvertBFloat16ToFloat = 2u;
const uint kConvertFloatToHalf = 3u;
const uint kConvertFloatToBFloat16 = 4u;
const uint kConvertFloatToDouble = 5u;
const uint kConvertBFloat16ToDouble = 6u;
const uint kConvertDoubleToFloat = 7u;
const uint kConvertDoubleToBFloat16 = 8u;

uvec2 ConvertBits(uvec2 bits, uint convert) {
  if (convert == kConvertHalfToFloat) return uvec2(HalfToFloatBits(bits.x), 0u);
  if (convert == kConvertBFloat16ToFloat) return uvec2(BFloat16ToFloatBits(bits.x), 0u);
  if (convert == kConvertFloatToHalf) return uvec2(FloatToHalfBits(bits.x), 0u);
  if (convert == kConvertFloatToBFloat16) return uvec2(FloatToBFloat16Bits(bits.x), 0u);
  if (convert == kConvertFloatToDouble) return FloatToDoubleBits(bits.x);
  if (convert == kConvertBFloat16ToDouble) return FloatToDoubleBits(BFloat16ToFloatBits(bits.x));
  if (convert == kConvertDoubleToFloat) return uvec2(DoubleToFloatBits(bits), 0u);
  if (convert == kConvertDoubleToBFloat16) return uvec2(DoubleToBFloat16Bits(bits), 0u);
  return bits;
}
