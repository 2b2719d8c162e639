#include "torch/tensor_view.h"

#include <vector>

#include <ATen/ATen.h>

#include "common/plugin_support.h"
#include "torch/torch_types.h"

namespace opcts::torch_cpu {

Result<at::Tensor> TensorView(const opcts_tensor_desc& desc, const opcts_binding& binding,
                              uint32_t dimensions) {
  OPCTS_ASSIGN_OR_RETURN(const c10::ScalarType dtype, TorchType(desc.data_type));
  const plugin::TensorLayout layout = plugin::MakeLayout(desc);
  const size_t first = layout.sizes.size() - dimensions;
  const std::vector<int64_t> sizes(layout.sizes.begin() + first, layout.sizes.end());
  const std::vector<int64_t> strides(layout.strides.begin() + first, layout.strides.end());
  // Inputs are read-only: torch only reads them (every kernel here writes a fresh tensor, and
  // only the output view is written, by copy_).
  return at::from_blob(binding.data, sizes, strides, at::TensorOptions().dtype(dtype));
}

Result<at::Tensor> TensorView(const opcts_tensor_desc& desc, const opcts_binding& binding) {
  return TensorView(desc, binding, desc.dimension_count);
}

}  // namespace opcts::torch_cpu
