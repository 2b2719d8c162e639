// Cumulative sum / product along one axis of a strided tensor, for every dtype: plans how to walk
// memory (row recurrence, in-register line scan, or a strided fallback), splits the work over
// threads and stays correct in place.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/plugin_support.h"
#include "cpu_simd/parallel.h"
#include "cpu_simd/scan_kernels.h"

namespace opcts::cpu_simd {

struct ScanArgs {
  const plugin::TensorLayout* in;
  const plugin::TensorLayout* out;  // same dtype and sizes as `in`
  const void* in_data;
  void* out_data;  // may alias in_data
  uint32_t axis;
  bool reverse;
  ScanType type;
  SimdTarget target;
  WorkPool* pool;
};

// Innermost lines at least this long are scanned by all threads together when there are too
// few lines to share out.
constexpr size_t kLongLine = size_t{1} << 16;
// A piece of such a line: small enough that it and the next one, reduced along while it is
// scanned, stay in a 1 MiB L2. 384 KiB pieces ran 1.01-1.03x as fast as 256 KiB ones on every
// dtype and target on Zen 5 (bench/results/line-piece-zen5-ab.md).
constexpr size_t kLinePieceBytes = size_t{384} << 10;

// The kernels' storage class of an OPCTS_DTYPE_* (signed integers use the unsigned kernels).
ElemKind KindOf(uint32_t data_type);

// Throws std::bad_alloc when memory runs out.
void RunScan(const ScanArgs& args);

}  // namespace opcts::cpu_simd
