#version 450
// Workgroup scans for long lines, reduce-then-scan in three dispatches (the phase is a
// specialization constant): 0 reduces each block of a line to a block sum, 1 scans each line's
// block sums (exclusive) in place, 2 re-reads each block, scans it and adds its carry-in. No
// workgroup ever waits for another, so nothing relies on forward progress between workgroups.
// A line that fits in one block needs only phase 2 (p.blocks == 1: the carry-in is IDENTITY).
#extension GL_GOOGLE_include_directive : require
#include "scan_ops.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kPhase = 0u;

layout(std430, binding = 0) buffer Work { ACC_T work[]; };
layout(std430, binding = 1) buffer BlockSums { ACC_T block_sums[]; };

const uint kItems = 4u;  // consecutive elements per invocation; a block is kItems * workgroup size

shared ACC_T partials[gl_WorkGroupSize.x];
shared ACC_T workgroup_total;

#if USE_SUBGROUPS
// The invocation's rank in the scan: subgroup operations scan in subgroup-invocation order, so
// data is assigned by (subgroup, invocation in subgroup), not by gl_LocalInvocationIndex.
uint Rank() { return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; }

// Exclusive scan of one value per invocation across the workgroup; *total gets the reduction.
ACC_T WorkgroupExclusiveScan(ACC_T value, out ACC_T total) {
  ACC_T within_subgroup = SUBGROUP_EXCLUSIVE(value);
  ACC_T subgroup_total = SUBGROUP_REDUCE(value);
  if (subgroupElect()) partials[gl_SubgroupID] = subgroup_total;
  barrier();
  if (gl_SubgroupID == 0u) {
    // Subgroup 0 scans the subgroup totals, gl_SubgroupSize at a time (lavapipe runs 8-wide
    // subgroups, so a 256-invocation workgroup has 32 of them).
    ACC_T carry = IDENTITY;
    for (uint first = 0u; first < gl_NumSubgroups; first += gl_SubgroupSize) {
      uint i = first + gl_SubgroupInvocationID;
      ACC_T x = i < gl_NumSubgroups ? partials[i] : IDENTITY;
      ACC_T x_exclusive = SUBGROUP_EXCLUSIVE(x);
      ACC_T x_total = SUBGROUP_REDUCE(x);
      if (i < gl_NumSubgroups) partials[i] = OP(carry, x_exclusive);
      carry = OP(carry, x_total);
    }
    if (subgroupElect()) workgroup_total = carry;
  }
  barrier();
  total = workgroup_total;
  ACC_T result = OP(partials[gl_SubgroupID], within_subgroup);
  barrier();  // partials is reused by the next call
  return result;
}
#else
uint Rank() { return gl_LocalInvocationIndex; }

// Hillis-Steele in shared memory, for devices without subgroup arithmetic in compute shaders.
ACC_T WorkgroupExclusiveScan(ACC_T value, out ACC_T total) {
  uint rank = Rank();
  partials[rank] = value;
  barrier();
  for (uint distance = 1u; distance < gl_WorkGroupSize.x; distance <<= 1u) {
    ACC_T left = rank >= distance ? partials[rank - distance] : IDENTITY;
    barrier();
    partials[rank] = OP(left, partials[rank]);
    barrier();
  }
  total = partials[gl_WorkGroupSize.x - 1u];
  ACC_T result = rank > 0u ? partials[rank - 1u] : IDENTITY;
  barrier();
  return result;
}
#endif

void ScanBlockSums(uint line) {
  ACC_T carry = IDENTITY;
  for (uint first = 0u; first < p.blocks; first += gl_WorkGroupSize.x) {
    uint block = first + Rank();
    ACC_T x = block < p.blocks ? block_sums[line * p.blocks + block] : IDENTITY;
    ACC_T total;
    ACC_T exclusive = WorkgroupExclusiveScan(x, total);
    if (block < p.blocks) block_sums[line * p.blocks + block] = OP(carry, exclusive);
    carry = OP(carry, total);
  }
}

void ReduceOrDownsweep(uint block_id) {
  uint line = block_id / p.blocks;
  uint first = (block_id % p.blocks) * gl_WorkGroupSize.x * kItems + Rank() * kItems;
  ACC_T items[kItems];
  ACC_T running = IDENTITY;
  for (uint k = 0u; k < kItems; ++k) {
    uint position = first + k;
    ACC_T x = position < p.len ? work[ElementIndex(line, position)] : IDENTITY;
    if (p.exclusive != 0u) {
      items[k] = running;
      running = OP(running, x);
    } else {
      running = OP(running, x);
      items[k] = running;
    }
  }
  ACC_T total;
  ACC_T prefix = WorkgroupExclusiveScan(running, total);
  if (kPhase == 0u) {
    if (Rank() == 0u) block_sums[block_id] = total;
    return;
  }
  ACC_T offset = OP(p.blocks > 1u ? block_sums[block_id] : IDENTITY, prefix);
  for (uint k = 0u; k < kItems; ++k) {
    uint position = first + k;
    if (position < p.len) {
      work[ElementIndex(line, position)] =
          p.exclusive != 0u && position == 0u ? EMPTY : OP(offset, items[k]);
    }
  }
}

void main() {
  // Workgroup-stride loops: the trip count is uniform across a workgroup, so the barriers
  // inside stay in uniform control flow.
  if (kPhase == 1u) {
    for (uint line = gl_WorkGroupID.x; line < p.lines; line += gl_NumWorkGroups.x) {
      ScanBlockSums(line);
    }
  } else {
    for (uint block_id = gl_WorkGroupID.x; block_id < p.lines * p.blocks;
         block_id += gl_NumWorkGroups.x) {
      ReduceOrDownsweep(block_id);
    }
  }
}
