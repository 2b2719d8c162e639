// Makes the oracle's expectation concrete: one value per element, written into the output
// binding through the output's strides.
#pragma once

#include "base/result.h"
#include "opcts/backend.h"
#include "reference/reference.h"

namespace opcts::cpu_reference {

// Element choice: kBits -> bits; kAnyOf -> the first candidate; kNear -> the value rounded to the
// dtype; kNaN -> the dtype's canonical quiet NaN; kAny -> the plausible `bits` the oracle left.
// An internal error, writing nothing, when the expectation does not fit the binding (element
// count, or an element beyond size_in_bytes).
Result<void> WriteExpected(const ExpectedTensor& expected, const opcts_binding& output);

}  // namespace opcts::cpu_reference
