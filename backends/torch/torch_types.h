// OPCTS data types as torch's: the ScalarType holding each, or why torch has none.
#pragma once

#include <cstdint>
#include <string>

#include <c10/core/ScalarType.h>

#include "base/result.h"
#include "opcts/backend.h"

namespace opcts::torch_cpu {

// "torch 1.13.0": the version of the libtorch headers this plugin was built against.
std::string TorchVersion();

// The torch dtype of OPCTS_DTYPE_* `data_type`; kNotSupported for the unsigned 16-, 32- and
// 64-bit types, which torch 1.13 does not have (uint8 is its one unsigned integer type).
Result<c10::ScalarType> TorchType(uint32_t data_type);

}  // namespace opcts::torch_cpu
