#include "conformance/case_run.h"

#include <algorithm>

#include "conformance/constraints.h"
#include "conformance/vector_check.h"
#include "spec/spec_loader.h"

namespace opcts {

BackendClaims ClaimsOf(const Plugin& plugin) {
  return {plugin.FeatureLevel(), plugin.ExtraSupport()};
}

bool Claims(const BackendClaims& claims, const OperatorSpec& spec, const std::string& level) {
  if (level.empty()) return false;
  if (spec.scheme != LevelScheme::kDirectML) {
    // "onnx.opset14" claims every ONNX level up to opset14, as a feature level does.
    const std::string prefix = std::string(SchemeName(spec.scheme)) + ".";
    const int wanted = LevelIndex(spec.scheme, level);
    return wanted >= 0 &&
           std::any_of(claims.extra_support.begin(), claims.extra_support.end(),
                       [&](const std::string& claim) {
                         return claim.rfind(prefix, 0) == 0 &&
                                LevelIndex(spec.scheme, claim.substr(prefix.size())) >= wanted;
                       });
  }
  const int claimed = LevelIndex(LevelScheme::kDirectML, claims.feature_level);
  return claimed >= 0 && LevelIndex(LevelScheme::kDirectML, level) <= claimed;
}

CaseGroup GroupFor(const CaseRecipe& recipe, const BackendClaims& claims) {
  if (recipe.group == CaseGroup::kInvalid) return CaseGroup::kInvalid;
  return Claims(claims, *recipe.spec, recipe.level) ? CaseGroup::kValid : CaseGroup::kUnclaimed;
}

PreparedCase::PreparedCase(const CaseRecipe& recipe)
    : op_(Materialize(recipe)), abi_fault_(recipe.abi_fault) {}

PreparedCase::PreparedCase(Operation op, std::optional<Tolerance> tolerance)
    : op_(std::move(op)), tolerance_(tolerance) {}

const ReferenceResult& PreparedCase::expected() {
  if (!expected_) {
    expected_ = (*FindReferenceKernel(op_.spec->reference))(op_);
    if (tolerance_)
      for (ExpectedTensor& e : expected_->outputs) ApplyTolerance(*tolerance_, e);
  }
  return *expected_;
}

const std::optional<std::string>& PreparedCase::invalid_reason() {
  if (!invalid_reason_) {
    // The reference is asked only about operations that break no rule: it may assume them.
    if (const auto violations = FindViolations(op_, /*with_data=*/true); !violations.empty())
      invalid_reason_ = violations.front().constraint + ": " + violations.front().message;
    else
      invalid_reason_ = expected().invalid;
  }
  return *invalid_reason_;
}

CaseVerdict RunCase(const Plugin& plugin, PreparedCase& prepared, CaseGroup group,
                    const RunCaseOptions& options) {
  const ReferenceResult* expected = group == CaseGroup::kInvalid ? nullptr : &prepared.expected();
  CaseVerdict v;
  v.group = group;
  v.outcome = ExecuteCase(plugin, prepared.op(), group, expected, options.float_rules,
                          options.keep_outputs, prepared.abi_fault());
  v.acceptable = !IsGateFailure(v.outcome.status, options.strict);
  return v;
}

CaseGroup GroupOfOperation(PreparedCase& prepared, const BackendClaims& claims) {
  if (prepared.invalid_reason()) return CaseGroup::kInvalid;
  const std::string level = LowestSupportingLevel(prepared.op()).value_or("");
  return Claims(claims, *prepared.op().spec, level) ? CaseGroup::kValid : CaseGroup::kUnclaimed;
}

CaseVerdict RunVector(const Plugin& plugin, const TestVector& vector,
                      const RunCaseOptions& options) {
  PreparedCase prepared(vector.op, vector.tolerance);
  return RunCase(plugin, prepared, GroupOfOperation(prepared, ClaimsOf(plugin)), options);
}

}  // namespace opcts
