// What a physical device offers, as far as this backend cares: identity, the shader features
// that decide which dtypes it can scan, subgroup support, float controls and the limits that
// bound dispatches and buffers.
#pragma once

#include <cstdint>
#include <string>

#include <vulkan/vulkan.h>

namespace opcts::vulkan {

struct FloatControls {
  bool known = false;            // the properties need Vulkan 1.2
  bool denorm_preserve[2] = {};  // [0] float32, [1] float64
  bool denorm_flush_to_zero[2] = {};
  bool signed_zero_inf_nan_preserve[2] = {};
};

struct DeviceCaps {
  std::string name;
  std::string driver;               // driver name and info, or the raw version before Vulkan 1.2
  uint32_t device_api_version = 0;  // as the driver reports it
  uint32_t api_version = 0;         // the version it is used at: capped at the instance's

  // Features found (the 8/16-bit ones are reported only: this backend emulates them).
  bool shader_float16 = false;
  bool storage_buffer_16bit_access = false;
  bool shader_int8 = false;
  bool storage_buffer_8bit_access = false;
  bool shader_int16 = false;
  bool shader_int64 = false;
  bool shader_float64 = false;
  bool subgroup_extended_types = false;
  bool compute_full_subgroups = false;

  uint32_t subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  bool subgroup_arithmetic = false;  // arithmetic subgroup operations in compute shaders

  FloatControls float_controls;

  uint64_t max_storage_buffer_range = 0;
  uint64_t max_memory_allocation_size = 0;
  uint32_t max_workgroup_count_x = 0;
  uint32_t max_workgroup_invocations = 0;
  uint32_t max_workgroup_size_x = 0;
  uint32_t max_push_constants_size = 0;
};

// `instance_api_version` caps the version the device is used at.
DeviceCaps QueryDeviceCaps(VkPhysicalDevice physical, uint32_t instance_api_version);

// "1.3.230"
std::string ApiVersionString(uint32_t version);

}  // namespace opcts::vulkan
