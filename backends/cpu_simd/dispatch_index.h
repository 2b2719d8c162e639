// The row of a Highway dispatch table (HWY_EXPORT) that runs a given target. Include it only in
// the Highway-dispatched translation units (scan_kernels.cc, stream_copy.cc): a table's layout
// follows the HWY_TARGETS of the translation unit, and those two compile the same targets
// (CMakeLists.txt).
#pragma once

#include <cstddef>

#include <hwy/targets.h>

#include "cpu_simd/simd_target.h"

namespace opcts::cpu_simd {

// What HWY_DYNAMIC_DISPATCH does with the process-wide choice, for the caller's own target.
inline size_t DispatchIndex(SimdTarget target) {
  hwy::ChosenTarget chosen;
  chosen.Update(target);  // also enables SCALAR, the fallback Update always keeps
  return chosen.GetIndex();
}

}  // namespace opcts::cpu_simd
