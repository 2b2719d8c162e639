// The one case pipeline: every command (run and its workers, repro, vectors, fuzz, properties,
// bench, mutants through run) takes a case through it, so they judge alike:
//   the backend's claims decide the case's group → the reference's expectation → ExecuteCase
//   (guarded buffers, judged by the accuracy model) → acceptable or not, by the gate's rule
//   (reports/status.h IsGateFailure), decided nowhere else.
//
//   PreparedCase prepared(recipe);
//   for (const Plugin* p : plugins) {   // the reference runs once, for the first that needs it
//     const CaseVerdict v = RunCase(*p, prepared, GroupFor(recipe, ClaimsOf(*p)));
//     if (!v.acceptable) ...
//   }
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/case_executor.h"
#include "conformance/vector_file.h"
#include "reference/reference.h"
#include "reports/status.h"

namespace opcts {

// What a backend claims: its DirectML feature level ("5_0") and extra support words.
struct BackendClaims {
  std::string feature_level;
  std::vector<std::string> extra_support;
};
BackendClaims ClaimsOf(const Plugin& plugin);
// Whether the claims cover a case at `level` of `spec` ("" is no level: never covered).
bool Claims(const BackendClaims& claims, const OperatorSpec& spec, const std::string& level);
// A generated case on a backend: invalid, valid (within the claims) or unclaimed.
CaseGroup GroupFor(const CaseRecipe& recipe, const BackendClaims& claims);

// One operation ready to run on any number of backends. The reference's answer (with a test
// vector's tolerance applied) is computed the first time a backend needs it, then shared.
class PreparedCase {
 public:
  // A generated case: Materialize(recipe), and its defect below the Operation if it has one.
  explicit PreparedCase(const CaseRecipe& recipe);
  explicit PreparedCase(Operation op, std::optional<Tolerance> tolerance = std::nullopt);
  const Operation& op() const { return op_; }
  AbiFault abi_fault() const { return abi_fault_; }
  const ReferenceResult& expected();
  // For an operation no generator made (a vector, a fuzz input): why it must be rejected, the
  // first spec rule it breaks (its data included), else the reference's reason; nullopt when valid.
  const std::optional<std::string>& invalid_reason();

 private:
  Operation op_;
  AbiFault abi_fault_ = AbiFault::kNone;
  std::optional<Tolerance> tolerance_;
  std::optional<ReferenceResult> expected_;
  std::optional<std::optional<std::string>> invalid_reason_;
};

struct CaseVerdict {
  CaseGroup group = CaseGroup::kValid;
  CaseOutcome outcome;
  bool acceptable = false;  // not a gate failure (with `strict`, QualityWarning is one)
};

struct RunCaseOptions {
  bool strict = false;        // QualityWarning is not acceptable
  bool keep_outputs = false;  // CaseOutcome::outputs filled (repro, properties)
  FloatRules float_rules = FloatRules::kPlatform;  // --float-rules
};

// Runs the case on `plugin` as a case of `group`: the reference is asked unless the case is
// invalid (nothing is judged then; it must be rejected).
CaseVerdict RunCase(const Plugin& plugin, PreparedCase& prepared, CaseGroup group,
                    const RunCaseOptions& options = {});

// The group of an operation no generator made (a test vector, a fuzz input) on a backend with
// `claims`: invalid when it has an invalid_reason(); otherwise valid when the claims cover the
// lowest level admitting it, else unclaimed.
CaseGroup GroupOfOperation(PreparedCase& prepared, const BackendClaims& claims);

// A test vector on a backend, grouped as GroupOfOperation says (its `reject` is checked against
// the rules by CheckVectorAgainstReference, not trusted here): invalid when it breaks a rule,
// otherwise judged against the reference with the vector's tolerance, as a valid case when the
// backend claims the lowest level admitting it, else unclaimed (a refusal or a right answer).
CaseVerdict RunVector(const Plugin& plugin, const TestVector& vector,
                      const RunCaseOptions& options = {});

}  // namespace opcts
