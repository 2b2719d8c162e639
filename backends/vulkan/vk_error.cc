#include "vk_error.h"

#include <string>
#include <utility>

namespace opcts::vulkan {

std::string_view VkResultName(VkResult result) {
  switch (result) {
#define OPCTS_RESULT_NAME(name) \
  case name:                    \
    return #name;
    OPCTS_RESULT_NAME(VK_SUCCESS)
    OPCTS_RESULT_NAME(VK_NOT_READY)
    OPCTS_RESULT_NAME(VK_TIMEOUT)
    OPCTS_RESULT_NAME(VK_INCOMPLETE)
    OPCTS_RESULT_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    OPCTS_RESULT_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    OPCTS_RESULT_NAME(VK_ERROR_INITIALIZATION_FAILED)
    OPCTS_RESULT_NAME(VK_ERROR_DEVICE_LOST)
    OPCTS_RESULT_NAME(VK_ERROR_MEMORY_MAP_FAILED)
    OPCTS_RESULT_NAME(VK_ERROR_LAYER_NOT_PRESENT)
    OPCTS_RESULT_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    OPCTS_RESULT_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    OPCTS_RESULT_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    OPCTS_RESULT_NAME(VK_ERROR_TOO_MANY_OBJECTS)
    OPCTS_RESULT_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    OPCTS_RESULT_NAME(VK_ERROR_FRAGMENTED_POOL)
    OPCTS_RESULT_NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    OPCTS_RESULT_NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    OPCTS_RESULT_NAME(VK_ERROR_FRAGMENTATION)
    OPCTS_RESULT_NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    OPCTS_RESULT_NAME(VK_PIPELINE_COMPILE_REQUIRED)
    OPCTS_RESULT_NAME(VK_ERROR_UNKNOWN)
#undef OPCTS_RESULT_NAME
    default:
      return "VkResult(unknown)";
  }
}

Error VulkanError(std::string_view call, VkResult result) {
  std::string_view function = call.substr(0, call.find('('));
  std::string message = std::string(function) + " failed: " + std::string(VkResultName(result));
  if (VkResultName(result) == "VkResult(unknown)") {
    message += " (" + std::to_string(static_cast<int>(result)) + ")";
  }
  return {result == VK_ERROR_DEVICE_LOST ? ErrorCode::kUnavailable : ErrorCode::kInternal,
          std::move(message), result};
}

}  // namespace opcts::vulkan
