// What an operator records its work with: one of each per backend instance.
#pragma once

#include "buffer_pool.h"
#include "command_stream.h"
#include "device.h"
#include "kernel_cache.h"

namespace opcts::vulkan {

struct Gpu {
  const Device& device;
  KernelCache& kernels;
  CommandStream& commands;
  BufferPool& buffers;
};

// Rounds a byte count up to whole 32-bit words: kernels address buffers as uint[].
inline uint64_t RoundToWords(uint64_t bytes) { return (bytes + 3) / 4 * 4; }

}  // namespace opcts::vulkan
