// RAII owners for Vulkan handles (Kompute style): one move-only wrapper per device-level object
// type, plus the instance and device themselves. Destruction order is the members' order.
#pragma once

#include <memory>
#include <utility>

#include <vulkan/vulkan.h>

namespace opcts::vulkan {

// A zeroed Vulkan structure with its sType set.
template <typename T>
T MakeVkStruct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

// A handle created from `device` and destroyed with kDestroy(device, handle, nullptr).
template <typename T, auto kDestroy>
class DeviceHandle {
 public:
  DeviceHandle() = default;
  DeviceHandle(VkDevice device, T handle) : device_(device), handle_(handle) {}
  DeviceHandle(DeviceHandle&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  DeviceHandle& operator=(DeviceHandle&& other) noexcept {
    if (this != &other) {
      Reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }
  DeviceHandle(const DeviceHandle&) = delete;
  DeviceHandle& operator=(const DeviceHandle&) = delete;
  ~DeviceHandle() { Reset(); }

  T get() const { return handle_; }
  void Reset() {
    if (handle_ != VK_NULL_HANDLE) kDestroy(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_ = VK_NULL_HANDLE;
};

using BufferHandle = DeviceHandle<VkBuffer, vkDestroyBuffer>;
using MemoryHandle = DeviceHandle<VkDeviceMemory, vkFreeMemory>;
using ShaderModuleHandle = DeviceHandle<VkShaderModule, vkDestroyShaderModule>;
using PipelineHandle = DeviceHandle<VkPipeline, vkDestroyPipeline>;
using PipelineLayoutHandle = DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout>;
using DescriptorSetLayoutHandle = DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using DescriptorPoolHandle = DeviceHandle<VkDescriptorPool, vkDestroyDescriptorPool>;
using CommandPoolHandle = DeviceHandle<VkCommandPool, vkDestroyCommandPool>;
using FenceHandle = DeviceHandle<VkFence, vkDestroyFence>;

struct InstanceDeleter {
  void operator()(VkInstance instance) const { vkDestroyInstance(instance, nullptr); }
};
using InstanceHandle = std::unique_ptr<VkInstance_T, InstanceDeleter>;

struct DeviceDeleter {
  void operator()(VkDevice device) const { vkDestroyDevice(device, nullptr); }
};
using LogicalDeviceHandle = std::unique_ptr<VkDevice_T, DeviceDeleter>;

}  // namespace opcts::vulkan
