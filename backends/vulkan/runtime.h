// The Vulkan objects one user of a device works with: an instance, the logical device, the
// kernels, a command stream and the buffers, created in that order (each needs the one before)
// and destroyed in reverse. A backend instance owns one; so does opcts_bench's device-copy
// baseline (bench/device_copy_vulkan.cc), which must drive the device as the backend does.
#pragma once

#include <memory>

#include "base/result.h"
#include "buffer_pool.h"
#include "command_stream.h"
#include "device.h"
#include "gpu.h"
#include "instance.h"
#include "kernel_cache.h"
#include "options.h"

namespace opcts::vulkan {

struct Runtime {
  static Result<Runtime> Create(const Options& options);

  Gpu gpu() { return {*device, *kernels, *commands, *buffers}; }

  // Declared in creation order: destroyed in reverse.
  std::unique_ptr<Instance> instance;
  std::unique_ptr<Device> device;
  std::unique_ptr<KernelCache> kernels;
  std::unique_ptr<CommandStream> commands;
  std::unique_ptr<BufferPool> buffers;
};

}  // namespace opcts::vulkan
