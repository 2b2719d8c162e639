#include "device_caps.h"

#include <algorithm>

#include "vk_handles.h"

namespace opcts::vulkan {
namespace {

// Links `next` after `head` in a pNext chain.
template <typename Head, typename Next>
void Chain(Head* head, Next* next) {
  next->pNext = head->pNext;
  head->pNext = next;
}

}  // namespace

std::string ApiVersionString(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

DeviceCaps QueryDeviceCaps(VkPhysicalDevice physical, uint32_t instance_api_version) {
  DeviceCaps caps;
  VkPhysicalDeviceProperties basic;
  vkGetPhysicalDeviceProperties(physical, &basic);
  caps.device_api_version = basic.apiVersion;
  caps.api_version = std::min(basic.apiVersion, instance_api_version);
  const bool v12 = caps.api_version >= VK_API_VERSION_1_2;
  const bool v13 = caps.api_version >= VK_API_VERSION_1_3;

  auto properties =
      MakeVkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  auto subgroup = MakeVkStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto maintenance3 = MakeVkStruct<VkPhysicalDeviceMaintenance3Properties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
  auto driver = MakeVkStruct<VkPhysicalDeviceDriverProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  auto float_controls = MakeVkStruct<VkPhysicalDeviceFloatControlsProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
  auto size_control = MakeVkStruct<VkPhysicalDeviceSubgroupSizeControlProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
  Chain(&properties, &subgroup);
  Chain(&properties, &maintenance3);
  if (v12) {
    Chain(&properties, &driver);
    Chain(&properties, &float_controls);
  }
  if (v13) Chain(&properties, &size_control);
  vkGetPhysicalDeviceProperties2(physical, &properties);

  auto features =
      MakeVkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  auto storage16 = MakeVkStruct<VkPhysicalDevice16BitStorageFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  auto features12 = MakeVkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto features13 = MakeVkStruct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  Chain(&features, &storage16);
  if (v12) Chain(&features, &features12);
  if (v13) Chain(&features, &features13);
  vkGetPhysicalDeviceFeatures2(physical, &features);

  const VkPhysicalDeviceLimits& limits = properties.properties.limits;
  caps.name = properties.properties.deviceName;
  caps.driver = v12 ? std::string(driver.driverName) + " (" + driver.driverInfo + ")"
                    : "driver version " + std::to_string(properties.properties.driverVersion);

  caps.shader_float16 = features12.shaderFloat16;
  caps.storage_buffer_16bit_access = storage16.storageBuffer16BitAccess;
  caps.shader_int8 = features12.shaderInt8;
  caps.storage_buffer_8bit_access = features12.storageBuffer8BitAccess;
  caps.shader_int16 = features.features.shaderInt16;
  caps.shader_int64 = features.features.shaderInt64;
  caps.shader_float64 = features.features.shaderFloat64;
  caps.subgroup_extended_types = features12.shaderSubgroupExtendedTypes;
  caps.compute_full_subgroups = features13.subgroupSizeControl && features13.computeFullSubgroups;

  caps.subgroup_size = subgroup.subgroupSize;
  caps.max_subgroup_size = v13 ? size_control.maxSubgroupSize : subgroup.subgroupSize;
  caps.subgroup_arithmetic =
      (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
      (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) != 0 &&
      (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) != 0;

  if (v12) {
    FloatControls& fc = caps.float_controls;
    fc.known = true;
    fc.denorm_preserve[0] = float_controls.shaderDenormPreserveFloat32;
    fc.denorm_preserve[1] = float_controls.shaderDenormPreserveFloat64;
    fc.denorm_flush_to_zero[0] = float_controls.shaderDenormFlushToZeroFloat32;
    fc.denorm_flush_to_zero[1] = float_controls.shaderDenormFlushToZeroFloat64;
    fc.signed_zero_inf_nan_preserve[0] = float_controls.shaderSignedZeroInfNanPreserveFloat32;
    fc.signed_zero_inf_nan_preserve[1] = float_controls.shaderSignedZeroInfNanPreserveFloat64;
  }

  caps.max_storage_buffer_range = limits.maxStorageBufferRange;
  caps.max_memory_allocation_size = maintenance3.maxMemoryAllocationSize;
  caps.max_workgroup_count_x = limits.maxComputeWorkGroupCount[0];
  caps.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  caps.max_workgroup_size_x = limits.maxComputeWorkGroupSize[0];
  caps.max_push_constants_size = limits.maxPushConstantsSize;
  return caps;
}

}  // namespace opcts::vulkan
