#include "conformance/vector_check.h"

#include <cmath>

#include "conformance/case_run.h"
#include "conformance/constraints.h"
#include "conformance/judge.h"
#include "spec/element.h"

namespace opcts {

void ApplyTolerance(const Tolerance& tolerance, ExpectedTensor& expected) {
  for (ExpectedElement& e : expected.elements) {
    if (e.kind != Expect::kNear) continue;
    e.pass_bound = e.warn_bound =
        tolerance.abs + tolerance.rel * static_cast<double>(std::fabs(e.value));
  }
}

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

VectorCheck CheckVectorAgainstReference(const TestVector& vector, FloatRules float_rules) {
  const Operation& op = vector.op;
  if (!FindReferenceKernel(op.spec->reference))
    return {false, "no reference kernel '" + op.spec->reference + "'"};
  // The rule `opcts run` applies: what must be rejected is what breaks a rule (its data
  // included); anything else is judged against the reference, in a support table or not.
  PreparedCase prepared(op, vector.tolerance);
  const std::optional<std::string>& invalid = prepared.invalid_reason();
  const auto level = LowestSupportingLevel(op);
  if (vector.expect_reject) {
    if (invalid) return {true, "rejected: " + *invalid};
    if (!level)
      return {false,
              "expects rejection, but the operation breaks no rule: outside every support table a "
              "backend may refuse it or compute it, and what it computes must be right (as opcts "
              "run judges it); give the expected outputs instead"};
    return {false, "expects rejection, but the operation is valid at level " + *level};
  }
  if (invalid) return {false, "invalid operation: " + *invalid};

  std::string platform_behaviour;  // what only the platform's float rules allowed
  for (const ExpectedTensor& expected : prepared.expected().outputs) {
    // The vector lists logical elements: lay them out packed.
    TensorData actual = MakeTensor(PackedDesc(expected.desc.dtype, expected.desc.sizes));
    const std::vector<uint64_t>& bits = vector.expected.at(expected.name);
    for (uint64_t i = 0; i < bits.size(); ++i)
      StoreBits(actual.desc.dtype, actual.Element(i), bits[i]);
    const Judgement j = JudgeTensor(expected, actual, RulesFor(float_rules, *op.spec));
    if (j.verdict == Verdict::kFail) return {false, j.message};
    if (!j.behaviour.empty()) platform_behaviour = j.behaviour;
  }
  std::string message = level ? "valid at level " + *level : "valid, outside every support table";
  if (!platform_behaviour.empty())
    message += ", expected outputs valid only under the platform rules: " + platform_behaviour;
  return {true, message};
}

}  // namespace opcts
