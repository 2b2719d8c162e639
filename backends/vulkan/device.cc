#include "device.h"

#include <algorithm>

#include "device_selection.h"
#include "vk_error.h"

namespace opcts::vulkan {
namespace {

constexpr uint32_t kPreferredWorkgroupSize = 256;

uint32_t ChooseWorkgroupSize(const DeviceCaps& caps) {
  uint32_t limit = std::min(
      {kPreferredWorkgroupSize, caps.max_workgroup_invocations, caps.max_workgroup_size_x});
  uint32_t size = 1;
  while (size * 2 <= limit) size *= 2;
  return size;  // >= 128: Vulkan guarantees both limits are at least 128
}

EnabledFeatures ChooseFeatures(const DeviceCaps& caps, const DisabledFeatures& disabled,
                               uint32_t workgroup_size) {
  EnabledFeatures enabled;
  enabled.int64 = caps.shader_int64 && !disabled.int64;
  enabled.float64 = caps.shader_float64 && !disabled.float64;
  // Subgroup scans assume whole subgroups tile the workgroup.
  enabled.subgroups = caps.subgroup_arithmetic && !disabled.subgroups &&
                      caps.max_subgroup_size > 0 && workgroup_size % caps.max_subgroup_size == 0;
  enabled.subgroup_int64 = enabled.subgroups && enabled.int64 && caps.subgroup_extended_types;
  enabled.full_subgroups = enabled.subgroups && caps.compute_full_subgroups;
  enabled.float_controls = caps.float_controls.known && !disabled.float_controls;
  enabled.float32_subnormals = !disabled.float32_subnormals;
  return enabled;
}

}  // namespace

Result<std::unique_ptr<Device>> Device::Create(const Instance& instance, const Options& options) {
  OPCTS_ASSIGN_OR_RETURN(const PhysicalDeviceChoice choice,
                         SelectPhysicalDevice(instance.get(), options.device));

  std::unique_ptr<Device> self(new Device());
  self->physical_ = choice.device;
  self->queue_family_ = choice.compute_queue_family;
  self->caps_ = QueryDeviceCaps(self->physical_, instance.api_version());
  self->workgroup_size_ = ChooseWorkgroupSize(self->caps_);
  self->enabled_ = ChooseFeatures(self->caps_, options.disabled, self->workgroup_size_);
  vkGetPhysicalDeviceMemoryProperties(self->physical_, &self->memory_);
  const EnabledFeatures& enabled = self->enabled_;

  auto features =
      MakeVkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  features.features.shaderInt64 = enabled.int64;
  features.features.shaderFloat64 = enabled.float64;
  auto features12 = MakeVkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  features12.shaderSubgroupExtendedTypes = enabled.subgroup_int64;
  auto features13 = MakeVkStruct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  features13.subgroupSizeControl = enabled.full_subgroups;
  features13.computeFullSubgroups = enabled.full_subgroups;
  if (self->caps_.api_version >= VK_API_VERSION_1_2) {
    features12.pNext = features.pNext;
    features.pNext = &features12;
  }
  if (self->caps_.api_version >= VK_API_VERSION_1_3) {
    features13.pNext = features.pNext;
    features.pNext = &features13;
  }

  const float priority = 1.0f;
  auto queue = MakeVkStruct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue.queueFamilyIndex = self->queue_family_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  auto info = MakeVkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;

  VkDevice device = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateDevice(self->physical_, &info, nullptr, &device));
  self->device_.reset(device);
  vkGetDeviceQueue(device, self->queue_family_, 0, &self->queue_);
  return self;
}

uint32_t Device::max_groups() const {
  return std::min<uint32_t>(65535, caps_.max_workgroup_count_x);
}

void Device::RecordSubnormals(bool float32_kept, bool float64_kept) {
  enabled_.float32_subnormals = enabled_.float32_subnormals && float32_kept;
  enabled_.float64_subnormals = float64_kept;
}

uint32_t Device::GroupsFor(uint64_t invocations) const {
  uint64_t groups = (invocations + workgroup_size_ - 1) / workgroup_size_;
  return static_cast<uint32_t>(std::clamp<uint64_t>(groups, 1, max_groups()));
}

std::optional<uint32_t> Device::FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags required,
                                               VkMemoryPropertyFlags preferred) const {
  std::optional<uint32_t> fallback;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (!fallback) fallback = i;
  }
  return fallback;
}

}  // namespace opcts::vulkan
