// A fuzz finding as an opcts-vector/1 test vector: the operation and its inputs, and as
// `expected` the reference's answer (never the backend's), so the vector stays a correct test
// after the bug is fixed and `opcts vectors` accepts it.
//
//   TestVector v = FindingVector(op, expected, "fuzz.dml_scatter_nd.1a2b3c4d", "cpu-simd: Fail:
//   ..."); std::cout << VectorToJson(v).dump(1);
#pragma once

#include <string>

#include "conformance/vector_file.h"
#include "reference/reference.h"

namespace opcts {

// One bit pattern the expectation admits: the exact bits, the first permitted candidate, a quiet
// NaN, or the expected value rounded to the output type.
uint64_t ExpectedBits(DType t, const ExpectedTensor& tensor, const ExpectedElement& e);

TestVector FindingVector(const Operation& op, const ReferenceResult& expected,
                         const std::string& name, const std::string& source);

// "fuzz.<operator key>.<8 hex digits of the input's hash>": stable for the same input.
std::string FindingName(const OperatorSpec& spec, const std::string& input);

}  // namespace opcts
