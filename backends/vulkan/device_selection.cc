#include "device_selection.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "vk_error.h"

namespace opcts::vulkan {
namespace {

std::optional<uint32_t> ComputeQueueFamily(VkPhysicalDevice device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0 && families[i].queueCount > 0) {
      return i;
    }
  }
  return std::nullopt;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool IsIndex(const std::string& text) {
  return !text.empty() && text.size() < 6 &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// How a selector is named in messages: it may come from the option or the environment.
std::string Quoted(const std::string& selector) {
  return "device '" + selector + "' (option device= or OPCTS_VULKAN_DEVICE)";
}

struct Candidate {
  VkPhysicalDevice device;
  std::string name;
  std::optional<uint32_t> queue_family;
  bool api_1_1;
  bool usable() const { return queue_family.has_value() && api_1_1; }
};

std::string Describe(const std::vector<Candidate>& candidates) {
  std::string text;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    text += (i == 0 ? "" : ", ") + std::to_string(i) + ": " + c.name;
    if (!c.queue_family) text += " (no compute queue)";
    if (!c.api_1_1) text += " (Vulkan < 1.1)";
  }
  return text;
}

}  // namespace

Result<PhysicalDeviceChoice> SelectPhysicalDevice(VkInstance instance,
                                                  const std::string& selector) {
  uint32_t count = 0;
  VkResult result = vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (result == VK_ERROR_INITIALIZATION_FAILED) return NotSupported(kNoDeviceMessage);
  OPCTS_VK_TRY(result);
  std::vector<VkPhysicalDevice> devices(count);
  OPCTS_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
  devices.resize(count);

  std::vector<Candidate> candidates;
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    candidates.push_back({device, properties.deviceName, ComputeQueueFamily(device),
                          properties.apiVersion >= VK_API_VERSION_1_1});
  }

  auto chosen = candidates.end();
  if (selector.empty()) {
    chosen = std::find_if(candidates.begin(), candidates.end(),
                          [](const Candidate& c) { return c.usable(); });
    if (chosen == candidates.end()) {
      return NotSupported(std::string(kNoDeviceMessage) +
                          (candidates.empty() ? "" : "; devices: " + Describe(candidates)));
    }
  } else if (IsIndex(selector)) {
    size_t index = std::stoul(selector);
    if (index >= candidates.size()) {
      return NotSupported(Quoted(selector) + ": there are " + std::to_string(candidates.size()) +
                          " Vulkan device(s)" +
                          (candidates.empty() ? "" : ": " + Describe(candidates)));
    }
    chosen = candidates.begin() + static_cast<ptrdiff_t>(index);
  } else {
    chosen = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) {
      return Lower(c.name).find(Lower(selector)) != std::string::npos;
    });
    if (chosen == candidates.end()) {
      return NotSupported(
          Quoted(selector) + ": no Vulkan device name contains it" +
          (candidates.empty() ? " (no devices)" : "; devices: " + Describe(candidates)));
    }
  }
  if (!chosen->usable()) {
    return NotSupported("device " + chosen->name +
                        " is unusable: this backend needs a compute queue and Vulkan 1.1");
  }
  return PhysicalDeviceChoice{chosen->device, *chosen->queue_family};
}

}  // namespace opcts::vulkan
