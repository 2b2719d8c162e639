// A pass in place at the widest vector the CPU has: every byte read and written back through the
// caches, the memory traffic of an operator that overwrites its input (a scan in place). Where a
// copy's stores go around the caches to a second buffer, these write back lines just read: on an
// Intel Granite Rapids VM such a pass ran 1.22-1.28x the faster streaming copy of the same bytes
// (bench/results/line-structure-granite-rapids.md), so a copy is no limit for an in-place case.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opcts::bench {

// XORs each of `bytes` bytes at `data` (any alignment) with `key`. The bench passes a zero the
// compiler cannot see, so the bytes are written back unchanged and the stores are not dropped.
void RewriteInPlace(uint8_t* data, size_t bytes, uint8_t key);

// The same, each vector prefetched into L2 8 KiB ahead, as the prefetching streaming copy
// (stream_copy.h): on the Granite Rapids VM 1.11-1.25x as fast as without.
void PrefetchingRewriteInPlace(uint8_t* data, size_t bytes, uint8_t key);

}  // namespace opcts::bench
