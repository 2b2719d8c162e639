// The oracle's view of each ABI operator: its spec, loaded from the text the operator table
// embeds (generated from spec/*.yaml), so the plugin needs no spec files at run time and no
// operator is described twice.
#pragma once

#include <cstdint>

#include "spec/operator_spec.h"

namespace opcts::cpu_reference {

// The spec for an OPCTS_OP_* value; nullptr for an unknown one.
const OperatorSpec* SpecFor(uint32_t op_type);

}  // namespace opcts::cpu_reference
