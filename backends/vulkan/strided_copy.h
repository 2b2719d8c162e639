// Records strided_copy.comp: every element of a tensor of `sizes` copied from one layout to
// another, optionally converting float16/bfloat16 <-> float32 or float32/bfloat16 <-> float64.
// Element sizes may differ (a 1-byte integer lands in a 4-byte word, zero-extended, and comes back
// truncated).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"
#include "gpu.h"

namespace opcts::vulkan {

// Mirrors the constants in shaders/float_bits.glsl.
enum class Convert : uint32_t {
  kNone = 0,
  kHalfToFloat = 1,
  kBFloat16ToFloat = 2,
  kFloatToHalf = 3,
  kFloatToBFloat16 = 4,
  kFloatToDouble = 5,
  kBFloat16ToDouble = 6,
  kDoubleToFloat = 7,
  kDoubleToBFloat16 = 8,
};

struct StridedTensor {
  BufferRange buffer;
  std::span<const uint32_t> strides;  // in elements, one per size
  uint32_t element_bytes;             // 1, 2, 4 or 8
};

Result<void> RecordStridedCopy(Gpu& gpu, std::span<const uint32_t> sizes,
                               const StridedTensor& source, const StridedTensor& destination,
                               Convert convert);

// Row-major strides of a packed tensor.
std::vector<uint32_t> PackedStrides(std::span<const uint32_t> sizes);

}  // namespace opcts::vulkan
