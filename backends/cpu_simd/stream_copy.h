// Copies that go around the caches, at the widest vector the CPU has (Highway-dispatched).
#pragma once

#include <cstddef>

#include "cpu_simd/simd_target.h"

namespace opcts::cpu_simd {

// Copies `bytes` from `src` to `dst` with non-temporal stores of whole aligned vectors: for output
// nothing reads soon, it saves reading each line before writing it. Wider stores matter: on the
// development machine (AMD EPYC, AVX-512) one thread scatters 1 KiB slices over 64 MiB about 1.5x
// faster with 64-byte streaming stores than with 16-byte ones. Callers then call
// hwy::FlushStream() before another thread may read the bytes.
void StreamCopy(SimdTarget target, unsigned char* dst, const unsigned char* src, size_t bytes);

}  // namespace opcts::cpu_simd
