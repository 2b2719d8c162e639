// Element types as the mutant backend computes with them: for each dtype, the accumulator type
// of a scan, how an element becomes an accumulator and back, and the two scan operations.
// float16 and bfloat16 accumulate in float32 (spec/half.h converts, rounding to nearest even);
// integers accumulate in 64 bits and wrap modulo 2^n when stored.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "spec/half.h"

namespace opcts::mutant {

template <typename T>
T LoadAs(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void StoreAs(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

#ifdef OPCTS_MUTANT_FLOAT32_FLUSH_TO_ZERO
// Mutant: float32 scans flush subnormal inputs and results to signed zero, as Direct3D allows
// (spec float_rules), also where the spec (OpenVINO, ONNX) says IEEE 754.
template <typename A>
A Flushed(A v) {
  return std::is_same_v<A, float> && std::fabs(v) < 0x1p-126f ? std::copysign(A{0}, v) : v;
}
#else
template <typename A>
A Flushed(A v) {
  return v;
}
#endif

template <typename T, typename A>
struct FloatElement {
  using Acc = A;
  static constexpr size_t kSize = sizeof(T);
  static Acc Load(const uint8_t* p) { return Flushed<Acc>(LoadAs<T>(p)); }
  static void Store(uint8_t* p, Acc v) { StoreAs<T>(p, static_cast<T>(v)); }
  static Acc Add(Acc a, Acc b) { return Flushed(a + b); }
#ifdef OPCTS_MUTANT_LOG_DOMAIN_PRODUCT
  // Mutant: products as exp(log|a| + log|b|) with the sign apart (a "stable" product), which
  // errs by u * |log| per step: many ULPs where factors are far from 1 (1e30 * 1e-30).
  static Acc Multiply(Acc a, Acc b) {
    const Acc magnitude = std::exp(std::log(std::fabs(a)) + std::log(std::fabs(b)));
    return std::signbit(a) != std::signbit(b) ? -magnitude : magnitude;
  }
#else
  static Acc Multiply(Acc a, Acc b) { return Flushed(a * b); }
#endif
};
using Float64Element = FloatElement<double, double>;
using Float32Element = FloatElement<float, float>;

struct Float16Element {
  using Acc = float;
  static constexpr size_t kSize = 2;
  static Acc Load(const uint8_t* p) { return HalfBitsToFloat(LoadAs<uint16_t>(p)); }
  static void Store(uint8_t* p, Acc v) { StoreAs<uint16_t>(p, FloatToHalfBits(v)); }
#ifdef OPCTS_MUTANT_FLOAT16_ACCUMULATOR
  // Mutant: the running value is kept in the storage type, rounded to float16 at every step.
  static Acc Round(Acc v) { return HalfBitsToFloat(FloatToHalfBits(v)); }
  static Acc Add(Acc a, Acc b) { return Round(a + b); }
  static Acc Multiply(Acc a, Acc b) { return Round(a * b); }
#else
  static Acc Add(Acc a, Acc b) { return a + b; }
  static Acc Multiply(Acc a, Acc b) { return a * b; }
#endif
};

struct BFloat16Element {
  using Acc = float;
  static constexpr size_t kSize = 2;
  static Acc Load(const uint8_t* p) { return BFloat16BitsToFloat(LoadAs<uint16_t>(p)); }
  static void Store(uint8_t* p, Acc v) { StoreAs<uint16_t>(p, FloatToBFloat16Bits(v)); }
  static Acc Add(Acc a, Acc b) { return a + b; }
  static Acc Multiply(Acc a, Acc b) { return a * b; }
};

// Integers: unsigned arithmetic in the accumulator wraps modulo 2^bits(Acc), and storing keeps
// the low bits, which is arithmetic modulo 2^n for every n <= bits(Acc).
#ifdef OPCTS_MUTANT_INT64_NARROW_ACCUMULATOR
// Mutant: 64-bit integers accumulate in 32 bits, as on a device without 64-bit integer math.
using WideIntAcc = uint32_t;
#else
using WideIntAcc = uint64_t;
#endif

template <typename T>
struct IntElement {
  using Acc = std::conditional_t<sizeof(T) == 8, WideIntAcc, uint64_t>;
  static constexpr size_t kSize = sizeof(T);
  static Acc Load(const uint8_t* p) { return static_cast<Acc>(LoadAs<T>(p)); }
  static void Store(uint8_t* p, Acc v) {
    // Signed values narrower than the accumulator come back sign-extended.
    StoreAs<T>(p, static_cast<T>(static_cast<std::make_signed_t<Acc>>(v)));
  }
#ifdef OPCTS_MUTANT_UNSIGNED_SATURATE
  // Mutant: unsigned results saturate at the type's maximum instead of wrapping.
  static constexpr Acc kMax = static_cast<Acc>(static_cast<std::make_unsigned_t<T>>(~0ull));
  static Acc Add(Acc a, Acc b) {
    Acc r;
    if constexpr (std::is_unsigned_v<T>)
      return __builtin_add_overflow(a, b, &r) || r > kMax ? kMax : r;
    return a + b;
  }
  static Acc Multiply(Acc a, Acc b) {
    Acc r;
    if constexpr (std::is_unsigned_v<T>)
      return __builtin_mul_overflow(a, b, &r) || r > kMax ? kMax : r;
    return a * b;
  }
#else
  static Acc Add(Acc a, Acc b) { return a + b; }
  static Acc Multiply(Acc a, Acc b) { return a * b; }
#endif
};

}  // namespace opcts::mutant
