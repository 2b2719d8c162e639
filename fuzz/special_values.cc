#include "fuzz/special_values.h"

#include <cmath>
#include <map>

#include "spec/element.h"

namespace opcts {
namespace {

struct FloatBits {
  unsigned mantissa;  // stored significand bits
  unsigned width;
};

FloatBits Layout(DType t) {
  switch (t) {
    case DType::kFloat64:
      return {52, 64};
    case DType::kFloat32:
      return {23, 32};
    case DType::kFloat16:
      return {10, 16};
    default:
      return {7, 16};  // bfloat16
  }
}

std::vector<uint64_t> FloatSpecials(DType t) {
  const auto [mantissa, width] = Layout(t);
  const uint64_t sign = uint64_t{1} << (width - 1);
  const uint64_t exponent = (sign - 1) & ~((uint64_t{1} << mantissa) - 1);
  const uint64_t quiet = uint64_t{1} << (mantissa - 1);
  const uint64_t all_mantissa = (uint64_t{1} << mantissa) - 1;
  const long double max = MaxFinite(t);
  std::vector<uint64_t> v = {
      0,
      sign,  // +0, -0
      exponent,
      sign | exponent,  // +inf, -inf
      exponent | quiet,
      sign | exponent | quiet,  // quiet NaNs
      exponent | 1,
      exponent | quiet | 0x5,  // a signalling NaN, a quiet NaN with payload
      1,
      sign | 1,
      all_mantissa,             // smallest subnormals, largest subnormal
      uint64_t{1} << mantissa,  // smallest normal
      DoubleToBits(t, static_cast<double>(max)),
      DoubleToBits(t, -static_cast<double>(max)),
      DoubleToBits(t, static_cast<double>(max) / 2),
      DoubleToBits(t, 1.0),
      DoubleToBits(t, -1.0),
      DoubleToBits(t, 0.5),
      DoubleToBits(t, 3.0),
      DoubleToBits(t, 1.0 + std::ldexp(1.0, -static_cast<int>(mantissa))),  // 1 + ulp
      DoubleToBits(t, 65504.0),
      DoubleToBits(t, -65504.0),    // float16's largest finite
      DoubleToBits(t, 65520.0),     // rounds to float16 infinity
      DoubleToBits(t, 2049.0),      // float16: the first odd integer lost
      DoubleToBits(t, 16777217.0),  // float32: the same
      DoubleToBits(t, 0.1),
      // Factors whose pairs overflow or underflow, and recover: sqrt(max) * sqrt(max) is inf
      // while sqrt(max) * (1 / sqrt(max)) is 1 (products judged by their reachable outcomes).
      DoubleToBits(t, std::sqrt(static_cast<double>(max))),
      DoubleToBits(t, -std::sqrt(static_cast<double>(max))),
      DoubleToBits(t, 1 / std::sqrt(static_cast<double>(max))),
  };
  return v;
}

std::vector<uint64_t> IntegerSpecials(DType t) {
  const uint64_t mask = BitsMask(t);
  const unsigned bits = DTypeBits(t);
  const uint64_t high = uint64_t{1} << (bits - 1);  // min signed / half of unsigned range
  std::vector<uint64_t> v = {0,
                             1,
                             2,
                             3,
                             mask /* -1 or max */,
                             mask - 1,
                             high - 1,
                             high,
                             high + 1,
                             0x5555555555555555ull & mask,
                             uint64_t{1} << (bits / 2)};
  if (bits == 64) {
    // Truncated to 32 bits these become 0, 1 and -1: an index or count that a backend narrows.
    v.insert(v.end(), {uint64_t{1} << 32, (uint64_t{1} << 32) + 1, 0xFFFFFFFFull, 0x80000000ull});
  }
  return v;
}

}  // namespace

const std::vector<uint64_t>& SpecialValues(DType t) {
  static const std::map<DType, std::vector<uint64_t>> table = [] {
    std::map<DType, std::vector<uint64_t>> m;
    for (DType d : kAllDTypes) m[d] = IsFloat(d) ? FloatSpecials(d) : IntegerSpecials(d);
    return m;
  }();
  return table.at(t);
}

}  // namespace opcts
