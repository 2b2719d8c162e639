#include "torch/torch_types.h"

#include <torch/version.h>

#include "common/plugin_support.h"

namespace opcts::torch_cpu {

std::string TorchVersion() { return std::string("torch ") + TORCH_VERSION; }

Result<c10::ScalarType> TorchType(uint32_t data_type) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64:
      return c10::ScalarType::Double;
    case OPCTS_DTYPE_FLOAT32:
      return c10::ScalarType::Float;
    case OPCTS_DTYPE_FLOAT16:
      return c10::ScalarType::Half;
    case OPCTS_DTYPE_BFLOAT16:
      return c10::ScalarType::BFloat16;
    case OPCTS_DTYPE_INT64:
      return c10::ScalarType::Long;
    case OPCTS_DTYPE_INT32:
      return c10::ScalarType::Int;
    case OPCTS_DTYPE_INT16:
      return c10::ScalarType::Short;
    case OPCTS_DTYPE_INT8:
      return c10::ScalarType::Char;
    case OPCTS_DTYPE_UINT8:
      return c10::ScalarType::Byte;
    case OPCTS_DTYPE_UINT16:
    case OPCTS_DTYPE_UINT32:
    case OPCTS_DTYPE_UINT64:
      return NotSupported(TorchVersion() + " has no " + plugin::DTypeName(data_type) +
                          " tensors (torch.uint8 is its one unsigned integer dtype)");
  }
  return InvalidInput("DataType " + std::to_string(data_type) + " is no OPCTS_DTYPE_* value");
}

}  // namespace opcts::torch_cpu
