#version 450
// One invocation per line, a serial scan along it. Used when the scanned axis is not the
// innermost one (neighbouring invocations walk neighbouring lines, so every step reads one
// contiguous run of memory across the workgroup) or when lines are short.
#extension GL_GOOGLE_include_directive : require
#include "scan_ops.glsl"

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) buffer Work { ACC_T work[]; };

void main() {
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint line = gl_GlobalInvocationID.x; line < p.lines; line += step) {
    ACC_T running = IDENTITY;
    for (uint k = 0u; k < p.len; ++k) {
      uint i = ElementIndex(line, k);
      ACC_T x = work[i];
      if (p.exclusive != 0u) {
        work[i] = k == 0u ? EMPTY : running;
        running = OP(running, x);
      } else {
        running = OP(running, x);
        work[i] = running;
      }
    }
  }
}
