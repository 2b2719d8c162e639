// Writing a buffer back and out of every cache level, whatever their size. The bench's 64 MiB
// read before each timed pass at DRAM size (EvictCaches) evicts a case only where the L3 is
// smaller than that read; a VM reporting a 480 MiB L3 kept part of a 64 MiB case there (the
// execution ran 1.4x as fast as after a 512 MiB read: bench/results/scatter-update-prefetch-ab.md).
// A read twice such an L3 would add about 50 ms to each of an iteration's five timed passes, ten
// times a 64 MiB case's execution; a flush costs the buffer's own bytes (28-68 GB/s on Zen 4:
// bench/results/cache-flush-zen4.md).
#pragma once

#include <cstdint>

namespace opcts::bench {

// Writes back and invalidates in every cache level each line holding a byte of
// [data, data + bytes), and returns when that is done (Highway's FlushCacheline: clflush). Off
// x86 it does nothing and returns false.
bool FlushFromCaches(const void* data, uint64_t bytes);

}  // namespace opcts::bench
