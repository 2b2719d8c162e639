#include "conformance/layout.h"

#include <utility>

#include "base/name_table.h"

namespace opcts {
namespace {

constexpr std::pair<Layout, std::string_view> kLayoutNames[] = {
    {Layout::kPacked, "packed"},
    {Layout::kPadded, "padded"},
    {Layout::kTransposed, "transposed"},
    {Layout::kBroadcast, "broadcast"},
    {Layout::kBroadcastAxis, "broadcast-axis"},
    {Layout::kInPlace, "in-place"},
};

}  // namespace

std::string_view LayoutName(Layout layout) { return NameIn(kLayoutNames, layout); }
std::optional<Layout> LayoutNamed(std::string_view name) { return ValueNamed(kLayoutNames, name); }

TensorDesc LayoutDesc(DType dtype, const std::vector<uint32_t>& sizes, Layout layout,
                      unsigned dim) {
  TensorDesc desc = PackedDesc(dtype, sizes);
  const size_t rank = sizes.size();
  if (layout == Layout::kPadded) {
    desc.strides.assign(rank, 1);
    for (size_t d = rank - 1; d-- > 0;)
      desc.strides[d] = desc.strides[d + 1] * sizes[d + 1] + 1 + d % 3;
    desc.alignment = 16;
    desc.total_bytes = ImpliedMinimumBytes(desc) + 16;  // TotalTensorSizeInBytes above the minimum
  } else if (layout == Layout::kTransposed) {
    desc.strides.assign(rank, 1);
    for (size_t d = 1; d < rank; ++d) desc.strides[d] = desc.strides[d - 1] * sizes[d - 1];
    desc.total_bytes = ImpliedMinimumBytes(desc);
  } else if (layout == Layout::kBroadcast) {
    std::vector<uint32_t> folded = sizes;
    folded[dim] = 1;
    desc.strides = PackedStrides(folded);
    desc.strides[dim] = 0;
    desc.total_bytes = ImpliedMinimumBytes(desc);
  }
  return desc;
}

}  // namespace opcts
