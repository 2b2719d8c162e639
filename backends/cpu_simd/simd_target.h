// Which Highway target an instance's kernels run on. HWY_DYNAMIC_DISPATCH picks one target per
// process; cpu-simd picks one per instance (option `target=`), so two instances of the one loaded
// plugin (`cpu-simd` and `cpu-simd@target=AVX2` in one bench run) each run their own.
#pragma once

#include <cstdint>

namespace opcts::cpu_simd {

// One HWY_* target bit (HWY_AVX2, HWY_AVX3, ...).
using SimdTarget = int64_t;

}  // namespace opcts::cpu_simd
