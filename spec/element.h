// Reading and writing single elements of any dtype from raw tensor bytes, losslessly.
//
//   uint64_t bits = LoadBits(DType::kFloat16, p);   // the raw 16-bit pattern
//   long double v = BitsToLongDouble(DType::kFloat16, bits);
#pragma once

#include <cstdint>
#include <cstring>

#include "spec/dtype.h"

namespace opcts {

// The element's bit pattern, zero-extended to 64 bits.
inline uint64_t LoadBits(DType t, const uint8_t* p) {
  switch (DTypeSize(t)) {
    case 1:
      return p[0];
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

inline void StoreBits(DType t, uint8_t* p, uint64_t bits) {
  switch (DTypeSize(t)) {
    case 1:
      p[0] = static_cast<uint8_t>(bits);
      break;
    case 2: {
      uint16_t v = static_cast<uint16_t>(bits);
      std::memcpy(p, &v, 2);
      break;
    }
    case 4: {
      uint32_t v = static_cast<uint32_t>(bits);
      std::memcpy(p, &v, 4);
      break;
    }
    default:
      std::memcpy(p, &bits, 8);
      break;
  }
}

// Mask of the dtype's width: 0xFF for 8-bit types, all ones for 64-bit.
constexpr uint64_t BitsMask(DType t) {
  return DTypeBits(t) == 64 ? ~uint64_t{0} : (uint64_t{1} << DTypeBits(t)) - 1;
}

// Integer bits as a signed value (sign-extended for signed dtypes).
int64_t BitsToInt64(DType t, uint64_t bits);

// The exact value of any element (integers up to 64 bits fit long double's 64-bit mantissa).
long double BitsToLongDouble(DType t, uint64_t bits);

// Float elements rounded to nearest even from a double; integers wrapped modulo 2^n from an
// int64/uint64. Used by value generators and vector parsing, not by the oracle.
uint64_t DoubleToBits(DType t, double v);

bool IsNaNBits(DType t, uint64_t bits);

// Largest finite value and the overflow threshold (max finite + half an ULP: values at or
// beyond it round to infinity) of a float dtype.
long double MaxFinite(DType t);
long double OverflowThreshold(DType t);
// Unit roundoff 2^-p (p = significand bits), the smallest subnormal and the smallest normal.
long double UnitRoundoff(DType t);
long double SmallestSubnormal(DType t);
long double SmallestNormal(DType t);
// Distance between adjacent representable values around |v| (the subnormal step below normals).
long double UlpAt(DType t, long double v);

}  // namespace opcts
