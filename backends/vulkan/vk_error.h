// Failed Vulkan calls as opcts::Error (base/result.h), vk-bootstrap style: no exceptions. The
// message names the Vulkan function and its VkResult; native_code is the VkResult.
//
//   OPCTS_VK_TRY(vkCreateFence(device, &info, nullptr, &fence));  // returns on failure:
//       // "vkCreateFence failed: VK_ERROR_OUT_OF_DEVICE_MEMORY"
//   OPCTS_TRY(pool.Ensure(Slot::kWork, bytes));
#pragma once

#include <string_view>

#include <vulkan/vulkan.h>

#include "base/result.h"

namespace opcts::vulkan {

std::string_view VkResultName(VkResult result);

// `call` is the stringified call expression; the message names the function only. A device loss
// is kUnavailable, any other failure kInternal (both OPCTS_STATUS_ERROR on the ABI).
Error VulkanError(std::string_view call, VkResult result);

}  // namespace opcts::vulkan

// Returns VulkanError from the enclosing function (of any Result<T>) when `call` fails.
#define OPCTS_VK_TRY(call)                                                          \
  do {                                                                              \
    if (const VkResult opcts_vk_result_ = (call); opcts_vk_result_ != VK_SUCCESS) { \
      return ::opcts::vulkan::VulkanError(#call, opcts_vk_result_);                 \
    }                                                                               \
  } while (false)
