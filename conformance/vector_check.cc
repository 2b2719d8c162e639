#include "conformance/vector_check.h"

#include <cmath>

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

VectorCheck CheckVectorAgainstReference(const TestVector& vector, FloatRules float_rules) {
  const Operation& op = vector.op;
  const std::vector<Violation> violations = FindViolations(op, /*with_data=*/true);
  const auto level = LowestSupportingLevel(op);
  if (vector.expect_reject) {
    if (!violations.empty())
      return {true, "rejected: " + violations[0].constraint + ": " + violations[0].message};
    if (!level) return {true, "rejected: outside every support table"};
    return {false, "expects rejection, but the operation is valid at level " + *level};
  }
  if (!violations.empty())
    return {false, "invalid operation: " + violations[0].constraint + ": " + violations[0].message};

  const ReferenceKernel* kernel = FindReferenceKernel(op.spec->reference);
  if (!kernel) return {false, "no reference kernel '" + op.spec->reference + "'"};
  ReferenceResult result = (*kernel)(op);
  if (result.invalid) return {false, "the reference rejects it: " + *result.invalid};
  std::string platform_behaviour;  // what only the platform's float rules allowed
  for (ExpectedTensor& expected : result.outputs) {
    if (vector.tolerance) ApplyTolerance(*vector.tolerance, expected);
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
