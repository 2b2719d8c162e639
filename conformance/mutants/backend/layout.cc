#include "backend/layout.h"

#include "common/plugin_support.h"

namespace opcts::mutant {
namespace {

Layout FromDesc(const opcts_tensor_desc& desc, bool honour_strides) {
  const plugin::TensorLayout abi = plugin::MakeLayout(desc);
  Layout layout;
  layout.sizes = abi.sizes;
  layout.element_count = abi.element_count;
  layout.element_size = plugin::DTypeSize(desc.data_type);
  layout.packed = abi.packed || !honour_strides;
  layout.strides.resize(abi.sizes.size());
  uint64_t packed_stride = 1;
  for (size_t d = abi.sizes.size(); d-- > 0;) {
    uint64_t stride = honour_strides ? abi.strides[d] : packed_stride;
#ifdef OPCTS_MUTANT_ZERO_STRIDE_AS_ONE
    // Mutant: a zero stride is clamped to 1, "so dimension coalescing never divides by zero".
    if (stride == 0) stride = 1;
#endif
    layout.strides[d] = stride;
    packed_stride *= abi.sizes[d];
  }
  return layout;
}

}  // namespace

Layout ReadLayout(const opcts_tensor_desc& desc) { return FromDesc(desc, /*honour_strides=*/true); }

Layout WriteLayout(const opcts_tensor_desc& desc) {
#ifdef OPCTS_MUTANT_OUTPUT_STRIDES_IGNORED
  // Mutant: outputs are assumed packed; only input strides are honoured.
  return FromDesc(desc, /*honour_strides=*/false);
#else
  return FromDesc(desc, /*honour_strides=*/true);
#endif
}

uint64_t Offset(const Layout& layout, uint64_t logical) {
  uint64_t offset = 0;
  for (size_t d = layout.sizes.size(); d-- > 1;) {
    offset += logical % layout.sizes[d] * layout.strides[d];
    logical /= layout.sizes[d];
  }
  return layout.sizes.empty() ? 0 : offset + logical * layout.strides[0];
}

}  // namespace opcts::mutant
