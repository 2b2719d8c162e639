// A copy whose stores go around the caches (non-temporal), at the widest vector the CPU has: the
// third copy of the copy limit. memcpy chooses cached or streaming stores by a size threshold
// that glibc derives from the cache sizes it detects; where that is off, memcpy of bytes far
// larger than the caches stores through them, and every destination line is read before it is
// written: a third stream of memory traffic. On the Zen 5 development machine (a VM whose
// reported shared cache makes the threshold 127 MiB) memcpy of 64 MiB and more ran at 0.42-0.69x
// of this copy (bench/results/stream-copy-limit-zen5.md). The same few lines as cpu-simd's
// StreamCopy, kept apart on purpose: a change to the judged backend must not move its baseline.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opcts::bench {

// How far ahead the bench's prefetching passes (this copy, the rewrite in place) ask for their
// input: cpu-simd's line scans' distance.
inline constexpr size_t kPrefetchBytes = 8192;

// Copies `bytes` from `src` to `dst` (any alignment) and returns when the stores are visible to
// other threads.
void StreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes);

// The same, each vector's input prefetched into L2 8 KiB ahead, as cpu-simd's line scans do. On
// an Intel Granite Rapids VM this copy ran 1.22-1.26x the one above
// (bench/results/prefetching-copy-granite-rapids.md); on the Zen 5 VM such a prefetch slowed a
// copy (0.93x against 0.99x, bench/results/line-scan-knobs-zen5-ab.md). So the copy limit takes
// the faster of the two.
void PrefetchingStreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes);

}  // namespace opcts::bench
