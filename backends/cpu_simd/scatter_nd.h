// The scatter family on strided tensors (DML SCATTER_ND, ONNX ScatterND): output = input, then
// each index tuple's slice of the output is overwritten by (or, with a reduction, combined with)
// the matching slice of updates. Element copies are bit-exact (memcpy).
// Negative indices of signed index types count from the end of their dimension; tuples still out
// of range are skipped, so nothing outside the output is ever written.
#pragma once

#include "common/family_views.h"
#include "cpu_simd/parallel.h"
#include "cpu_simd/simd_target.h"
#include "opcts/backend.h"

namespace opcts::cpu_simd {

// Whether this backend reads the index type (INT32, INT64, UINT32, UINT64).
bool IsSupportedIndexType(uint32_t data_type);

// The descriptor passed plugin::CheckDescriptor and `bindings` plugin::CheckBindings. Large
// packed outputs are shared out over the pool's threads (without a reduction). Throws
// std::bad_alloc when memory runs out.
void RunScatterND(const plugin::ScatterView& view, const opcts_binding* bindings, WorkPool& pool,
                  SimdTarget target);

}  // namespace opcts::cpu_simd
