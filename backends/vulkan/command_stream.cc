#include "command_stream.h"

#include <array>

#include "vk_error.h"

namespace opcts::vulkan {

Result<std::unique_ptr<CommandStream>> CommandStream::Create(const Device& device,
                                                             const KernelCache& kernels) {
  std::unique_ptr<CommandStream> self(new CommandStream(device, kernels));
  VkDevice vk = device.get();

  auto pool_info =
      MakeVkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateCommandPool(vk, &pool_info, nullptr, &pool));
  self->pool_ = CommandPoolHandle(vk, pool);

  auto allocate =
      MakeVkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  OPCTS_VK_TRY(vkAllocateCommandBuffers(vk, &allocate, &self->commands_));

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                            kMaxDispatches * KernelCache::kBindings};
  auto descriptor_info =
      MakeVkStruct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  descriptor_info.maxSets = kMaxDispatches;
  descriptor_info.poolSizeCount = 1;
  descriptor_info.pPoolSizes = &size;
  VkDescriptorPool descriptors = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateDescriptorPool(vk, &descriptor_info, nullptr, &descriptors));
  self->descriptors_ = DescriptorPoolHandle(vk, descriptors);

  auto fence_info = MakeVkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateFence(vk, &fence_info, nullptr, &fence));
  self->fence_ = FenceHandle(vk, fence);
  return self;
}

Result<void> CommandStream::Begin() {
  OPCTS_VK_TRY(vkResetDescriptorPool(device_.get(), descriptors_.get(), 0));
  OPCTS_VK_TRY(vkResetCommandBuffer(commands_, 0));
  auto begin = MakeVkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  OPCTS_VK_TRY(vkBeginCommandBuffer(commands_, &begin));
  return {};
}

void CommandStream::Copy(VkBuffer source, VkDeviceSize source_offset, VkBuffer destination,
                         VkDeviceSize destination_offset, VkDeviceSize bytes) {
  VkBufferCopy region{source_offset, destination_offset, bytes};
  vkCmdCopyBuffer(commands_, source, destination, 1, &region);
}

void CommandStream::Fill(VkBuffer buffer, VkDeviceSize bytes, uint32_t value) {
  vkCmdFillBuffer(commands_, buffer, 0, bytes, value);
}

void CommandStream::Barrier() {
  auto barrier = MakeVkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                          VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands_,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                           VK_PIPELINE_STAGE_HOST_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

Result<void> CommandStream::Dispatch(VkPipeline pipeline,
                                     std::initializer_list<BufferRange> bindings, const void* push,
                                     uint32_t push_bytes, uint32_t groups) {
  VkDescriptorSetLayout set_layout = kernels_.set_layout();
  auto allocate =
      MakeVkStruct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocate.descriptorPool = descriptors_.get();
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkAllocateDescriptorSets(device_.get(), &allocate, &set));

  std::array<VkDescriptorBufferInfo, KernelCache::kBindings> infos{};
  std::array<VkWriteDescriptorSet, KernelCache::kBindings> writes{};
  uint32_t count = 0;
  for (const BufferRange& range : bindings) {
    if (count == KernelCache::kBindings) return InternalError("too many kernel bindings");
    infos[count] = {range.buffer, 0, range.bytes};
    writes[count] = MakeVkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[count].dstSet = set;
    writes[count].dstBinding = count;
    writes[count].descriptorCount = 1;
    writes[count].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[count].pBufferInfo = &infos[count];
    ++count;
  }
  vkUpdateDescriptorSets(device_.get(), count, writes.data(), 0, nullptr);
  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, kernels_.layout(), 0, 1, &set,
                          0, nullptr);
  vkCmdPushConstants(commands_, kernels_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes,
                     push);
  vkCmdDispatch(commands_, groups, 1, 1);
  return {};
}

Result<void> CommandStream::SubmitAndWait() {
  OPCTS_VK_TRY(vkEndCommandBuffer(commands_));
  VkFence fence = fence_.get();
  OPCTS_VK_TRY(vkResetFences(device_.get(), 1, &fence));
  auto submit = MakeVkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  OPCTS_VK_TRY(vkQueueSubmit(device_.queue(), 1, &submit, fence));
  VkResult result = vkWaitForFences(device_.get(), 1, &fence, VK_TRUE, kWaitSeconds * 1000000000);
  if (result == VK_TIMEOUT) {
    return Error{ErrorCode::kUnavailable,
                 "vkWaitForFences timed out after " + std::to_string(kWaitSeconds) +
                     " s; the device is treated as lost",
                 VK_TIMEOUT};
  }
  OPCTS_VK_TRY(result);
  return {};
}

}  // namespace opcts::vulkan
