// An ABI operation run by torch: the descriptor's tensors as views over the bindings
// (tensor_view.h), then the family's torch recipe (scan.h, scatter_nd.h).
#pragma once

#include "base/result.h"
#include "opcts/backend.h"

namespace opcts::torch_cpu {

// For a descriptor query accepted and bindings CheckBindings accepted. kInvalidInput for a scan
// axis input out of range and for ScatterND index data torch finds out of range (its message):
// the one refusal the ABI allows after query OK. Any other c10::Error torch throws escapes.
Result<void> ExecuteWithTorch(const opcts_op_desc& op, const opcts_binding* bindings);

}  // namespace opcts::torch_cpu
