#include "shader_library.h"

#include "spirv_shaders.h"

namespace opcts::vulkan {

const ShaderBinary* FindShader(std::string_view name) {
  for (const ShaderBinary& shader : spirv::kShaders) {
    if (name == shader.name) return &shader;
  }
  return nullptr;
}

}  // namespace opcts::vulkan
