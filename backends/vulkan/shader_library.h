// The SPIR-V shader variants embedded at build time (generated/spirv_shaders.h, written by
// embed_spirv.cmake from the glslc output), looked up by variant name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace opcts::vulkan {

struct ShaderBinary {
  const char* name;  // "scan_blocks.f32.sum.subgroup"
  const uint32_t* words;
  size_t word_count;
  uint32_t float_width;  // 32 / 64: the float type it does arithmetic in; 0: none
  bool subgroups;        // uses subgroup arithmetic
};

// nullptr when no variant has that name.
const ShaderBinary* FindShader(std::string_view name);

}  // namespace opcts::vulkan
