// Checks spec/half.h bit for bit against the CPU's F16C conversions (vcvtph2ps / vcvtps2ph),
// an oracle that shares no code with ours. Skips, saying why, where the CPU has no F16C.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "spec/half.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define OPCTS_HAVE_X86 1
#endif

namespace opcts {
namespace {

#ifdef OPCTS_HAVE_X86
// CPUID rather than __builtin_cpu_supports("f16c"), which clang 14 rejects. F16C is
// VEX-encoded, so the OS must also save the YMM state (OSXSAVE, then XCR0 bits 1 and 2).
bool CpuHasF16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  if ((ecx & bit_F16C) == 0 || (ecx & bit_OSXSAVE) == 0) return false;
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  return (xcr0_low & 0x6u) == 0x6u;
}

__attribute__((target("f16c"))) float F16cToFloat(uint16_t h) { return _cvtsh_ss(h); }

// Immediate 0: round to nearest even regardless of MXCSR.RC.
__attribute__((target("f16c"))) uint16_t F16cToHalf(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, 0));
}

#define OPCTS_REQUIRE_F16C()                                     \
  if (!CpuHasF16c())                                             \
  GTEST_SKIP() << "SKIPPED: this CPU has no F16C instructions, " \
                  "so the hardware cross-check cannot run"
#else
#define OPCTS_REQUIRE_F16C() \
  GTEST_SKIP() << "SKIPPED: not an x86 CPU, so the F16C hardware cross-check cannot run"
float F16cToFloat(uint16_t) { return 0; }
uint16_t F16cToHalf(float) { return 0; }
#endif

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

TEST(HalfF16c, WideningMatchesEveryPattern) {
  OPCTS_REQUIRE_F16C();
  for (uint32_t i = 0; i <= 0xFFFF; ++i) {
    const auto h = static_cast<uint16_t>(i);
    ASSERT_EQ(Bits(HalfBitsToFloat(h)), Bits(F16cToFloat(h))) << "half=0x" << std::hex << i;
  }
}

TEST(HalfF16c, NarrowingMatchesStrideSweep) {
  OPCTS_REQUIRE_F16C();
  // 4099 is prime, so the sweep lands on every residue of the low bits (~1M floats, NaNs too).
  for (uint64_t i = 0; i <= 0xFFFFFFFFu; i += 4099) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(i));
    ASSERT_EQ(FloatToHalfBits(f), F16cToHalf(f)) << "float=0x" << std::hex << i;
  }
}

TEST(HalfF16c, NarrowingMatchesAtEveryMidpoint) {
  OPCTS_REQUIRE_F16C();
  for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
    for (uint16_t lo = 0; lo < 0x7C00; ++lo) {
      const auto hi = static_cast<uint16_t>(lo + 1);
      const float a = F16cToFloat(sign | lo);
      // Past the largest finite half, the upper neighbour is 2^16 (the tie at 65520 overflows).
      const float b = hi == 0x7C00 ? std::copysign(65536.0f, a) : F16cToFloat(sign | hi);
      const float mid = (a + b) / 2;  // exact: 12 significant bits fit a float
      for (float f : {mid, std::nextafter(mid, a), std::nextafter(mid, b * 2)}) {
        ASSERT_EQ(FloatToHalfBits(f), F16cToHalf(f)) << "float=0x" << std::hex << Bits(f);
        ASSERT_EQ(DoubleToHalfBits(f), F16cToHalf(f)) << "float=0x" << std::hex << Bits(f);
      }
    }
  }
}

}  // namespace
}  // namespace opcts
