#include "fuzz/finding_vector.h"

#include <cmath>
#include <cstdio>

#include "conformance/case.h"
#include "conformance/case_generator.h"
#include "spec/element.h"

namespace opcts {

uint64_t ExpectedBits(DType t, const ExpectedTensor& tensor, const ExpectedElement& e) {
  switch (e.kind) {
    case Expect::kAnyOf:
      return tensor.candidates.at(e.bits).front();
    case Expect::kNaN:
      return DoubleToBits(t, NAN);
    case Expect::kNear:
      return DoubleToBits(t, static_cast<double>(e.value));
    case Expect::kBits:
    case Expect::kAny:
      break;
  }
  return e.bits;
}

TestVector FindingVector(const Operation& op, const ReferenceResult& expected,
                         const std::string& name, const std::string& source) {
  TestVector v;
  v.name = name;
  v.source = source;
  v.op = op;
  v.expect_reject = expected.invalid.has_value();
  if (v.expect_reject) return v;
  for (const ExpectedTensor& e : expected.outputs) {
    std::vector<uint64_t>& bits = v.expected[e.name];
    for (const ExpectedElement& element : e.elements)
      bits.push_back(ExpectedBits(e.desc.dtype, e, element));
  }
  return v;
}

std::string FindingName(const OperatorSpec& spec, const std::string& input) {
  char hash[9];
  std::snprintf(hash, sizeof hash, "%08llx",
                static_cast<unsigned long long>(StableHash(input) & 0xFFFFFFFFull));
  return "fuzz." + OperatorKey(spec) + "." + hash;
}

}  // namespace opcts
