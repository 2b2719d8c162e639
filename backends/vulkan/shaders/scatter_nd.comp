#version 450
// ScatterND's scatter step, after the input was copied to the output. One invocation per update
// element (tuple t, slice element s). Out-of-range tuples are skipped. Duplicate tuples are
// resolved in two phases (a specialization constant) so an element never ends up with a mix of
// two updates (a 64-bit element is two word stores): phase 0 claims each target with atomicMax
// of the update's number + 1, phase 1 lets only the claimant write - the last update in
// row-major order wins, as in a sequential loop.
#extension GL_GOOGLE_include_directive : require
#include "element_access.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kPhase = 0u;

layout(std430, binding = 0) buffer Output { uint out_words[]; };
// Indices packed row-major as [tuples, tuple size], 1 word (8/16/32-bit types, zero-extended)
// or 2 words (64-bit types) each; updates packed row-major, 1 word (or 2 for 64-bit data) each.
layout(std430, binding = 1) readonly buffer Indices { uint index_words[]; };
layout(std430, binding = 2) readonly buffer Updates { uint update_words[]; };
layout(std430, binding = 3) buffer Winners { uint winners[]; };  // per output element, zeroed

// Mirrors ScatterParams in scatter_op.cc.
layout(push_constant) uniform Params {
  uint count;         // update elements
  uint slice;         // elements per tuple's slice
  uint tuple;         // coordinates per tuple (q)
  uint first_dim;     // the output dimension the tuple's first coordinate indexes
  uint rank;
  uint index_words;   // 1 or 2
  uint index_bits;    // 8, 16, 32 or 64
  uint index_signed;  // negative values count from the end of the dimension
  uint data_bytes;
  uint sizes[8];      // output sizes
  uint strides[8];    // output strides
} p;

DEFINE_ELEMENT_LOAD(Update, update_words)
DEFINE_ELEMENT_STORE(Output, out_words)

#include "scatter_index.glsl"

void main() {
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint e = gl_GlobalInvocationID.x; e < p.count; e += step) {
    uint element;
    if (!Target(e / p.slice, e % p.slice, element)) continue;
    if (kPhase == 0u) {
      atomicMax(winners[element], e + 1u);
    } else if (winners[element] == e + 1u) {
      StoreOutput(element, p.data_bytes, LoadUpdate(e, p.data_bytes == 8u ? 8u : 4u));
    }
  }
}
