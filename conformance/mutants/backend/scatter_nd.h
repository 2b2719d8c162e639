// ScatterND, DirectML's and ONNX's: the output is the input, then each index tuple's slice of
// updates is written (or combined, by the reduction) at the position the tuple names. Negative
// coordinates (signed index types) count from the end of their dimension; a tuple with a
// coordinate out of range is skipped, so nothing is written outside the output. Duplicate
// tuples: the last one in index order wins; a reduction combines each element with all its
// updates in index order (floats in double, rounded once; integers modulo 2^n).
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "common/family_views.h"
#include "opcts/backend.h"

namespace opcts::mutant {

struct ScatterArgs {
  const opcts_tensor_desc *input, *indices, *updates, *output;
  uint32_t input_dims;    // the input's meaningful trailing dimensions (ONNX: its rank)
  uint32_t indices_dims;  // the indices' meaningful trailing dimensions (ONNX: their rank)
  plugin::ScatterReduction reduction;
};

// The descriptor and bindings have been checked. `input` may be a copy of the output's buffer
// (in place). An internal error when the shapes do not fit after all.
Result<void> RunScatterND(const ScatterArgs& desc, const uint8_t* input, const uint8_t* indices,
                          const uint8_t* updates, uint8_t* output);

}  // namespace opcts::mutant
