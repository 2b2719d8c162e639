#include "cumsum_float32.h"

#include <cstdint>
#include <vector>

namespace my_plugin {
namespace {

// Strides in elements: the desc's own, or row-major (packed) when it has none. A stride of 0
// (broadcast) and strides larger than packed (padding) need no special case.
std::vector<uint64_t> EffectiveStrides(const opcts_tensor_desc& t) {
  std::vector<uint64_t> strides(t.dimension_count);
  uint64_t packed = 1;
  for (uint32_t d = t.dimension_count; d-- > 0;) {
    strides[d] = t.strides != nullptr ? t.strides[d] : packed;
    packed *= t.sizes[d];
  }
  return strides;
}

}  // namespace

void CumulativeSumFloat32(const opcts_dml_cumulative_desc& desc, const void* input, void* output) {
  const opcts_tensor_desc& in = *desc.input;
  const uint32_t rank = in.dimension_count;
  const uint32_t axis = desc.axis;
  const uint32_t length = in.sizes[axis];
  const bool decreasing = desc.axis_direction == OPCTS_AXIS_DIRECTION_DECREASING;
  const bool exclusive = desc.has_exclusive != 0;
  const std::vector<uint64_t> in_strides = EffectiveStrides(in);
  const std::vector<uint64_t> out_strides = EffectiveStrides(*desc.output);

  // In place, the output overwrites the input as we go; read from a copy so every sum sees the
  // original values whatever the strides.
  std::vector<unsigned char> input_copy;
  if (input == output) {
    input_copy.assign(static_cast<const unsigned char*>(input),
                      static_cast<const unsigned char*>(input) + in.total_tensor_size_in_bytes);
    input = input_copy.data();
  }
  // The harness aligns every buffer to at least 16 bytes, so float access is aligned.
  const float* x = static_cast<const float*>(input);
  float* y = static_cast<float*>(output);

  uint64_t lines = 1;  // every dimension but the axis
  for (uint32_t d = 0; d < rank; ++d)
    if (d != axis) lines *= in.sizes[d];

  uint32_t position[8] = {};  // the current line's coordinates; position[axis] stays 0
  for (uint64_t line = 0; line < lines; ++line) {
    uint64_t in_base = 0, out_base = 0;
    for (uint32_t d = 0; d < rank; ++d) {
      in_base += position[d] * in_strides[d];
      out_base += position[d] * out_strides[d];
    }
    // Accumulating in double keeps the error far inside the float32 accuracy bound. The sum
    // starts from -0.0, IEEE's additive identity: -0.0 + x == x for x == -0.0 too, where +0.0
    // would turn a line of -0.0 into +0.0. An exclusive scan's first output is the empty sum, +0.0.
    double sum = -0.0;
    for (uint32_t step = 0; step < length; ++step) {
      const uint64_t k = decreasing ? length - 1 - step : step;
      const float value = x[in_base + k * in_strides[axis]];
      if (!exclusive) sum += value;
      y[out_base + k * out_strides[axis]] = exclusive && step == 0 ? 0.0f : static_cast<float>(sum);
      if (exclusive) sum += value;
    }
    // Next line: count up like an odometer, skipping the axis.
    for (uint32_t d = rank; d-- > 0;) {
      if (d == axis) continue;
      if (++position[d] < in.sizes[d]) break;
      position[d] = 0;
    }
  }
}

}  // namespace my_plugin
