// One command buffer, recorded and submitted per execute, then waited for: the backend is
// synchronous, so a single command buffer, fence and descriptor pool are reused throughout.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>

#include <vulkan/vulkan.h>

#include "base/result.h"
#include "device.h"
#include "kernel_cache.h"
#include "vk_handles.h"

namespace opcts::vulkan {

// A storage-buffer binding: the first `bytes` of `buffer`.
struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize bytes = 0;
};

class CommandStream {
 public:
  static Result<std::unique_ptr<CommandStream>> Create(const Device& device,
                                                       const KernelCache& kernels);

  Result<void> Begin();
  void Copy(VkBuffer source, VkDeviceSize source_offset, VkBuffer destination,
            VkDeviceSize destination_offset, VkDeviceSize bytes);
  void Fill(VkBuffer buffer, VkDeviceSize bytes, uint32_t value);
  // Makes every earlier transfer and shader write visible to every later transfer, shader
  // access and the host. One kind of barrier keeps the recording code obviously right; the
  // cost is irrelevant next to the submit-and-wait per execute.
  void Barrier();
  // `bindings` go to binding 0, 1, ... of the kernel; `push` is its push-constant block.
  Result<void> Dispatch(VkPipeline pipeline, std::initializer_list<BufferRange> bindings,
                        const void* push, uint32_t push_bytes, uint32_t groups);
  // kUnavailable with native_code VK_TIMEOUT after kWaitSeconds: the harness's watchdog is the
  // real limit.
  Result<void> SubmitAndWait();

  template <typename Params>
  Result<void> Dispatch(VkPipeline pipeline, std::initializer_list<BufferRange> bindings,
                        const Params& params, uint32_t groups) {
    static_assert(sizeof(Params) <= KernelCache::kPushConstantBytes && sizeof(Params) % 4 == 0);
    return Dispatch(pipeline, bindings, &params, sizeof(Params), groups);
  }

 private:
  static constexpr uint64_t kWaitSeconds = 300;
  static constexpr uint32_t kMaxDispatches = 32;  // per execute

  CommandStream(const Device& device, const KernelCache& kernels)
      : device_(device), kernels_(kernels) {}

  const Device& device_;
  const KernelCache& kernels_;
  CommandPoolHandle pool_;
  DescriptorPoolHandle descriptors_;
  FenceHandle fence_;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;  // freed with pool_
};

}  // namespace opcts::vulkan
