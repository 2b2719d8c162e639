// A harness buffer as a torch tensor, without a copy: the way a framework adapter maps a strided
// DML tensor (DML_BUFFER_TENSOR_DESC) onto its own tensor type.
//
//   OPCTS_ASSIGN_OR_RETURN(at::Tensor input, TensorView(*desc, bindings[0]));
//   at::cumsum(input, axis, input.scalar_type());   // torch reads the harness's memory in place
#pragma once

#include <cstdint>

#include <ATen/core/Tensor.h>

#include "base/result.h"
#include "opcts/backend.h"

namespace opcts::torch_cpu {

// at::from_blob over `binding` with the desc's sizes and strides (both counted in elements, as
// torch counts them; 0 broadcasts, larger pads), keeping only the trailing `dimensions` of them
// (DML ScatterND ignores leading ones; 0 gives a scalar). The tensor does not own the memory
// and must not outlive the call. kNotSupported for a dtype torch has no tensors of.
Result<at::Tensor> TensorView(const opcts_tensor_desc& desc, const opcts_binding& binding,
                              uint32_t dimensions);

// Every dimension of the desc.
Result<at::Tensor> TensorView(const opcts_tensor_desc& desc, const opcts_binding& binding);

}  // namespace opcts::torch_cpu
