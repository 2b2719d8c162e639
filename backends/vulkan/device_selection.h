// Picks the physical device: by option "device=<index or name substring>", else the
// OPCTS_VULKAN_DEVICE environment variable, else the first device with a compute queue.
#pragma once

#include <string>

#include <vulkan/vulkan.h>

#include "base/result.h"

namespace opcts::vulkan {

inline constexpr const char* kNoDeviceMessage =
    "no Vulkan device with a compute queue found (is mesa-vulkan-drivers installed?)";

struct PhysicalDeviceChoice {
  VkPhysicalDevice device = VK_NULL_HANDLE;
  uint32_t compute_queue_family = 0;
};

// `selector`: "" (first usable device), a decimal index into vkEnumeratePhysicalDevices' order
// (vulkaninfo's GPU0, GPU1, ...) or a case-insensitive substring of the device name. A device
// is usable when it has a compute queue and Vulkan 1.1. kNotSupported, with the devices that
// exist, when none matches.
Result<PhysicalDeviceChoice> SelectPhysicalDevice(VkInstance instance, const std::string& selector);

}  // namespace opcts::vulkan
