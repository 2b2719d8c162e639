#include "conformance/properties/property_support.h"

#include <rapidcheck.h>

#include "conformance/constraints.h"
#include "conformance/runner.h"

namespace opcts {

Backend PluginBackend(const Plugin& plugin) {
  return {plugin.info().name,
          [&plugin](const OperatorSpec& spec, const std::string& level) { return Claims(plugin, spec, level); },
          [&plugin](const Operation& op, CaseGroup group, const ReferenceResult& expected) {
            return ExecuteCase(plugin, op, group, &expected, /*keep_outputs=*/true);
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
    RC_FAIL("generator bug: case " + recipe.id + " breaks " + violations[0].constraint + ": " + violations[0].message);
  if (recipe.level.empty()) RC_FAIL("generator bug: no support level admits case " + recipe.id);
  return op;
}

CaseRun RunCase(const Backend& backend, const CaseRecipe& recipe, Operation op) {
  CaseRun run;
  run.op = std::move(op);
  run.expected = (*FindReferenceKernel(recipe.spec->reference))(run.op);
  if (run.expected.invalid) RC_FAIL("generator bug: the reference calls case " + recipe.id + " invalid: " + *run.expected.invalid);
  run.claimed = backend.claims(*recipe.spec, recipe.level);
  run.outcome = backend.execute(run.op, run.claimed ? CaseGroup::kValid : CaseGroup::kUnclaimed, run.expected);
  return run;
}

const TensorData& ExecutedOutput(const Backend& backend, const CaseRecipe& recipe, const CaseRun& run,
                                 const std::string& output) {
  const auto it = run.outcome.outputs.find(output);
  if (it != run.outcome.outputs.end()) return it->second;
  if (!run.claimed && run.outcome.status == "NotSupported") RC_DISCARD("unclaimed and declined: " + recipe.id);
  RC_FAIL(FailureText(backend, recipe, run.outcome.status + ": " + run.outcome.message));
}

const ExpectedTensor& ExpectedOutput(const CaseRun& run, const std::string& output) {
  for (const ExpectedTensor& e : run.expected.outputs)
    if (e.name == output) return e;
  RC_FAIL("the reference has no output " + output);
}

std::string FailureText(const Backend& backend, const CaseRecipe& recipe, const std::string& what) {
  return "case " + recipe.id + " (level " + recipe.level + ") on " + backend.name + ": " + what +
         "\n  (rapidcheck reports the case it shrank to; to rerun exactly it, run this test alone"
         " (--gtest_filter) with the RC_PARAMS=\"reproduce=...\" that rapidcheck prints at exit)";
}

}  // namespace opcts
