// A copy whose stores go around the caches (non-temporal), at the widest vector the CPU has: the
// third copy of the copy limit. memcpy chooses cached or streaming stores by a size threshold
// that glibc derives from the cache sizes it detects; where that is off, memcpy of bytes far
// larger than the caches stores through them, and every destination line is read before it is
// written: a third stream of memory traffic. On the Zen 5 development machine (a VM whose
// reported shared cache makes the threshold 127 MiB) memcpy of 64 MiB ran at about 0.7x of this
// copy, on one thread and on two. The bench's own code, not cpu-simd's: the baseline must not be
// the judged backend's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opcts::bench {

// Copies `bytes` from `src` to `dst` (any alignment) and returns when the stores are visible to
// other threads.
void StreamCopy(uint8_t* dst, const uint8_t* src, size_t bytes);

}  // namespace opcts::bench
