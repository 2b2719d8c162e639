// The scans' Highway-dispatched translation unit: foreach_target.h compiles scan_kernels-inl.h once
// per target in HWY_TARGETS (narrowed by CMakeLists.txt), HWY_EXPORT builds the tables and
// HWY_DYNAMIC_DISPATCH picks the best target the CPU supports on first call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu_simd/scan_kernels-inl.h"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "cpu_simd/scan_kernels-inl.h"

#if HWY_ONCE
namespace opcts::cpu_simd {

HWY_EXPORT(ScanRowsTarget);
HWY_EXPORT(ScanLineTarget);
HWY_EXPORT(ReduceLineTarget);
HWY_EXPORT(TargetBit);

void ScanRows(const ScanType& t, const RowsJob& job) {
  HWY_DYNAMIC_DISPATCH(ScanRowsTarget)(t, job);
}

void ScanLine(const ScanType& t, bool reverse, const void* in, void* out, size_t n, Carry* carry,
              bool head, bool stream) {
  HWY_DYNAMIC_DISPATCH(ScanLineTarget)(t, reverse, in, out, n, carry, head, stream);
}

void ReduceLine(const ScanType& t, const void* in, size_t n, Carry* total) {
  HWY_DYNAMIC_DISPATCH(ReduceLineTarget)(t, in, n, total);
}

std::string HighwayVersion() {
  return std::to_string(HWY_MAJOR) + "." + std::to_string(HWY_MINOR) + "." +
         std::to_string(HWY_PATCH);
}

// Highway 1.0.3 has no DispatchedTarget(): ask the dispatched function which target it is.
const char* DispatchedTargetName() { return hwy::TargetName(HWY_DYNAMIC_DISPATCH(TargetBit)()); }

std::string CompiledTargetNames() {
  std::string names;
  // Lower bits are better targets, so this lists best first.
  for (int64_t targets = HWY_TARGETS; targets != 0; targets &= targets - 1) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(targets & -targets);
  }
  return names;
}

bool PinTarget(const std::string& name) {
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
  if (name.empty()) return true;
  for (int64_t targets = HWY_TARGETS & hwy::SupportedTargets(); targets != 0;
       targets &= targets - 1) {
    const int64_t target = targets & -targets;
    if (name == hwy::TargetName(target)) {
      hwy::SetSupportedTargetsForTest(target);
      return true;
    }
  }
  return false;
}

}  // namespace opcts::cpu_simd
#endif  // HWY_ONCE
