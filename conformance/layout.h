// How a case lays out its tensors: an enum with one name table (the names are the journal's
// `layout` and the case ids' layout part), and the tensor descriptors of each.
//
//   TensorDesc d = LayoutDesc(DType::kFloat32, {2, 3}, Layout::kTransposed);
//   std::string part = std::string(LayoutName(Layout::kInPlace));   // "in-place"
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "spec/tensor.h"

namespace opcts {

enum class Layout : uint8_t {
  kPacked,         // row-major, no gaps
  kPadded,         // gaps between rows, TotalTensorSizeInBytes above the minimum
  kTransposed,     // column-major strides
  kBroadcast,      // stride 0 along one dimension
  kBroadcastAxis,  // scans: stride 0 along the scanned axis
  kInPlace,        // the output shares its input's buffer
};

std::string_view LayoutName(Layout layout);
std::optional<Layout> LayoutNamed(std::string_view name);

// The descriptor of a tensor of `sizes` laid out as kPacked, kPadded, kTransposed or kBroadcast
// (stride 0 along `dim`); the case arrangements (kBroadcastAxis, kInPlace) are packed tensors.
TensorDesc LayoutDesc(DType dtype, const std::vector<uint32_t>& sizes, Layout layout,
                      unsigned dim = 0);

}  // namespace opcts
