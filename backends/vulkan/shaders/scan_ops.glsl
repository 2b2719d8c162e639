// The accumulator type and operator of a scan variant, chosen by the build (CMakeLists.txt
// compiles each scan kernel once per ACC_* x OP_* pair). Every dtype scans in one of four
// accumulators: float32 (also float16/bfloat16, accumulating in float32), float64, 32-bit words
// (32/16/8-bit integers: sums and products modulo 2^32 truncate to the right n-bit result) and
// 64-bit words (needs shaderInt64).
#if defined(ACC_U64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#if USE_SUBGROUPS
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#endif
#endif
#if USE_SUBGROUPS
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

#if defined(ACC_F32)
#define ACC_T float
// -0.0, not +0.0: -0.0 + x == x for every x (+0.0 + -0.0 would turn a -0.0 sum into +0.0).
#define ZERO_IDENTITY uintBitsToFloat(0x80000000u)
#define ZERO_EMPTY 0.0
#define ONE 1.0
#elif defined(ACC_F64)
#define ACC_T double
#define ZERO_IDENTITY packDouble2x32(uvec2(0u, 0x80000000u))
#define ZERO_EMPTY 0.0lf
#define ONE 1.0lf
#elif defined(ACC_U32)
#define ACC_T uint
#define ZERO_IDENTITY 0u
#define ZERO_EMPTY 0u
#define ONE 1u
#elif defined(ACC_U64)
#define ACC_T uint64_t
#define ZERO_IDENTITY 0ul
#define ZERO_EMPTY 0ul
#define ONE 1ul
#else
#error "define one of ACC_F32, ACC_F64, ACC_U32, ACC_U64"
#endif

// IDENTITY seeds every partial result; EMPTY is what an exclusive scan writes first (the empty
// sum is +0, the empty product 1).
#if defined(OP_SUM)
#define OP(a, b) ((a) + (b))
#define IDENTITY ZERO_IDENTITY
#define EMPTY ZERO_EMPTY
#if defined(ACC_F32) || defined(ACC_F64)
#define SUBGROUP_EXCLUSIVE SignedZeroExclusiveAdd
#define SUBGROUP_REDUCE SignedZeroAdd
#else
#define SUBGROUP_EXCLUSIVE subgroupExclusiveAdd
#define SUBGROUP_REDUCE subgroupAdd
#endif
#elif defined(OP_PROD)
#define OP(a, b) ((a) * (b))
#define IDENTITY ONE
#define EMPTY ONE
#define SUBGROUP_EXCLUSIVE subgroupExclusiveMul
#define SUBGROUP_REDUCE subgroupMul
#else
#error "define OP_SUM or OP_PROD"
#endif

#if USE_SUBGROUPS && defined(OP_SUM) && (defined(ACC_F32) || defined(ACC_F64))
// Subgroup float additions may start from +0.0 (SPIR-V's identity for FAdd; lavapipe's do), and
// +0.0 + -0.0 is +0.0: a sum of -0.0 alone (or of nothing) would come back +0.0. Such sums are
// the identity, -0.0, exactly; a count of the other terms tells them apart.
#if defined(ACC_F32)
bool IsNegativeZero(float x) { return floatBitsToUint(x) == 0x80000000u; }
#else
bool IsNegativeZero(double x) { return unpackDouble2x32(x) == uvec2(0u, 0x80000000u); }
#endif

ACC_T SignedZeroExclusiveAdd(ACC_T x) {
  ACC_T sum = subgroupExclusiveAdd(x);
  return subgroupExclusiveAdd(IsNegativeZero(x) ? 0u : 1u) == 0u ? IDENTITY : sum;
}

ACC_T SignedZeroAdd(ACC_T x) {
  ACC_T sum = subgroupAdd(x);
  return subgroupAdd(IsNegativeZero(x) ? 0u : 1u) == 0u ? IDENTITY : sum;
}
#endif

// Mirrors ScanParams in scan_op.cc. The scanned tensor is packed row-major and viewed as
// [lines / inner, len, inner]: line l walks elements base(l) + k * inner, k in [0, len).
layout(push_constant) uniform Params {
  uint lines;
  uint len;
  uint inner;
  uint reverse;
  uint exclusive;
  uint blocks;  // blocks per line (scan_blocks only)
} p;

uint ElementIndex(uint line, uint position) {
  uint base = (line / p.inner) * p.len * p.inner + line % p.inner;
  return base + (p.reverse != 0u ? p.len - 1u - position : position) * p.inner;
}
