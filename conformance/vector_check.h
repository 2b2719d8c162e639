// Checks a test vector against the reference, by the rule `opcts run` judges cases with: a
// vector expecting rejection must break a spec rule (its data included); any other must break
// none, and its expected outputs must pass the accuracy model against the oracle, whether or not
// a support table admits it (outside every table a backend may refuse it, or must be right).
#pragma once

#include <string>

#include "conformance/float_rules.h"
#include "conformance/vector_file.h"
#include "reference/reference.h"

namespace opcts {

struct VectorCheck {
  bool ok = false;
  std::string message;  // why not ok, or what made a rejection expected
};

// `float_rules`: which rules judge the vector's float outputs (--float-rules).
VectorCheck CheckVectorAgainstReference(const TestVector& vector,
                                        FloatRules float_rules = FloatRules::kPlatform);

// The reference's expectation with the vector's tolerance override applied (every kNear bound
// becomes abs + rel * |value|).
void ApplyTolerance(const Tolerance& tolerance, ExpectedTensor& expected);

// One bit pattern the expectation admits: the exact bits, the first permitted candidate, a quiet
// NaN, or the expected value rounded to the output type.
uint64_t ExpectedBits(DType t, const ExpectedTensor& tensor, const ExpectedElement& e);

// A failing case (a fuzz finding, a shrunk case) as a test vector: the operation and its inputs,
// and as `expected` the reference's answer (never the backend's), so the vector stays a correct
// test after the bug is fixed and `opcts vectors` accepts it.
//
//   TestVector v = FindingVector(op, expected, "fuzz.dml_scatter_nd.1a2b3c4d", "cpu-simd: Fail:
//   ..."); std::cout << VectorToJson(v).dump(1);
TestVector FindingVector(const Operation& op, const ReferenceResult& expected,
                         const std::string& name, const std::string& source);

}  // namespace opcts
