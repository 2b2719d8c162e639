#include "fuzz/replay.h"

#include "conformance/constraints.h"
#include "conformance/runner.h"
#include "conformance/vector_check.h"

namespace opcts {

bool IsAcceptableOutcome(const std::string& status, CaseGroup group, bool strict) {
  switch (group) {
    case CaseGroup::kInvalid: return status == "InvalidRejected";
    case CaseGroup::kUnclaimed: if (status == "NotSupported") return true; [[fallthrough]];
    case CaseGroup::kValid: return status == "Pass" || (status == "QualityWarning" && !strict);
  }
  return false;
}

ReplayOutcome ReplayVector(const Plugin& plugin, const TestVector& vector) {
  const VectorCheck check = CheckVectorAgainstReference(vector);
  if (!check.ok) return {false, "BadVector", check.message};
  if (vector.expect_reject) {
    const CaseOutcome o = ExecuteCase(plugin, vector.op, CaseGroup::kInvalid, nullptr);
    return {IsAcceptableOutcome(o.status, CaseGroup::kInvalid), o.status, o.message};
  }
  ReferenceResult expected = (*FindReferenceKernel(vector.op.spec->reference))(vector.op);
  if (vector.tolerance)
    for (ExpectedTensor& e : expected.outputs) ApplyTolerance(*vector.tolerance, e);
  const auto level = LowestSupportingLevel(vector.op);
  const CaseGroup group = level && Claims(plugin, *vector.op.spec, *level) ? CaseGroup::kValid : CaseGroup::kUnclaimed;
  const CaseOutcome o = ExecuteCase(plugin, vector.op, group, &expected);
  return {IsAcceptableOutcome(o.status, group), o.status, o.message};
}

}  // namespace opcts
