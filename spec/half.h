// Bit-exact float16 (IEEE binary16) and bfloat16 conversions, independent of compiler
// _Float16 support and of the floating-point environment (pure integer arithmetic).
//
// Narrowing rounds to nearest, ties to even, with IEEE overflow (float16: |x| >= 65520 -> inf),
// subnormals produced, signed zeros kept. A NaN stays a NaN: it is quieted, keeps its sign and
// the top payload bits that fit. The double overloads round once, straight from the double:
// going through float first would round twice and break ties the wrong way.
//
//   uint16_t h = FloatToHalfBits(1.0f / 3.0f);   // 0x3555
//   float back = HalfBitsToFloat(h);              // 0.333251953125f, exact
//   uint16_t b = DoubleToBFloat16Bits(3.0e38);   // 0x7F62
#pragma once

#include <cstdint>

namespace opcts {

// float / double -> binary16 bits, round to nearest even.
uint16_t FloatToHalfBits(float f);
uint16_t DoubleToHalfBits(double d);

// binary16 bits -> float, exact. A signaling NaN comes back quiet, as F16C's vcvtph2ps does.
float HalfBitsToFloat(uint16_t h);

// float / double -> bfloat16 bits (the top 16 bits of a float), round to nearest even.
uint16_t FloatToBFloat16Bits(float f);
uint16_t DoubleToBFloat16Bits(double d);

// bfloat16 bits -> float, exact: a plain shift, so NaN bits (signaling ones too) pass unchanged,
// as every bfloat16 library and vpslld-based hardware path does.
float BFloat16BitsToFloat(uint16_t b);

}  // namespace opcts
