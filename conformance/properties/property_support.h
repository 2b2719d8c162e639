// What every property needs around one case: the backend under test (a loaded plugin, or a
// deliberately wrong stand-in in the tests of the properties), materializing a generated case
// and proving it valid, the case pipeline (conformance/case_run.h) with the outputs kept, and
// failure messages that carry the opcts case id. Functions here RC_FAIL / RC_DISCARD: call them
// in a property.
//
//   const Backend backend = PluginBackend(*plugin);
//   const CaseRun run = RunOnBackend(backend, recipe, MaterializeValid(recipe));
//   const TensorData& out = ExecutedOutput(backend, recipe, run, "OutputTensor");
#pragma once

#include <functional>
#include <string>

#include "conformance/case.h"
#include "conformance/case_run.h"
#include "conformance/spec_set.h"

namespace opcts {

struct Backend {
  std::string name;
  BackendClaims claims;
  // The pipeline's RunCase with the outputs kept (a stand-in may alter what it returns).
  std::function<CaseVerdict(PreparedCase&, CaseGroup)> run;
};

// The plugin must outlive the Backend.
Backend PluginBackend(const Plugin& plugin);

// The shipped specs, loaded once (DefaultSpecDir()).
const SpecSet& LoadedSpecs();

struct CaseRun {
  Operation op;
  ReferenceResult expected;
  CaseVerdict verdict;
  bool claimed = false;
};

// Materialize(recipe), RC_FAILing if the generator made a case that breaks a spec rule or has no
// support level.
Operation MaterializeValid(const CaseRecipe& recipe);
// Asks the reference about `op` (the recipe's case, possibly with edited input data) and runs it
// on `backend` as a valid case if the backend claims the recipe's level, else as unclaimed.
CaseRun RunOnBackend(const Backend& backend, const CaseRecipe& recipe, Operation op);
// The named output as the backend left it. RC_DISCARDs an unclaimed case the backend declined;
// RC_FAILs when there is no output to check (refused within its claim, memory damage, ...).
const TensorData& ExecutedOutput(const Backend& backend, const CaseRecipe& recipe,
                                 const CaseRun& run, const std::string& output);
// The reference's expectation for the named output.
const ExpectedTensor& ExpectedOutput(const CaseRun& run, const std::string& output);

// "case <id> (level L) on <backend>: <what>" and how to reproduce it.
std::string FailureText(const Backend& backend, const CaseRecipe& recipe, const std::string& what);

}  // namespace opcts
