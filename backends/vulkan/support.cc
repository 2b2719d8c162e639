#include "support.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "opcts/backend.h"

namespace opcts::vulkan {
bool ComputesInFloat64(const abi::Operator& op, uint32_t data_type,
                       const EnabledFeatures& enabled) {
  return (data_type == OPCTS_DTYPE_FLOAT32 || data_type == OPCTS_DTYPE_BFLOAT16) &&
         !enabled.float32_subnormals && !op.MayFlushSubnormals(data_type);
}

namespace {

Result<void> CheckFloat64Fallback(const abi::Operator& op, uint32_t data_type,
                                  const EnabledFeatures& enabled) {
  if (ComputesInFloat64(op, data_type, enabled) &&
      !(enabled.float64 && enabled.float64_subnormals)) {
    return NotSupported(std::string(op.name) + " keeps " + plugin::DTypeName(data_type) +
                        " subnormals (its spec lets none be flushed); this device's float32 "
                        "arithmetic flushes them (measured at create) and it has no float64 "
                        "arithmetic that keeps them to compute in instead");
  }
  return {};
}

}  // namespace

Result<void> CheckScanDType(const abi::Operator& op, uint32_t data_type,
                            const EnabledFeatures& enabled) {
  OPCTS_TRY(CheckFloat64Fallback(op, data_type, enabled));
  if ((data_type == OPCTS_DTYPE_INT64 || data_type == OPCTS_DTYPE_UINT64) && !enabled.int64) {
    return NotSupported("64-bit integer scans need shaderInt64, which this device lacks");
  }
  if (data_type == OPCTS_DTYPE_FLOAT64 && !enabled.float64) {
    return NotSupported("float64 scans need shaderFloat64, which this device lacks");
  }
  return {};
}

Result<void> CheckReductionDType(const abi::Operator& op, uint32_t data_type,
                                 const EnabledFeatures& enabled) {
  OPCTS_TRY(CheckFloat64Fallback(op, data_type, enabled));
  if (data_type == OPCTS_DTYPE_FLOAT64 && !enabled.float64) {
    return NotSupported("float64 scatter reductions need shaderFloat64, which this device lacks");
  }
  return {};
}

plugin::Claims Claim(const EnabledFeatures& enabled) {
  return plugin::ClaimEveryLevel([&](const abi::Operator& op, const abi::Level& level) {
    const bool scatter = std::string_view(op.family) == "scatter_nd";
    if (scatter) {
      // Only a reduction computes; plain writes move any type.
      const abi::Field* reduction = op.RoleField("reduction");
      const bool reduces =
          reduction != nullptr &&
          std::any_of(level.params.begin(), level.params.end(), [&](const abi::ParamSupport& p) {
            return std::string_view(p.param) == reduction->name &&
                   std::any_of(p.values.begin(), p.values.end(), [](uint32_t v) { return v != 0; });
          });
      if (!reduces) return true;
    }
    const abi::Field* data = op.RoleField("input");
    return std::all_of(
        level.tensors.begin(), level.tensors.end(), [&](const abi::TensorSupport& t) {
          return std::string_view(t.tensor) != data->name ||
                 std::all_of(t.data_types.begin(), t.data_types.end(), [&](uint32_t d) {
                   return (scatter ? CheckReductionDType(op, d, enabled)
                                   : CheckScanDType(op, d, enabled))
                       .ok();
                 });
        });
  });
}

Result<void> CheckBufferFits(const DeviceCaps& caps, std::string_view what, uint64_t bytes) {
  if (bytes > caps.max_storage_buffer_range) {
    return NotSupported(std::string(what) + " would need a " + std::to_string(bytes) +
                        "-byte storage buffer; this device's maxStorageBufferRange is " +
                        std::to_string(caps.max_storage_buffer_range));
  }
  if (bytes > caps.max_memory_allocation_size) {
    return NotSupported(std::string(what) + " would need a " + std::to_string(bytes) +
                        "-byte buffer; this device's maxMemoryAllocationSize is " +
                        std::to_string(caps.max_memory_allocation_size));
  }
  return {};
}

Result<void> CheckElementCount(std::string_view what, uint64_t elements) {
  if (elements >= (uint64_t{1} << 31)) {
    return NotSupported(std::string(what) + " has " + std::to_string(elements) +
                        " elements; this backend handles fewer than 2^31");
  }
  return {};
}

}  // namespace opcts::vulkan
