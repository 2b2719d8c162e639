// A build without Vulkan (OPCTS_VULKAN=OFF) has no vulkan backend to give baselines to.
#include "bench/device_copy.h"

namespace opcts::bench {

Result<std::unique_ptr<DeviceCopy>> OpenDeviceCopy(const std::string& /*name*/,
                                                   const std::string& /*options*/) {
  return std::unique_ptr<DeviceCopy>();
}

}  // namespace opcts::bench
