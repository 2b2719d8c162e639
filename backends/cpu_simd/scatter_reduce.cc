#include "cpu_simd/scatter_reduce.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "opcts/backend.h"
#include "spec/half.h"

namespace opcts::cpu_simd {
namespace {

using plugin::ScatterReduction;

template <class T>
T Combine(ScatterReduction r, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if ((r == ScatterReduction::kMax || r == ScatterReduction::kMin) &&
        (std::isnan(a) || std::isnan(b)))
      return std::isnan(a) ? a : b;
  }
  switch (r) {
    case ScatterReduction::kAdd:
      if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                              static_cast<std::make_unsigned_t<T>>(b));
      else
        return a + b;
    case ScatterReduction::kMul:
      if constexpr (std::is_integral_v<T>) {
        // Through an unsigned type at least as wide as int: no promotion to signed int.
        using U =
            std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
        return static_cast<T>(static_cast<U>(static_cast<std::make_unsigned_t<T>>(a)) *
                              static_cast<U>(static_cast<std::make_unsigned_t<T>>(b)));
      } else {
        return a * b;
      }
    case ScatterReduction::kMax:
      return a < b ? b : a;
    case ScatterReduction::kMin:
      return b < a ? b : a;
    case ScatterReduction::kNone:
      break;
  }
  return b;
}

template <class T>
void CombineAs(ScatterReduction r, unsigned char* out, const unsigned char* update) {
  T a, b;
  std::memcpy(&a, out, sizeof a);
  std::memcpy(&b, update, sizeof b);
  const T c = Combine(r, a, b);
  std::memcpy(out, &c, sizeof c);
}

// float16 and bfloat16: through float, one rounding back.
template <class ToFloat, class FromFloat>
void CombineHalf(ScatterReduction r, unsigned char* out, const unsigned char* update, ToFloat to,
                 FromFloat from) {
  uint16_t a, b;
  std::memcpy(&a, out, 2);
  std::memcpy(&b, update, 2);
  const uint16_t c = from(Combine(r, to(a), to(b)));
  std::memcpy(out, &c, 2);
}

}  // namespace

void CombineElement(uint32_t data_type, ScatterReduction r, unsigned char* out,
                    const unsigned char* update) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64:
      return CombineAs<double>(r, out, update);
    case OPCTS_DTYPE_FLOAT32:
      return CombineAs<float>(r, out, update);
    case OPCTS_DTYPE_FLOAT16:
      return CombineHalf(r, out, update, HalfBitsToFloat, FloatToHalfBits);
    case OPCTS_DTYPE_BFLOAT16:
      return CombineHalf(r, out, update, BFloat16BitsToFloat, FloatToBFloat16Bits);
    case OPCTS_DTYPE_INT64:
      return CombineAs<int64_t>(r, out, update);
    case OPCTS_DTYPE_INT32:
      return CombineAs<int32_t>(r, out, update);
    case OPCTS_DTYPE_INT16:
      return CombineAs<int16_t>(r, out, update);
    case OPCTS_DTYPE_INT8:
      return CombineAs<int8_t>(r, out, update);
    case OPCTS_DTYPE_UINT64:
      return CombineAs<uint64_t>(r, out, update);
    case OPCTS_DTYPE_UINT32:
      return CombineAs<uint32_t>(r, out, update);
    case OPCTS_DTYPE_UINT16:
      return CombineAs<uint16_t>(r, out, update);
    case OPCTS_DTYPE_UINT8:
      return CombineAs<uint8_t>(r, out, update);
  }
}

bool HalfAccumulator::Needed(uint32_t data_type, ScatterReduction reduction) {
  return (data_type == OPCTS_DTYPE_FLOAT16 || data_type == OPCTS_DTYPE_BFLOAT16) &&
         (reduction == ScatterReduction::kAdd || reduction == ScatterReduction::kMul);
}

HalfAccumulator::HalfAccumulator(uint32_t data_type, ScatterReduction reduction, uint64_t elements)
    : bfloat16_(data_type == OPCTS_DTYPE_BFLOAT16),
      reduction_(reduction),
      values_(elements),
      is_touched_(elements) {}

float HalfAccumulator::ToFloat(const unsigned char* bits) const {
  uint16_t h;
  std::memcpy(&h, bits, 2);
  return bfloat16_ ? BFloat16BitsToFloat(h) : HalfBitsToFloat(h);
}

void HalfAccumulator::Combine(const unsigned char* out, uint64_t index,
                              const unsigned char* update) {
  if (!is_touched_[index]) {
    is_touched_[index] = true;
    touched_.push_back(index);
    values_[index] = ToFloat(out + index * 2);
  }
  values_[index] = cpu_simd::Combine(reduction_, values_[index], ToFloat(update));
}

void HalfAccumulator::Store(unsigned char* out) const {
  for (uint64_t index : touched_) {
    const uint16_t bits =
        bfloat16_ ? FloatToBFloat16Bits(values_[index]) : FloatToHalfBits(values_[index]);
    std::memcpy(out + index * 2, &bits, 2);
  }
}

}  // namespace opcts::cpu_simd
