// One element of a scatter reduction: *out = combine(*out, *update) in the element's type.
// Integers wrap; floats round once to nearest even in their own type (float16 and bfloat16
// through float, which holds their sums and products exactly before that one rounding); max and
// min return a NaN when either operand is one.
#pragma once

#include <cstdint>

#include "common/family_views.h"

namespace opcts::cpu_simd {

void CombineElement(uint32_t data_type, plugin::ScatterReduction reduction, unsigned char* out,
                    const unsigned char* update);

}  // namespace opcts::cpu_simd
