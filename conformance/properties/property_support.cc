#include "conformance/properties/property_support.h"

#include <rapidcheck.h>

#include "conformance/constraints.h"

namespace opcts {

Backend PluginBackend(const Plugin& plugin) {
  return {plugin.info().name, ClaimsOf(plugin), [&plugin](PreparedCase& prepared, CaseGroup group) {
            return RunCase(plugin, prepared, group, {.keep_outputs = true});
          }};
}

const SpecSet& LoadedSpecs() {
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  return specs;
}

Operation MaterializeValid(const CaseRecipe& recipe) {
  Operation op = Materialize(recipe);
  const std::vector<Violation> violations = FindViolations(op, /*with_data=*/true);
  if (!violations.empty())
    RC_FAIL("generator bug: case " + recipe.id + " breaks " + violations[0].constraint + ": " +
            violations[0].message);
  if (recipe.level.empty()) RC_FAIL("generator bug: no support level admits case " + recipe.id);
  return op;
}

CaseRun RunOnBackend(const Backend& backend, const CaseRecipe& recipe, Operation op) {
  PreparedCase prepared(std::move(op));
  const ReferenceResult& expected = prepared.expected();
  if (expected.invalid)
    RC_FAIL("generator bug: the reference calls case " + recipe.id +
            " invalid: " + *expected.invalid);
  CaseRun run;
  run.claimed = Claims(backend.claims, *recipe.spec, recipe.level);
  run.verdict = backend.run(prepared, run.claimed ? CaseGroup::kValid : CaseGroup::kUnclaimed);
  run.op = prepared.op();
  run.expected = expected;
  return run;
}

const TensorData& ExecutedOutput(const Backend& backend, const CaseRecipe& recipe,
                                 const CaseRun& run, const std::string& output) {
  const CaseOutcome& outcome = run.verdict.outcome;
  const auto it = outcome.outputs.find(output);
  if (it != outcome.outputs.end()) return it->second;
  if (!run.claimed && outcome.status == Status::kNotSupported)
    RC_DISCARD("unclaimed and declined: " + recipe.id);
  RC_FAIL(FailureText(backend, recipe,
                      std::string(StatusName(outcome.status)) + ": " + outcome.message));
}

const ExpectedTensor& ExpectedOutput(const CaseRun& run, const std::string& output) {
  for (const ExpectedTensor& e : run.expected.outputs)
    if (e.name == output) return e;
  RC_FAIL("the reference has no output " + output);
}

std::string FailureText(const Backend& backend, const CaseRecipe& recipe, const std::string& what) {
  return "case " + recipe.id + " (level " + recipe.level + ") on " + backend.name + ": " + what +
         "\n  (rerun one case with `opcts repro --backend " + backend.name +
         " <id>`, for the case rapidcheck"
         " shrank to too; the whole property with the RC_PARAMS=\"reproduce=...\" it prints at "
         "exit)";
}

}  // namespace opcts
