// Device buffers by role, reused across executes and grown on demand, so thousands of executes
// allocate only a handful of times. kStaging is host-visible and mapped: every host<->device
// transfer goes through it (the harness owns host memory; the device never sees it).
#pragma once

#include <array>
#include <cstddef>

#include <vulkan/vulkan.h>

#include "base/result.h"
#include "device.h"
#include "vk_handles.h"

namespace opcts::vulkan {

enum class Slot {
  kInput,        // an operator's input tensor, as the harness laid it out
  kOutput,       // the output tensor (also the input when executing in place)
  kIndices,      // ScatterND indices
  kUpdates,      // ScatterND updates
  kWork,         // packed elements being scanned / a packed copy of the input
  kBlockSums,    // per-block partial results of the block scans
  kIndexWords,   // ScatterND indices, packed
  kUpdateWords,  // ScatterND updates, packed
  kWinners,      // ScatterND duplicate resolution
  kStaging,
  kCount
};

class BufferPool {
 public:
  explicit BufferPool(const Device& device) : device_(device) {}

  // Makes `slot` at least `bytes` long. Invalidates that slot's earlier buffer, so call it for
  // every slot an execute needs before recording any command.
  Result<void> Ensure(Slot slot, VkDeviceSize bytes);

  VkBuffer buffer(Slot slot) const { return slots_[Index(slot)].buffer.get(); }
  std::byte* staging() const {
    return static_cast<std::byte*>(slots_[Index(Slot::kStaging)].mapped);
  }

 private:
  struct Allocation {
    MemoryHandle memory;  // declared first: freed after the buffer bound to it
    BufferHandle buffer;
    VkDeviceSize capacity = 0;
    void* mapped = nullptr;
  };
  static size_t Index(Slot slot) { return static_cast<size_t>(slot); }

  const Device& device_;
  std::array<Allocation, static_cast<size_t>(Slot::kCount)> slots_;
};

}  // namespace opcts::vulkan
