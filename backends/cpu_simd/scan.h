// Cumulative sum / product along one axis of a strided tensor, for every dtype: plans how to walk
// memory (row recurrence, in-register line scan, or a strided fallback), splits the work over
// threads and stays correct in place.
#pragma once

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

// The kernels' storage class of an OPCTS_DTYPE_* (signed integers use the unsigned kernels).
ElemKind KindOf(uint32_t data_type);

// Throws std::bad_alloc when memory runs out.
void RunScan(const ScanArgs& args);

}  // namespace opcts::cpu_simd
