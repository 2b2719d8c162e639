// Adds SPV_KHR_float_controls execution modes to a compiled compute shader. Which modes a device
// may be asked for (DenormPreserve, SignedZeroInfNanPreserve, per float width) is only known at
// run time, so the build embeds the shader without them and this inserts them before the
// module is created: an OpCapability per mode, the OpExtension, and an OpExecutionMode per mode
// on the entry point. No new ids are introduced.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"

namespace opcts::vulkan {

struct FloatControlModes {
  uint32_t width = 32;  // 16, 32 or 64
  bool denorm_preserve = false;
  bool signed_zero_inf_nan_preserve = false;

  bool any() const { return denorm_preserve || signed_zero_inf_nan_preserve; }
};

// kInternal for a module this cannot parse (bad magic, truncated instruction, no or
// several entry points).
Result<std::vector<uint32_t>> AddFloatControls(std::span<const uint32_t> words,
                                               const FloatControlModes& modes);

}  // namespace opcts::vulkan
