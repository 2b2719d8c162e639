// The Vulkan instance, with the Khronos validation layer and a debug-utils messenger when asked
// for (option "validation=1" or OPCTS_VULKAN_VALIDATION=1). Every warning or error the layer
// reports is recorded, so a test can fail on any of them.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "base/result.h"
#include "vk_handles.h"

namespace opcts::vulkan {

// Thread-safe: drivers may call the messenger from their own threads.
class ValidationLog {
 public:
  void Record(std::string message);
  uint64_t count() const;
  // The message numbered `index` (0-based) if it was kept (the first kKept are), else "".
  std::string Message(uint64_t index) const;

 private:
  static constexpr size_t kKept = 32;
  mutable std::mutex mutex_;
  uint64_t count_ = 0;
  std::vector<std::string> kept_;
};

class Instance {
 public:
  static Result<std::unique_ptr<Instance>> Create(bool validation);
  ~Instance();

  VkInstance get() const { return instance_.get(); }
  uint32_t api_version() const { return api_version_; }
  bool validation() const { return messenger_ != VK_NULL_HANDLE; }
  const ValidationLog& validation_log() const { return log_; }

 private:
  Instance() = default;

  ValidationLog log_;  // outlives the instance: the messenger points at it
  InstanceHandle instance_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  uint32_t api_version_ = 0;
};

}  // namespace opcts::vulkan
