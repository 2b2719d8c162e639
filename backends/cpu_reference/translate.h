// Turns one ABI execute call (descriptor + bindings) into the oracle's Operation. Inputs are
// copied out of the bindings here, so an in-place output can be written afterwards without
// disturbing what the oracle read.
#pragma once

#include <string>

#include "opcts/backend.h"
#include "spec/operation.h"

namespace opcts::cpu_reference {

struct Translation {
  Operation operation;
  std::string output_name;  // as the spec names it: "OutputTensor", "output"
  opcts_binding output;     // where that output goes
};

// `op` and `bindings` must already have passed CheckDescriptor and CheckBindings.
Translation Translate(const opcts_op_desc& op, const opcts_binding* bindings);

}  // namespace opcts::cpu_reference
