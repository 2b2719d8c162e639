#include "kernel_cache.h"

#include <array>
#include <vector>

#include "vk_error.h"

namespace opcts::vulkan {

Result<std::unique_ptr<KernelCache>> KernelCache::Create(const Device& device) {
  std::unique_ptr<KernelCache> self(new KernelCache(device));
  std::array<VkDescriptorSetLayoutBinding, kBindings> bindings{};
  for (uint32_t i = 0; i < kBindings; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto set_info = MakeVkStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  set_info.bindingCount = kBindings;
  set_info.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateDescriptorSetLayout(device.get(), &set_info, nullptr, &set_layout));
  self->set_layout_ = DescriptorSetLayoutHandle(device.get(), set_layout);

  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
  auto layout_info =
      MakeVkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreatePipelineLayout(device.get(), &layout_info, nullptr, &layout));
  self->layout_ = PipelineLayoutHandle(device.get(), layout);
  return self;
}

FloatControlModes KernelCache::FloatModes(uint32_t width) const {
  FloatControlModes modes;
  modes.width = width;
  const FloatControls& fc = device_.caps().float_controls;
  if (!device_.enabled().float_controls || (width != 32 && width != 64)) return modes;
  const int index = width == 64 ? 1 : 0;
  modes.denorm_preserve = fc.denorm_preserve[index];
  modes.signed_zero_inf_nan_preserve = fc.signed_zero_inf_nan_preserve[index];
  return modes;
}

Result<VkShaderModule> KernelCache::Module(const ShaderBinary& shader) {
  if (auto found = modules_.find(shader.name); found != modules_.end()) {
    return found->second.get();
  }
  std::vector<uint32_t> words(shader.words, shader.words + shader.word_count);
  if (FloatControlModes modes = FloatModes(shader.float_width);
      shader.float_width != 0 && modes.any()) {
    OPCTS_ASSIGN_OR_RETURN(words, AddFloatControls(words, modes));
  }
  auto info = MakeVkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  OPCTS_VK_TRY(vkCreateShaderModule(device_.get(), &info, nullptr, &module));
  modules_.emplace(shader.name, ShaderModuleHandle(device_.get(), module));
  return module;
}

Result<VkPipeline> KernelCache::Get(const std::string& variant, uint32_t phase) {
  auto key = std::make_pair(variant, phase);
  if (auto found = pipelines_.find(key); found != pipelines_.end()) return found->second.get();
  const ShaderBinary* shader = FindShader(variant);
  if (shader == nullptr) return InternalError("no embedded shader variant '" + variant + "'");
  OPCTS_ASSIGN_OR_RETURN(const VkShaderModule module, Module(*shader));

  const std::array<uint32_t, 2> constants = {device_.workgroup_size(), phase};
  const std::array<VkSpecializationMapEntry, 2> entries = {
      VkSpecializationMapEntry{0, 0, sizeof(uint32_t)},
      VkSpecializationMapEntry{1, sizeof(uint32_t), sizeof(uint32_t)}};
  VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()), entries.data(),
                                      sizeof(constants), constants.data()};
  auto info =
      MakeVkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  // The subgroup scans rank invocations by (subgroup, lane): partial subgroups would leave gaps.
  if (shader->subgroups && device_.enabled().full_subgroups) {
    info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  }
  info.layout = layout_.get();
  VkPipeline pipeline = VK_NULL_HANDLE;
  OPCTS_VK_TRY(
      vkCreateComputePipelines(device_.get(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  pipelines_.emplace(key, PipelineHandle(device_.get(), pipeline));
  return pipeline;
}

}  // namespace opcts::vulkan
