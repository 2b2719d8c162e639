#version 450
// ScatterND with a reduction (add, mul, max, min), after the input was copied to the output.
// One invocation per slice element s: it walks the tuples in order and combines update (t, s)
// into its target. Targets of different slice elements never coincide (the tuple addresses the
// leading dimensions, s the trailing ones), so no two invocations touch one element and every
// element meets its updates in tuple order, as a sequential loop would.
//
// float16 and bfloat16 add and mul accumulate in float32 and round once (the spec's Pass tier):
// phase 0 keeps each touched element in the scratch (a flag word, then the float32 bits), phase
// 1 rounds the touched ones back. Every other type combines in the output in phase 0: integers
// modulo 2^n (64-bit ones on 32-bit words, no shaderInt64 needed), float32 and float64 rounded
// once per update, max and min exact with a NaN when either operand is one. The HAS_F64 variant
// adds float64, and `in_float64`: float32 and bfloat16 computed in float64 (their values
// converted exactly, each result rounded back once; bfloat16 accumulators two words), for a
// device whose float32 arithmetic flushes the subnormals the operator must keep (support.h).
#extension GL_GOOGLE_include_directive : require
#include "element_access.glsl"
#include "float_bits.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kPhase = 0u;

layout(std430, binding = 0) buffer Output { uint out_words[]; };
layout(std430, binding = 1) readonly buffer Indices { uint index_words[]; };
layout(std430, binding = 2) readonly buffer Updates { uint update_words[]; };
layout(std430, binding = 3) buffer Scratch { uint scratch[]; };  // 2 words per output element, zeroed

// Mirrors ReduceParams in scatter_op.cc (ScatterParams, then three words).
layout(push_constant) uniform Params {
  uint count;
  uint slice;
  uint tuple;
  uint first_dim;
  uint rank;
  uint index_words;
  uint index_bits;
  uint index_signed;
  uint data_bytes;
  uint sizes[8];
  uint strides[8];
  uint reduction;  // 1 add, 2 mul, 3 max, 4 min
  uint kind;       // kF32 ... kUInt below
  uint elements;   // output elements: the scratch's accumulators start there
  uint in_float64;  // 1: float32 / bfloat16 computed in float64 (HAS_F64 only)
} p;

const uint kAdd = 1u, kMul = 2u, kMax = 3u;
const uint kF32 = 0u, kF64 = 1u, kF16 = 2u, kBF16 = 3u, kInt = 4u, kUInt = 5u;

DEFINE_ELEMENT_LOAD(Update, update_words)
DEFINE_ELEMENT_LOAD(Output, out_words)
DEFINE_ELEMENT_STORE(Output, out_words)

#include "scatter_index.glsl"

// Integers as (low, high) words; narrower types sign- or zero-extended into them.
uvec2 Widen(uvec2 bits) {
  if (p.data_bytes == 8u) return bits;
  uint width = p.data_bytes * 8u;
  if (p.kind == kInt) {
    int value = bitfieldExtract(int(bits.x), 0, int(width));
    return uvec2(uint(value), value < 0 ? 0xFFFFFFFFu : 0u);
  }
  return uvec2(bits.x, 0u);
}

bool IntLess(uvec2 a, uvec2 b) {
  if (a.y != b.y) return p.kind == kInt ? int(a.y) < int(b.y) : a.y < b.y;
  return a.x < b.x;
}

uvec2 CombineInts(uvec2 a, uvec2 b) {
  if (p.reduction == kAdd) {
    uint carry;
    uint low = uaddCarry(a.x, b.x, carry);
    return uvec2(low, a.y + b.y + carry);
  }
  if (p.reduction == kMul) {
    uint high, low;
    umulExtended(a.x, b.x, high, low);
    return uvec2(low, high + a.x * b.y + a.y * b.x);
  }
  bool take_b = p.reduction == kMax ? IntLess(a, b) : IntLess(b, a);
  return take_b ? b : a;
}

float CombineFloats(float a, float b) {
  if (p.reduction == kAdd) return a + b;
  if (p.reduction == kMul) return a * b;
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  return (p.reduction == kMax ? a < b : b < a) ? b : a;
}

#if HAS_F64
double CombineDoubles(double a, double b) {
  if (p.reduction == kAdd) return a + b;
  if (p.reduction == kMul) return a * b;
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  return (p.reduction == kMax ? a < b : b < a) ? b : a;
}
#endif

uint HalfToFloat(uint bits) { return p.kind == kF16 ? HalfToFloatBits(bits) : BFloat16ToFloatBits(bits); }
uint FloatToHalf(uint bits) { return p.kind == kF16 ? FloatToHalfBits(bits) : FloatToBFloat16Bits(bits); }

#if HAS_F64
// A float32 or bfloat16 element as float64 (exact, subnormals kept), and back, rounded once.
double NarrowToDouble(uint bits) {
  return packDouble2x32(FloatToDoubleBits(p.kind == kBF16 ? BFloat16ToFloatBits(bits) : bits));
}
uint DoubleToNarrow(double value) {
  return DoubleToNarrowBits(unpackDouble2x32(value), p.kind == kBF16 ? 7u : 23u);
}

// CombineFloats for float32 / bfloat16 computed in float64; max and min keep the operand's bits.
uvec2 CombineInFloat64(uvec2 a, uvec2 b) {
  double da = NarrowToDouble(a.x), db = NarrowToDouble(b.x);
  if (p.reduction <= kMul) return uvec2(DoubleToNarrow(CombineDoubles(da, db)), 0u);
  if (isnan(da)) return a;
  if (isnan(db)) return b;
  return (p.reduction == kMax ? da < db : db < da) ? b : a;
}
#endif

// One update combined into the output element (every kind but float16/bfloat16 add and mul).
uvec2 Combine(uvec2 a, uvec2 b) {
  if (p.kind == kInt || p.kind == kUInt) return CombineInts(Widen(a), Widen(b));
#if HAS_F64
  if (p.in_float64 != 0u) return CombineInFloat64(a, b);
#endif
  if (p.kind == kF32) return uvec2(floatBitsToUint(CombineFloats(uintBitsToFloat(a.x), uintBitsToFloat(b.x))), 0u);
#if HAS_F64
  if (p.kind == kF64) return unpackDouble2x32(CombineDoubles(packDouble2x32(a), packDouble2x32(b)));
#endif
  // float16 / bfloat16 max and min: compared as float32, the chosen operand's bits kept.
  float fa = uintBitsToFloat(HalfToFloat(a.x)), fb = uintBitsToFloat(HalfToFloat(b.x));
  if (isnan(fa)) return a;
  if (isnan(fb)) return b;
  return (p.reduction == kMax ? fa < fb : fb < fa) ? b : a;
}

// The running value of a float16/bfloat16 add or mul, as bits: float32 in one scratch word, or
// float64 in two.
uint AccumulatorAt(uint element) { return p.elements + (p.in_float64 != 0u ? 2u : 1u) * element; }

uvec2 LoadAccumulator(uint element) {
  uint at = AccumulatorAt(element);
  return uvec2(scratch[at], p.in_float64 != 0u ? scratch[at + 1u] : 0u);
}

void StoreAccumulator(uint element, uvec2 value) {
  uint at = AccumulatorAt(element);
  scratch[at] = value.x;
  if (p.in_float64 != 0u) scratch[at + 1u] = value.y;
}

uvec2 WidenToAccumulator(uint bits) {
#if HAS_F64
  if (p.in_float64 != 0u) return unpackDouble2x32(NarrowToDouble(bits));
#endif
  return uvec2(HalfToFloat(bits), 0u);
}

uint NarrowAccumulator(uvec2 value) {
#if HAS_F64
  if (p.in_float64 != 0u) return DoubleToNarrow(packDouble2x32(value));
#endif
  return FloatToHalf(value.x);
}

uvec2 Accumulate(uvec2 sum, uvec2 term) {
#if HAS_F64
  if (p.in_float64 != 0u)
    return unpackDouble2x32(CombineDoubles(packDouble2x32(sum), packDouble2x32(term)));
#endif
  return uvec2(floatBitsToUint(CombineFloats(uintBitsToFloat(sum.x), uintBitsToFloat(term.x))), 0u);
}

void main() {
  bool accumulate = (p.kind == kF16 || p.kind == kBF16) && p.reduction <= kMul;
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint tuples = p.count / p.slice;
  for (uint s = gl_GlobalInvocationID.x; s < p.slice; s += step) {
    for (uint t = 0u; t < tuples; ++t) {
      uint element;
      if (!Target(t, s, element)) continue;
      uvec2 update = LoadUpdate(t * p.slice + s, p.data_bytes == 8u ? 8u : 4u);
      if (!accumulate) {
        if (kPhase == 0u) StoreOutput(element, p.data_bytes, Combine(LoadOutput(element, p.data_bytes), update));
      } else if (kPhase == 0u) {
        if (scratch[element] == 0u) {
          scratch[element] = 1u;
          StoreAccumulator(element, WidenToAccumulator(LoadOutput(element, p.data_bytes).x));
        }
        StoreAccumulator(element, Accumulate(LoadAccumulator(element), WidenToAccumulator(update.x)));
      } else {
        StoreOutput(element, p.data_bytes, uvec2(NarrowAccumulator(LoadAccumulator(element)), 0u));
      }
    }
  }
}
