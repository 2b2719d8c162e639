#include "torch/torch_types.h"

#include <torch/version.h>

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
      return NotSupported(TorchVersion() + " has no " + DTypeName(data_type) +
                          " tensors (torch.uint8 is its one unsigned integer dtype)");
  }
  return InvalidInput("DataType " + std::to_string(data_type) + " is no OPCTS_DTYPE_* value");
}

std::string DTypeName(uint32_t data_type) {
  static constexpr const char* kNames[] = {"",       "FLOAT32", "FLOAT16", "UINT32", "UINT16",
                                           "UINT8",  "INT32",   "INT16",   "INT8",   "FLOAT64",
                                           "UINT64", "INT64",   "BFLOAT16"};
  return data_type < std::size(kNames) ? kNames[data_type] : std::to_string(data_type);
}

}  // namespace opcts::torch_cpu
