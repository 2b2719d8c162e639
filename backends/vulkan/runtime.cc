#include "runtime.h"

namespace opcts::vulkan {

Result<Runtime> Runtime::Create(const Options& options) {
  Runtime r;
  OPCTS_ASSIGN_OR_RETURN(r.instance, Instance::Create(options.validation));
  OPCTS_ASSIGN_OR_RETURN(r.device, Device::Create(*r.instance, options));
  OPCTS_ASSIGN_OR_RETURN(r.kernels, KernelCache::Create(*r.device));
  OPCTS_ASSIGN_OR_RETURN(r.commands, CommandStream::Create(*r.device, *r.kernels));
  r.buffers = std::make_unique<BufferPool>(*r.device);
  return r;
}

}  // namespace opcts::vulkan
