// A fuzz finding as a test vector (conformance/vector_check.h's FindingVector): its `expected` is
// the reference's answer, never the backend's, or the rejection an invalid case is due.
//
//   TestVector v = FuzzFinding(prepared, input, "cpu-simd: Fail: ...");  // "fuzz.<op>.<hash>"
#pragma once

#include <string>

#include "conformance/case_run.h"
#include "conformance/vector_check.h"

namespace opcts {

// 8 hex digits of the input's hash: stable for the same input.
std::string InputHash(const std::string& input);

// "fuzz.<operator key>.<InputHash>".
std::string FindingName(const OperatorSpec& spec, const std::string& input);

// The case of `prepared`, decoded from `input`, as a vector named FindingName: expected the
// reference's answer, or a must-reject vector when the case is invalid.
TestVector FuzzFinding(PreparedCase& prepared, const std::string& input, const std::string& source);

}  // namespace opcts
