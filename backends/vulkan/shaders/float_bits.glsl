// float16 / bfloat16 <-> float32 on raw bits, with integer arithmetic only: exact, independent of
// the device's float16 support and of how its float units treat subnormals. Narrowing rounds to
// nearest even, overflows to infinity, produces subnormals and keeps a NaN a (quiet) NaN with its
// sign and top payload bits - the rules of spec/half.h, which the tests' oracle uses.

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

// Conversion codes shared with the host (strided_copy.h, enum Convert).
const uint kConvertNone = 0u;
const uint kConvertHalfToFloat = 1u;
const uint kConvertBFloat16ToFloat = 2u;
const uint kConvertFloatToHalf = 3u;
const uint kConvertFloatToBFloat16 = 4u;

uvec2 ConvertBits(uvec2 bits, uint convert) {
  if (convert == kConvertHalfToFloat) return uvec2(HalfToFloatBits(bits.x), 0u);
  if (convert == kConvertBFloat16ToFloat) return uvec2(BFloat16ToFloatBits(bits.x), 0u);
  if (convert == kConvertFloatToHalf) return uvec2(FloatToHalfBits(bits.x), 0u);
  if (convert == kConvertFloatToBFloat16) return uvec2(FloatToBFloat16Bits(bits.x), 0u);
  return bits;
}
