#include "instance.h"

#include <algorithm>
#include <cstring>

#include "device_selection.h"
#include "vk_error.h"

namespace opcts::vulkan {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL OnDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user_data) {
  const char* text = data != nullptr && data->pMessage != nullptr ? data->pMessage : "";
  const char* level =
      (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "error" : "warning";
  static_cast<ValidationLog*>(user_data)->Record(std::string(level) + ": " + text);
  return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT MessengerInfo(ValidationLog* log) {
  auto info = MakeVkStruct<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = OnDebugMessage;
  info.pUserData = log;
  return info;
}

bool LayerAvailable(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) {
    return std::strcmp(l.layerName, name) == 0;
  });
}

}  // namespace

void ValidationLog::Record(std::string message) {
  std::lock_guard lock(mutex_);
  ++count_;
  if (kept_.size() < kKept) kept_.push_back(std::move(message));
}

uint64_t ValidationLog::count() const {
  std::lock_guard lock(mutex_);
  return count_;
}

std::string ValidationLog::Message(uint64_t index) const {
  std::lock_guard lock(mutex_);
  return index < kept_.size() ? kept_[index] : std::string();
}

Result<std::unique_ptr<Instance>> Instance::Create(bool validation) {
  std::unique_ptr<Instance> self(new Instance());
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS ||
      loader_version < VK_API_VERSION_1_1) {
    return NotSupported("the Vulkan loader is older than 1.1; this backend needs 1.1");
  }
  // 1.3 at most: the newest feature structures this backend reads.
  self->api_version_ = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);

  auto app = MakeVkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "opcts";
  app.pEngineName = "opcts-vulkan";
  app.apiVersion = self->api_version_;
  auto info = MakeVkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info = MessengerInfo(&self->log_);
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  if (validation) {
    if (!LayerAvailable(kValidationLayer)) {
      return NotSupported(
          "validation was requested but VK_LAYER_KHRONOS_validation is not installed "
          "(Debian: vulkan-validationlayers)");
    }
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &kValidationLayer;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &extension;
    info.pNext = &messenger_info;  // also reports on vkCreateInstance / vkDestroyInstance
  }

  VkInstance instance = VK_NULL_HANDLE;
  VkResult result = vkCreateInstance(&info, nullptr, &instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER) return NotSupported(kNoDeviceMessage);
  OPCTS_VK_TRY(result);
  self->instance_.reset(instance);

  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create == nullptr) return InternalError("vkCreateDebugUtilsMessengerEXT not found");
    OPCTS_VK_TRY(create(instance, &messenger_info, nullptr, &self->messenger_));
  }
  return self;
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_.get(), "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy != nullptr) destroy(instance_.get(), messenger_, nullptr);
  }
}

}  // namespace opcts::vulkan
