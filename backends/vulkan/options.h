// The create() options string, "key=value;key=value", with environment fallbacks.
//   device=<index or name substring>   else env OPCTS_VULKAN_DEVICE, else the first device
//   validation=0|1                     else env OPCTS_VULKAN_VALIDATION (1 enables)
//   disable=int64,float64,subgroups,float_controls,float32_subnormals
//       act as if the device lacked these (tests use it to exercise the fallbacks and the
//       feature-level claims on a device that has everything); float32_subnormals: as if its
//       float32 arithmetic flushed subnormals
#pragma once

#include <string>

#include "base/result.h"

namespace opcts::vulkan {

struct DisabledFeatures {
  bool int64 = false;
  bool float64 = false;
  bool subgroups = false;
  bool float_controls = false;
  bool float32_subnormals = false;
};

struct Options {
  std::string device;
  bool validation = false;
  DisabledFeatures disabled;
};

// kInvalidInput naming the key or value when the string is malformed.
Result<Options> ParseOptions(const char* text);

}  // namespace opcts::vulkan
