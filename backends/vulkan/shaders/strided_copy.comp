#version 450
// Copies a strided tensor into another layout, element by element, optionally converting
// float16/bfloat16 <-> float32. The only kernel that sees strides: it packs inputs for the scan
// kernels (widening 8/16-bit integers to 32-bit words, which sums and products modulo 2^n do not
// mind), unpacks results into the output's layout, and does ScatterND's bit-exact copy.
#extension GL_GOOGLE_include_directive : require
#include "element_access.glsl"
#include "float_bits.glsl"

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Source { uint src_words[]; };
layout(std430, binding = 1) buffer Destination { uint dst_words[]; };

// Mirrors CopyParams in strided_copy.h.
layout(push_constant) uniform Params {
  uint count;
  uint rank;
  uint src_bytes;
  uint dst_bytes;
  uint convert;
  uint sizes[8];
  uint src_strides[8];
  uint dst_strides[8];
} p;

DEFINE_ELEMENT_LOAD(Source, src_words)
DEFINE_ELEMENT_STORE(Destination, dst_words)

void main() {
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint e = gl_GlobalInvocationID.x; e < p.count; e += step) {
    uint rest = e;
    uint src = 0u;
    uint dst = 0u;
    for (uint d = p.rank; d-- > 0u;) {
      uint coordinate = rest % p.sizes[d];
      rest /= p.sizes[d];
      src += coordinate * p.src_strides[d];
      dst += coordinate * p.dst_strides[d];
    }
    StoreDestination(dst, p.dst_bytes, ConvertBits(LoadSource(src, p.src_bytes), p.convert));
  }
}
