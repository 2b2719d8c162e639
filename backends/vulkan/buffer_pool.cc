#include "buffer_pool.h"

#include <algorithm>

#include "vk_error.h"

namespace opcts::vulkan {
namespace {

constexpr VkDeviceSize kGranularity =
    VkDeviceSize{64} * 1024;  // fewer regrowths for slowly growing sizes

}  // namespace

Result<void> BufferPool::Ensure(Slot slot, VkDeviceSize bytes) {
  Allocation& allocation = slots_[Index(slot)];
  if (allocation.capacity >= bytes && allocation.buffer.get() != VK_NULL_HANDLE) {
    return {};
  }
  const bool staging = slot == Slot::kStaging;
  const VkDeviceSize limit = device_.caps().max_memory_allocation_size;
  if (bytes > limit) {
    return NotSupported("a " + std::to_string(bytes) +
                        "-byte buffer exceeds this device's maxMemoryAllocationSize (" +
                        std::to_string(limit) + ")");
  }
  const VkDeviceSize capacity =
      std::min(std::max<VkDeviceSize>((bytes + kGranularity - 1) / kGranularity * kGranularity,
                                      kGranularity),
               limit);
  // The device is idle between executes: free the old buffer before allocating its successor.
  allocation.buffer.Reset();
  allocation.memory.Reset();
  allocation.capacity = 0;
  allocation.mapped = nullptr;

  auto info = MakeVkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = capacity;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               (staging ? 0 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateBuffer(device_.get(), &info, nullptr, &buffer));
  BufferHandle buffer_handle(device_.get(), buffer);

  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device_.get(), buffer, &requirements);
  const VkMemoryPropertyFlags required =
      staging ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT : 0;
  const VkMemoryPropertyFlags preferred =
      staging ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  std::optional<uint32_t> type =
      device_.FindMemoryType(requirements.memoryTypeBits, required, preferred);
  if (!type) {
    return InternalError(staging ? "no host-visible, host-coherent memory type for staging"
                                 : "no memory type for a storage buffer");
  }
  auto allocate = MakeVkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkAllocateMemory(device_.get(), &allocate, nullptr, &memory));
  MemoryHandle memory_handle(device_.get(), memory);
  OPCTS_VK_TRY(vkBindBufferMemory(device_.get(), buffer, memory, 0));
  void* mapped = nullptr;
  if (staging) OPCTS_VK_TRY(vkMapMemory(device_.get(), memory, 0, VK_WHOLE_SIZE, 0, &mapped));

  allocation.memory = std::move(memory_handle);
  allocation.buffer = std::move(buffer_handle);
  allocation.capacity = capacity;
  allocation.mapped = mapped;
  return {};
}

}  // namespace opcts::vulkan
