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

}  // namespace opcts
