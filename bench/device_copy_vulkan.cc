#include <chrono>
#include <cstring>

#include "bench/device_copy.h"
#include "options.h"
#include "runtime.h"

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
    OPCTS_ASSIGN_OR_RETURN(self->vk_, vulkan::Runtime::Create(options));
    return std::unique_ptr<DeviceCopy>(std::move(self));
  }

  // kInput keeps these bytes while TimeDeviceCopy asks for no more (Ensure grows only).
  Result<void> LoadSource(const uint8_t* from, uint64_t bytes) override {
    OPCTS_TRY(vk_.buffers->Ensure(Slot::kInput, bytes));
    OPCTS_TRY(vk_.buffers->Ensure(Slot::kStaging, bytes));
    std::memcpy(vk_.buffers->staging(), from, bytes);
    OPCTS_TRY(vk_.commands->Begin());
    vk_.commands->Copy(vk_.buffers->buffer(Slot::kStaging), 0, vk_.buffers->buffer(Slot::kInput), 0,
                       bytes);
    return vk_.commands->SubmitAndWait();
  }

  Result<double> TimeDeviceCopy(uint64_t bytes) override {
    OPCTS_TRY(vk_.buffers->Ensure(Slot::kInput, bytes));
    OPCTS_TRY(vk_.buffers->Ensure(Slot::kOutput, bytes));
    const Clock::time_point start = Clock::now();
    OPCTS_TRY(vk_.commands->Begin());
    vk_.commands->Copy(vk_.buffers->buffer(Slot::kInput), 0, vk_.buffers->buffer(Slot::kOutput), 0,
                       bytes);
    OPCTS_TRY(vk_.commands->SubmitAndWait());
    return SecondsSince(start);
  }

  // As an execute stages a tensor: in at the start of staging, out after it.
  Result<double> TimeStagedCopy(const uint8_t* from, uint8_t* to, uint64_t bytes) override {
    OPCTS_TRY(vk_.buffers->Ensure(Slot::kWork, bytes));
    OPCTS_TRY(vk_.buffers->Ensure(Slot::kStaging, 2 * bytes));
    const VkBuffer staging = vk_.buffers->buffer(Slot::kStaging);
    const Clock::time_point start = Clock::now();
    std::memcpy(vk_.buffers->staging(), from, bytes);
    OPCTS_TRY(vk_.commands->Begin());
    vk_.commands->Copy(staging, 0, vk_.buffers->buffer(Slot::kWork), 0, bytes);
    vk_.commands->Barrier();
    vk_.commands->Copy(vk_.buffers->buffer(Slot::kWork), 0, staging, bytes, bytes);
    vk_.commands->Barrier();
    OPCTS_TRY(vk_.commands->SubmitAndWait());
    std::memcpy(to, vk_.buffers->staging() + bytes, bytes);
    return SecondsSince(start);
  }

 private:
  VulkanCopy() = default;

  vulkan::Runtime vk_;
};

}  // namespace

Result<std::unique_ptr<DeviceCopy>> OpenDeviceCopy(const std::string& name,
                                                   const std::string& options) {
  if (name != "vulkan") return std::unique_ptr<DeviceCopy>();
  return VulkanCopy::Open(options);
}

}  // namespace opcts::bench
