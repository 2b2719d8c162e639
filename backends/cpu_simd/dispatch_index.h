// The row of a Highway dispatch table (HWY_EXPORT) that runs a given target. Include it only in
// the Highway-dispatched translation units (scan_kernels.cc, stream_copy.cc): a table's layout
// follows the HWY_TARGETS of the translation unit, and those two compile the same targets
// (CMakeLists.txt).
#pragma once

#include <cstddef>

#include <hwy/targets.h>

#include "cpu_simd/simd_target.h"

namespace opcts::cpu_simd {

// What HWY_DYNAMIC_DISPATCH does with the process-wide choice (hwy::ChosenTarget's Update, then
// GetIndex), for the caller's own target: SCALAR kept as the fallback. Not through a local
// ChosenTarget: its mask is a std::atomic, and the seq_cst store is a locked xchg, a full fence
// that waits for the caller's earlier streaming stores to reach memory. Once per kernel call, it
// serialized the in-place ScatterND slice by slice (1 KiB slices, 1 in 16: 0.44x -> 1.06x of
// the copy limit, bench/results/dispatch-fence-ab.md).
inline size_t DispatchIndex(SimdTarget target) {
  const auto chosen =
      static_cast<uint64_t>(HWY_CHOSEN_TARGET_SHIFT(target) | HWY_CHOSEN_TARGET_MASK_SCALAR);
  return hwy::Num0BitsBelowLS1Bit_Nonzero64(chosen & HWY_CHOSEN_TARGET_MASK_TARGETS);
}

}  // namespace opcts::cpu_simd
