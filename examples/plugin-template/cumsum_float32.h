// The kernel: DML_CUMULATIVE_SUMMATION on FLOAT32 tensors of any rank 1..8, any axis, packed or
// strided, both directions, inclusive or exclusive, in place. Written for clarity, not speed:
// replace it with your device's implementation.
#pragma once

#include "opcts/backend.h"

namespace my_plugin {

// `desc` and the buffers must already have passed ValidateCumulativeDesc and ValidateBindings,
// with FLOAT32 tensors. `output` may equal `input` (in-place execution).
void CumulativeSumFloat32(const opcts_dml_cumulative_desc& desc, const void* input, void* output);

}  // namespace my_plugin
