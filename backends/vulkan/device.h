// The logical device: selected physical device, its compute queue, the features this backend
// enabled on it, and the launch geometry every kernel shares.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <vulkan/vulkan.h>

#include "base/result.h"
#include "device_caps.h"
#include "instance.h"
#include "options.h"
#include "vk_handles.h"

namespace opcts::vulkan {

// What the kernels may use: the device has it and the options did not disable it.
struct EnabledFeatures {
  bool int64 = false;           // 64-bit integer scans
  bool float64 = false;         // float64 scans
  bool subgroups = false;       // subgroup arithmetic in the block scans
  bool subgroup_int64 = false;  // ... on 64-bit integers (shaderSubgroupExtendedTypes)
  bool full_subgroups = false;  // VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
  bool float_controls = false;  // may add float-control execution modes to float kernels
  // The arithmetic keeps subnormals (measured at create: Device::RecordSubnormals); where float32
  // does not, the scans and scatter reductions that must keep them compute in float64
  // (ComputesInFloat64, support.h).
  bool float32_subnormals = true;
  bool float64_subnormals = true;
};

class Device {
 public:
  static Result<std::unique_ptr<Device>> Create(const Instance& instance, const Options& options);

  VkDevice get() const { return device_.get(); }
  VkPhysicalDevice physical() const { return physical_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const DeviceCaps& caps() const { return caps_; }
  const EnabledFeatures& enabled() const { return enabled_; }
  // What the backend measured at create; option disable=float32_subnormals keeps float32 false.
  void RecordSubnormals(bool float32_kept, bool float64_kept);

  // Invocations per workgroup for every kernel: a power of two, 128..256.
  uint32_t workgroup_size() const { return workgroup_size_; }
  // Workgroups for a grid-stride kernel over `invocations` (kernels loop over the rest).
  uint32_t GroupsFor(uint64_t invocations) const;
  // The largest first dispatch dimension this backend uses.
  uint32_t max_groups() const;

  // A memory type with all `required` flags, preferring one that also has `preferred`.
  std::optional<uint32_t> FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags required,
                                         VkMemoryPropertyFlags preferred) const;

 private:
  Device() = default;

  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  LogicalDeviceHandle device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  DeviceCaps caps_;
  EnabledFeatures enabled_;
  VkPhysicalDeviceMemoryProperties memory_{};
  uint32_t workgroup_size_ = 0;
};

}  // namespace opcts::vulkan
