// Status and Result<T> for the Vulkan backend (vk-bootstrap style: no exceptions). A failure
// carries the opcts status code and a message naming the Vulkan call that failed.
//
//   OPCTS_VK_TRY(vkCreateFence(device, &info, nullptr, &fence));  // returns on failure:
//       // "vkCreateFence failed: VK_ERROR_OUT_OF_DEVICE_MEMORY"
//   OPCTS_TRY(pool.Ensure(Slot::kWork, bytes));
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "opcts/backend.h"

namespace opcts::vulkan {

struct Status {
  int32_t code = OPCTS_STATUS_OK;
  std::string message;
  VkResult vk_result = VK_SUCCESS;  // the failing call's result, when a Vulkan call failed

  bool ok() const { return code == OPCTS_STATUS_OK; }
};

inline Status OkStatus() { return {}; }
inline Status NotSupportedError(std::string message) {
  return {OPCTS_STATUS_NOT_SUPPORTED, std::move(message)};
}
inline Status InvalidError(std::string message) {
  return {OPCTS_STATUS_INVALID, std::move(message)};
}
inline Status InternalError(std::string message) {
  return {OPCTS_STATUS_ERROR, std::move(message)};
}

std::string_view VkResultName(VkResult result);

// `call` is the stringified call expression; the message names the function only.
Status VulkanError(std::string_view call, VkResult result);

// A value or the Status saying why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT: implicit, like absl::StatusOr
  Result(Status status) : status_(std::move(status)) {}  // NOLINT

  bool ok() const { return status_.ok() && value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace opcts::vulkan

#define OPCTS_VK_TRY(call)                                                          \
  do {                                                                              \
    if (const VkResult opcts_vk_result_ = (call); opcts_vk_result_ != VK_SUCCESS) { \
      return ::opcts::vulkan::VulkanError(#call, opcts_vk_result_);                 \
    }                                                                               \
  } while (false)

#define OPCTS_TRY(expression)                                                        \
  do {                                                                               \
    if (::opcts::vulkan::Status opcts_status_ = (expression); !opcts_status_.ok()) { \
      return opcts_status_;                                                          \
    }                                                                                \
  } while (false)
