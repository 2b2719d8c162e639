// Compute pipelines, created on first use and cached per (shader variant, phase). Every kernel
// shares one pipeline layout: four storage-buffer bindings and 128 bytes of push constants
// (the minimum every device offers). Specialization constant 0 is the workgroup size,
// 1 the phase of a multi-phase kernel.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include <vulkan/vulkan.h>

#include "base/result.h"
#include "device.h"
#include "shader_library.h"
#include "spirv_float_controls.h"
#include "vk_handles.h"

namespace opcts::vulkan {

class KernelCache {
 public:
  static constexpr uint32_t kBindings = 4;
  static constexpr uint32_t kPushConstantBytes = 128;

  static Result<std::unique_ptr<KernelCache>> Create(const Device& device);

  Result<VkPipeline> Get(const std::string& variant, uint32_t phase = 0);
  VkPipelineLayout layout() const { return layout_.get(); }
  VkDescriptorSetLayout set_layout() const { return set_layout_.get(); }
  // The float-control modes added to kernels doing `width`-bit float arithmetic (32 or 64).
  FloatControlModes FloatModes(uint32_t width) const;

 private:
  explicit KernelCache(const Device& device) : device_(device) {}
  Result<VkShaderModule> Module(const ShaderBinary& shader);

  const Device& device_;
  DescriptorSetLayoutHandle set_layout_;
  PipelineLayoutHandle layout_;
  std::map<std::string, ShaderModuleHandle> modules_;
  std::map<std::pair<std::string, uint32_t>, PipelineHandle> pipelines_;
};

}  // namespace opcts::vulkan
