// Copies that go around the caches, at the widest vector the CPU has (Highway-dispatched).
#pragma once

#include <cstddef>

#include "cpu_simd/simd_target.h"

namespace opcts::cpu_simd {

// Copies `bytes` from `src` to `dst` with non-temporal stores of whole aligned vectors: for output
// nothing reads soon, it saves reading each line before writing it. Wider stores matter: on the
// development machine (AMD EPYC, AVX-512) one thread scatters 1 KiB slices over 64 MiB about 1.5x
// faster with 64-byte streaming stores than with 16-byte ones. Callers then call
// hwy::FlushStream() before another thread may read the bytes. The input is prefetched into L2
// kPrefetchBytes ahead (`prefetch_input`; the caller may have fetched a short input earlier), as
// the line scans prefetch theirs: on Granite Rapids ScatterND's streamed outputs (out of place)
// ran 1.05-1.12x as fast (in place 0.92-1.00x, within those cells' spread;
// bench/results/stream-copy-prefetch-ab.md). Not on AMD Zen 5, where the line loop with its
// arithmetic removed, a copy, reached 0.93x of the streaming copy with such a prefetch and 0.99x
// without (bench/results/line-scan-knobs-zen5-ab.md).
void StreamCopy(SimdTarget target, unsigned char* dst, const unsigned char* src, size_t bytes,
                bool prefetch_input);

}  // namespace opcts::cpu_simd
