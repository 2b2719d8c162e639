// The scans' Highway-dispatched translation unit: foreach_target.h compiles scan_kernels-inl.h once
// per target in HWY_TARGETS (narrowed by CMakeLists.txt), HWY_EXPORT builds the tables, and each
// call runs the row of its instance's target (DispatchIndex).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu_simd/scan_kernels-inl.h"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "cpu_simd/scan_kernels-inl.h"

#if HWY_ONCE
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpu_simd/dispatch_index.h"

namespace opcts::cpu_simd {

HWY_EXPORT(ScanRowsTarget);
HWY_EXPORT(ScanLineTarget);
HWY_EXPORT(ScanLineGroupTarget);
HWY_EXPORT(ReduceLineTarget);
HWY_EXPORT(TargetBit);

void ScanRows(SimdTarget target, const ScanType& t, const RowsJob& job) {
  HWY_DISPATCH_TABLE(ScanRowsTarget)[DispatchIndex(target)](t, job);
}

void ScanLine(SimdTarget target, const ScanType& t, bool reverse, const void* in, void* out,
              size_t n, Carry* carry, bool head, bool stream) {
  HWY_DISPATCH_TABLE(ScanLineTarget)
  [DispatchIndex(target)](t, reverse, in, out, n, carry, head, stream);
}

void ScanLineGroup(SimdTarget target, const ScanType& t, bool reverse, size_t n, bool stream,
                   LineGroup* group) {
  HWY_DISPATCH_TABLE(ScanLineGroupTarget)[DispatchIndex(target)](t, reverse, n, stream, group);
}

void ReduceLine(SimdTarget target, const ScanType& t, const void* in, size_t n, Carry* total) {
  HWY_DISPATCH_TABLE(ReduceLineTarget)[DispatchIndex(target)](t, in, n, total);
}

unsigned DetectAmdFamily() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return 0;
  const bool amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163;  // AuthenticAMD
  if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  const unsigned base = (eax >> 8) & 0xF;  // the extended family adds to a base of 0xF
  return base == 0xF ? base + ((eax >> 20) & 0xFF) : base;
#else
  return 0;
#endif
}

std::string HighwayVersion() {
  return std::to_string(HWY_MAJOR) + "." + std::to_string(HWY_MINOR) + "." +
         std::to_string(HWY_PATCH);
}

const char* DispatchedTargetName(SimdTarget target) {
  return hwy::TargetName(HWY_DISPATCH_TABLE(TargetBit)[DispatchIndex(target)]());
}

std::string CompiledTargetNames() {
  std::string names;
  // Lower bits are better targets, so this lists best first.
  for (int64_t targets = HWY_TARGETS; targets != 0; targets &= targets - 1) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(targets & -targets);
  }
  return names;
}

SimdTarget BestTarget() {
  const int64_t usable = HWY_TARGETS & hwy::SupportedTargets();
  return usable & -usable;  // the fallback (SCALAR, or EMU128 under clang) is among them
}

SimdTarget FindTarget(const std::string& name) {
  for (int64_t targets = HWY_TARGETS & hwy::SupportedTargets(); targets != 0;
       targets &= targets - 1) {
    const int64_t target = targets & -targets;
    if (name == hwy::TargetName(target)) return target;
  }
  return 0;
}

}  // namespace opcts::cpu_simd
#endif  // HWY_ONCE
