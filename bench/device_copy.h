// The baselines of a case on the vulkan backend, on the device the backend runs on, driven as the
// backend drives it (backends/vulkan: one command buffer recorded, submitted and waited for, per
// call) and timed on the host as its executes are:
// - the device copy: vkCmdCopyBuffer of the case's bytes between two device-local buffers, the
//   device's own memory limit;
// - the staged copy: the case's bytes memcpy'd from host memory into host-visible staging memory,
//   copied to a device-local buffer and back, and memcpy'd out to host memory. Every vulkan
//   execute makes this round trip (the harness owns the tensors' host memory), so it bounds what
//   the backend can reach by design.
//
//   Result<std::unique_ptr<DeviceCopy>> copy = OpenDeviceCopy("vulkan", "device=1");
//   if (copy && *copy && (*copy)->LoadSource(host_bytes, bytes))
//     Result<double> seconds = (*copy)->TimeDeviceCopy(bytes);
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"

namespace opcts::bench {

class DeviceCopy {
 public:
  virtual ~DeviceCopy() = default;
  // Puts `bytes` of `from` (host memory) in the device copy's source buffer, once per case: the
  // device copies the case's bytes, not whatever the buffer held (a GPU may copy zeros faster).
  virtual Result<void> LoadSource(const uint8_t* from, uint64_t bytes) = 0;
  // Seconds to record, submit and wait for a device-local copy of `bytes` (those LoadSource put).
  virtual Result<double> TimeDeviceCopy(uint64_t bytes) = 0;
  // Seconds of the staged round trip of `bytes` from `from` to `to` (host memory).
  virtual Result<double> TimeStagedCopy(const uint8_t* from, uint8_t* to, uint64_t bytes) = 0;
};

// The device of the built-in vulkan backend (`name` "vulkan") created with `options`: the same
// selection (option device=, else OPCTS_VULKAN_DEVICE, else the first). nullptr for every other
// backend and in a build without Vulkan; an error when the device cannot be opened.
Result<std::unique_ptr<DeviceCopy>> OpenDeviceCopy(const std::string& name,
                                                   const std::string& options);

}  // namespace opcts::bench
