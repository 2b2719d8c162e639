#include "spec/tensor.h"

#include <bit>

namespace opcts {

uint64_t ElementCount(const TensorDesc& t) {
  uint64_t n = 1;
  for (uint32_t s : t.sizes) n *= s;
  return n;
}

std::vector<uint32_t> PackedStrides(const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> strides(sizes.size());
  uint64_t stride = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = static_cast<uint32_t>(stride);
    stride *= sizes[d];
  }
  return strides;
}

std::vector<uint32_t> EffectiveStrides(const TensorDesc& t) {
  return t.strides.empty() ? PackedStrides(t.sizes) : t.strides;
}

uint64_t IndexOfLastElement(const TensorDesc& t) {
  const std::vector<uint32_t> strides = EffectiveStrides(t);
  uint64_t last = 0;
  for (size_t d = 0; d < t.sizes.size(); ++d)
    if (t.sizes[d] > 0) last += uint64_t{t.sizes[d] - 1} * strides[d];
  return last;
}

uint64_t BufferElementCount(const TensorDesc& t) { return IndexOfLastElement(t) + 1; }

uint64_t ImpliedMinimumBytes(const TensorDesc& t) {
  const uint64_t bytes = BufferElementCount(t) * DTypeSize(t.dtype);
  return (bytes + 3) / 4 * 4;
}

TensorDesc PackedDesc(DType dtype, std::vector<uint32_t> sizes) {
  TensorDesc t;
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  t.total_bytes = ImpliedMinimumBytes(t);
  return t;
}

Result<void> ValidateTensorDesc(const TensorDesc& t, bool allow_scalar) {
  if (t.sizes.empty() && !allow_scalar) return InvalidInput("DimensionCount is 0");
  if (t.sizes.size() > kMaxRank)
    return InvalidInput("DimensionCount " + std::to_string(t.sizes.size()) + " exceeds " +
                        std::to_string(kMaxRank));
  if (!t.strides.empty() && t.strides.size() != t.sizes.size())
    return InvalidInput("Strides has " + std::to_string(t.strides.size()) + " entries for " +
                        std::to_string(t.sizes.size()) + " dimensions");
  uint64_t elements = 1;
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    if (t.sizes[d] == 0) return InvalidInput("Sizes[" + std::to_string(d) + "] is 0");
    elements *= t.sizes[d];
    if (elements > kMaxElements) return InvalidInput("more than 2^32-1 elements");
  }
  if (IndexOfLastElement(t) >= kMaxElements)
    return InvalidInput("strides address more than 2^32-1 elements");
  const uint64_t implied = ImpliedMinimumBytes(t);
  if (t.total_bytes < implied)
    return InvalidInput("TotalTensorSizeInBytes " + std::to_string(t.total_bytes) +
                        " is below the implied minimum " + std::to_string(implied));
  if (t.alignment != 0 && (!std::has_single_bit(t.alignment) || t.alignment < DTypeSize(t.dtype)))
    return InvalidInput("GuaranteedBaseOffsetAlignment " + std::to_string(t.alignment) +
                        " is not 0 or a power of two at least the element size");
  return {};
}

StridedIndexer::StridedIndexer(const TensorDesc& t)
    : sizes_(t.sizes), strides_(EffectiveStrides(t)) {}

uint64_t StridedIndexer::BufferIndex(uint64_t logical) const {
  uint64_t index = 0;
  for (size_t d = sizes_.size(); d-- > 0;) {
    index += (logical % sizes_[d]) * strides_[d];
    logical /= sizes_[d];
  }
  return index;
}

namespace {

std::string Joined(const std::vector<uint32_t>& values, char separator) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += separator;
    s += std::to_string(values[i]);
  }
  return s;
}

}  // namespace

std::string FormatShape(const std::vector<uint32_t>& sizes) {
  return sizes.empty() ? "scalar" : Joined(sizes, 'x');
}

std::string FormatList(const std::vector<uint32_t>& values) {
  std::string s = "[";  // appended, not "[" + ...: GCC 12 -Wrestrict misfires on that
  s += Joined(values, ',');
  s += ']';
  return s;
}

}  // namespace opcts
