// What one element of a ScatterND output may hold, given its original value and the update
// values the index tuples write to it, under each reduction of ONNX ScatterND (DirectML's
// SCATTER_ND is `kNone`).
//
//   std::vector<std::vector<uint64_t>> candidates;
//   ExpectedElement e = ScatteredElement(DType::kInt32, ScatterReduction::kAdd, 5, {3, 4},
//   candidates);
//   // e.kind == Expect::kBits, e.bits == 12
#pragma once

#include <cstdint>
#include <vector>

#include "reference/reference.h"

namespace opcts {

// The values of ONNX's `reduction` attribute, in the spec's enum order (value i is i).
enum class ScatterReduction { kNone, kAdd, kMul, kMax, kMin };

// `written` holds the update bit patterns in index-tuple order; the expectation never depends on
// that order (the pages leave the iteration order unspecified). A kAnyOf set is appended to
// `candidates` and indexed by the element's `bits`.
ExpectedElement ScatteredElement(DType t, ScatterReduction reduction, uint64_t original,
                                 const std::vector<uint64_t>& written,
                                 std::vector<std::vector<uint64_t>>& candidates);

// The element a sequential loop over `written`, in order, leaves: output = f(output, update),
// each step rounded once to `t`. What a backend that skips out-of-range tuples writes.
uint64_t SequentialScatter(DType t, ScatterReduction reduction, uint64_t original,
                           const std::vector<uint64_t>& written);

}  // namespace opcts
