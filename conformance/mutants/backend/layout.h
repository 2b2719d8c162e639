// Tensor layouts as the mutant backend walks them: sizes, strides in elements, and the element
// offset of a row-major logical index. Reads and writes get their layouts from separate
// functions because real backends often treat the two differently (see the strides mutants).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "opcts/backend.h"

namespace opcts::mutant {

struct Layout {
  std::vector<uint32_t> sizes;
  std::vector<uint64_t> strides;  // elements
  uint64_t element_count = 1;
  size_t element_size = 0;
  bool packed = true;  // strides equal the row-major ones: the tensor is one contiguous run
};

// The layout of a tensor the backend reads (inputs, indices, updates).
Layout ReadLayout(const opcts_tensor_desc& desc);
// The layout of the tensor the backend writes.
Layout WriteLayout(const opcts_tensor_desc& desc);

// Element offset of row-major logical index `logical`. The leading dimension is not reduced
// modulo its size, as address arithmetic is not: an index past the end lands past the end.
uint64_t Offset(const Layout& layout, uint64_t logical);

}  // namespace opcts::mutant
