// What this backend claims on a device: which dtypes it scans, the DirectML feature level that
// follows from the documented support tables (/work/shared/seeds), the OpenVINO claim, and the
// buffer limits that turn a valid descriptor into NOT_SUPPORTED.
//
// Data movement (ScatterND, and every load/store) works on 32-bit words, so it needs no device
// feature; only scan arithmetic does: 64-bit integers need shaderInt64, float64 shaderFloat64.
#pragma once

#include <cstdint>
#include <string_view>

#include "device.h"
#include "vk_status.h"

namespace opcts::vulkan {

// OK, or NOT_SUPPORTED naming the missing device feature.
Status CheckScanDType(uint32_t data_type, const EnabledFeatures& enabled);

// The highest level whose tables (and every lower level's) this backend meets.
uint32_t ClaimedFeatureLevel(const EnabledFeatures& enabled);

// "openvino.opset3" when CumSum-3 works for every numeric type, else "".
const char* ExtraSupport(const EnabledFeatures& enabled);

// NOT_SUPPORTED when one storage buffer of `bytes` exceeds maxStorageBufferRange or
// maxMemoryAllocationSize, or a tensor has 2^31 elements or more (kernels index with 32 bits).
Status CheckBufferFits(const DeviceCaps& caps, std::string_view what, uint64_t bytes);
Status CheckElementCount(std::string_view what, uint64_t elements);

}  // namespace opcts::vulkan
