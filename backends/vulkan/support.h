// What this backend claims on a device: which dtypes it scans, the levels that follow from the
// specs' support tables, and the buffer limits that turn a valid descriptor into NOT_SUPPORTED.
//
// Data movement (ScatterND, and every load/store) works on 32-bit words, so it needs no device
// feature; only arithmetic does: scans of 64-bit integers need shaderInt64, float64 scans and
// float64 scatter reductions shaderFloat64 (the reductions do 64-bit integers on 32-bit words),
// and so do float32 and bfloat16 ones on a device that flushes the float32 subnormals the
// operator must keep (ComputesInFloat64).
#pragma once

#include <cstdint>
#include <string_view>

#include "base/result.h"
#include "common/plugin_support.h"
#include "device.h"

namespace opcts::vulkan {

// Whether `op`'s arithmetic on `data_type` (a scan, a scatter reduction) computes in float64:
// the type's subnormals are float32 ones (float32, bfloat16), the device's float32 arithmetic
// flushes them, and op's spec does not let them be flushed. float64 holds every float32 and
// bfloat16 exactly and keeps the subnormals; each result is rounded back once.
bool ComputesInFloat64(const abi::Operator& op, uint32_t data_type, const EnabledFeatures& enabled);

// kNotSupported, naming the missing device feature, when the device cannot scan `data_type`
// under `op`, or reduce it (a scatter reduction other than none).
Result<void> CheckScanDType(const abi::Operator& op, uint32_t data_type,
                            const EnabledFeatures& enabled);
Result<void> CheckReductionDType(const abi::Operator& op, uint32_t data_type,
                                 const EnabledFeatures& enabled);

// Per scheme, the highest level whose tables (and every lower level's, in the operator table
// generated from the specs) this backend meets on this device: scans and scatter reductions for
// every dtype listed.
plugin::Claims Claim(const EnabledFeatures& enabled);

// kNotSupported when one storage buffer of `bytes` exceeds maxStorageBufferRange or
// maxMemoryAllocationSize, or a tensor has 2^31 elements or more (kernels index with 32 bits).
Result<void> CheckBufferFits(const DeviceCaps& caps, std::string_view what, uint64_t bytes);
Result<void> CheckElementCount(std::string_view what, uint64_t elements);

}  // namespace opcts::vulkan
