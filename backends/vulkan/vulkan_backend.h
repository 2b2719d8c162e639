// One instance of the `vulkan` backend: a Vulkan instance and device, the kernels, buffers and
// command stream, and what it reports about itself. plugin_entry.cc exposes it on the C ABI.
// Calls on one instance are serialized (they share one command buffer and staging buffer).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/result.h"
#include "common/plugin_support.h"
#include "opcts/backend.h"
#include "runtime.h"

namespace opcts::vulkan {

class Backend {
 public:
  static Result<std::unique_ptr<Backend>> Create(const char* options);
  ~Backend();

  void GetInfo(opcts_backend_info* info);
  Result<void> Query(const opcts_op_desc& op);
  Result<void> Execute(const opcts_op_desc& op, const opcts_binding* bindings,
                       uint32_t binding_count);

 private:
  Backend() = default;
  Result<void> CheckSupport(const opcts_op_desc& op);
  Result<void> Run(const opcts_op_desc& op, const opcts_binding* bindings);
  // Scans two subnormals and says whether the device kept them ("preserved") or not.
  Result<std::string> ProbeSubnormals(uint32_t data_type);
  std::string DescribeDevice() const;
  const char* Details();

  Runtime vk_;

  std::mutex mutex_;
  bool lost_ = false;  // a device loss or timeout: no further executes
  std::string device_description_;
  // Earlier get_info strings stay valid until destroy (the ABI promises it), so a details
  // string with a new validation count is appended, never overwritten.
  std::deque<std::string> details_;
  std::optional<plugin::Claims> claims_;  // set by the first GetInfo; its strings live here
  uint64_t details_validation_count_ = 0;
};

}  // namespace opcts::vulkan
