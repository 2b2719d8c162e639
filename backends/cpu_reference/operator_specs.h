// The oracle's view of each ABI operator: a minimal OperatorSpec built in code, carrying exactly
// what the reference kernels read (names, the `reference:` key, parameter defaults, the
// negative-index level). The plugin cannot load spec/*.yaml at run time, so the names here
// must match those files letter for letter.
#pragma once

#include <cstdint>

#include "spec/operator_spec.h"

namespace opcts::cpu_reference {

// The spec for an OPCTS_OP_* value; nullptr for an unknown one.
const OperatorSpec* SpecFor(uint32_t op_type);

}  // namespace opcts::cpu_reference
