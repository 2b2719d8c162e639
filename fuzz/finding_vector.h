// A fuzz finding's name. The finding itself is written as a test vector by FindingVector
// (conformance/vector_check.h): its `expected` is the reference's answer, never the backend's.
//
//   TestVector v = FindingVector(op, expected, FindingName(spec, input), "cpu-simd: Fail: ...");
#pragma once

#include <string>

#include "conformance/vector_check.h"

namespace opcts {

// "fuzz.<operator key>.<8 hex digits of the input's hash>": stable for the same input.
std::string FindingName(const OperatorSpec& spec, const std::string& input);

}  // namespace opcts
