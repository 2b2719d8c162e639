// The tensor model: a mirror of DML_BUFFER_TENSOR_DESC.
//
// Sizes and strides are in elements; an empty `strides` means packed (row-major). A stride of 0
// broadcasts; a stride larger than the packed one leaves padding. A rank-0 desc (no sizes) is a
// scalar, used only for OpenVINO's axis input.
//
//   TensorDesc t = PackedDesc(DType::kFloat32, {1, 1, 3, 4});
//   ImpliedMinimumBytes(t) == 48; ValidateTensorDesc(t).ok()
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "spec/dtype.h"

namespace opcts {

inline constexpr unsigned kMaxRank = 8;
// DirectML: a tensor may not exceed 2^32 - 1 elements.
inline constexpr uint64_t kMaxElements = 0xFFFFFFFFull;

struct TensorDesc {
  DType dtype = DType::kFloat32;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;  // empty: packed
  uint64_t total_bytes = 0;       // TotalTensorSizeInBytes
  uint32_t alignment = 0;         // GuaranteedBaseOffsetAlignment (0: none promised)

  unsigned rank() const { return static_cast<unsigned>(sizes.size()); }
  bool operator==(const TensorDesc&) const = default;
};

// Product of sizes (1 for a scalar).
uint64_t ElementCount(const TensorDesc& t);
// Row-major strides for `sizes`.
std::vector<uint32_t> PackedStrides(const std::vector<uint32_t>& sizes);
// `t.strides` when given, else the packed strides.
std::vector<uint32_t> EffectiveStrides(const TensorDesc& t);
// dot(sizes - 1, strides): the buffer element index of the last element.
uint64_t IndexOfLastElement(const TensorDesc& t);
// roundup((IndexOfLastElement + 1) * ElementSize, 4): the documented implied minimum.
uint64_t ImpliedMinimumBytes(const TensorDesc& t);
// Number of buffer elements the tensor's addressing spans (IndexOfLastElement + 1).
uint64_t BufferElementCount(const TensorDesc& t);

// A packed desc with total_bytes set to the implied minimum.
TensorDesc PackedDesc(DType dtype, std::vector<uint32_t> sizes);

// Every rule of DML_BUFFER_TENSOR_DESC; the first violation as a sentence (kInvalidInput).
// `allow_scalar` admits rank 0 (OpenVINO scalar inputs only).
Result<void> ValidateTensorDesc(const TensorDesc& t, bool allow_scalar = false);

// Maps a logical (row-major) element number to its buffer element index through the strides.
class StridedIndexer {
 public:
  explicit StridedIndexer(const TensorDesc& t);
  uint64_t BufferIndex(uint64_t logical) const;

 private:
  std::vector<uint32_t> sizes_;
  std::vector<uint32_t> strides_;
};

std::string FormatShape(const std::vector<uint32_t>& sizes);  // "1x1x3x4", "scalar"
std::string FormatList(const std::vector<uint32_t>& values);  // "[1,1,3,4]", "[]"

}  // namespace opcts
