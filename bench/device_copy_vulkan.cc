#include <chrono>
#include <cstring>

#include "bench/device_copy.h"
#include "buffer_pool.h"
#include "command_stream.h"
#include "device.h"
#include "instance.h"
#include "kernel_cache.h"
#include "options.h"

namespace opcts::bench {
namespace {

using vulkan::Slot;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class VulkanCopy final : public DeviceCopy {
 public:
  static Result<std::unique_ptr<DeviceCopy>> Open(const std::string& options_text) {
    std::unique_ptr<VulkanCopy> self(new VulkanCopy);
    OPCTS_ASSIGN_OR_RETURN(const vulkan::Options options,
                           vulkan::ParseOptions(options_text.c_str()));
    OPCTS_ASSIGN_OR_RETURN(self->instance_, vulkan::Instance::Create(options.validation));
    OPCTS_ASSIGN_OR_RETURN(self->device_, vulkan::Device::Create(*self->instance_, options));
    OPCTS_ASSIGN_OR_RETURN(self->kernels_, vulkan::KernelCache::Create(*self->device_));
    OPCTS_ASSIGN_OR_RETURN(self->commands_,
                           vulkan::CommandStream::Create(*self->device_, *self->kernels_));
    self->buffers_ = std::make_unique<vulkan::BufferPool>(*self->device_);
    return std::unique_ptr<DeviceCopy>(std::move(self));
  }

  Result<double> TimeDeviceCopy(uint64_t bytes) override {
    OPCTS_TRY(buffers_->Ensure(Slot::kInput, bytes));
    OPCTS_TRY(buffers_->Ensure(Slot::kOutput, bytes));
    const Clock::time_point start = Clock::now();
    OPCTS_TRY(commands_->Begin());
    commands_->Copy(buffers_->buffer(Slot::kInput), 0, buffers_->buffer(Slot::kOutput), 0, bytes);
    OPCTS_TRY(commands_->SubmitAndWait());
    return SecondsSince(start);
  }

  // As an execute stages a tensor: in at the start of staging, out after it.
  Result<double> TimeStagedCopy(const uint8_t* from, uint8_t* to, uint64_t bytes) override {
    OPCTS_TRY(buffers_->Ensure(Slot::kWork, bytes));
    OPCTS_TRY(buffers_->Ensure(Slot::kStaging, 2 * bytes));
    const VkBuffer staging = buffers_->buffer(Slot::kStaging);
    const Clock::time_point start = Clock::now();
    std::memcpy(buffers_->staging(), from, bytes);
    OPCTS_TRY(commands_->Begin());
    commands_->Copy(staging, 0, buffers_->buffer(Slot::kWork), 0, bytes);
    commands_->Barrier();
    commands_->Copy(buffers_->buffer(Slot::kWork), 0, staging, bytes, bytes);
    commands_->Barrier();
    OPCTS_TRY(commands_->SubmitAndWait());
    std::memcpy(to, buffers_->staging() + bytes, bytes);
    return SecondsSince(start);
  }

 private:
  VulkanCopy() = default;

  // Declared in the order they depend on each other: destroyed in reverse.
  std::unique_ptr<vulkan::Instance> instance_;
  std::unique_ptr<vulkan::Device> device_;
  std::unique_ptr<vulkan::KernelCache> kernels_;
  std::unique_ptr<vulkan::CommandStream> commands_;
  std::unique_ptr<vulkan::BufferPool> buffers_;
};

}  // namespace

Result<std::unique_ptr<DeviceCopy>> OpenDeviceCopy(const std::string& name,
                                                   const std::string& options) {
  if (name != "vulkan") return std::unique_ptr<DeviceCopy>();
  return VulkanCopy::Open(options);
}

}  // namespace opcts::bench
