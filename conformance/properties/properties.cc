#include "conformance/properties/properties.h"

#include <rapidcheck.h>

#include "conformance/properties/case_gen.h"
#include "conformance/properties/relations.h"

namespace opcts {
namespace {

// Relations need finite, non-overflowing values: specials are the reference's business.
constexpr ScanGenOptions kFinite{.specials = false, .values = std::nullopt};

struct ScanRun {
  CaseRecipe recipe;
  CaseRun run;
};

// Builds, runs and returns one variant of a drawn scan case; `edit` may change its input data.
template <typename Edit>
ScanRun RunScan(const Backend& backend, const ScanChoices& choices, Edit edit) {
  ScanRun r{BuildScanRecipe(choices), {}};
  Operation op = MaterializeValid(r.recipe);
  edit(op);
  r.run = RunOnBackend(backend, r.recipe, std::move(op));
  return r;
}
ScanRun RunScan(const Backend& backend, const ScanChoices& choices) {
  return RunScan(backend, choices, [](Operation&) {});
}

ObservedOutput Observe(const Backend& backend, const ScanRun& r) {
  const std::string& output = ScanOutputName(*r.recipe.spec);
  return {ExecutedOutput(backend, r.recipe, r.run, output), ExpectedOutput(r.run, output)};
}

}  // namespace

void MatchesReference(const Backend& backend, const OperatorSpec& spec) {
  const CaseRecipe recipe = *CaseGen(spec);
  const CaseRun run = RunOnBackend(backend, recipe, MaterializeValid(recipe));
  if (run.verdict.acceptable) return;
  RC_FAIL(FailureText(
      backend, recipe,
      std::string(StatusName(run.verdict.outcome.status)) + ": " + run.verdict.outcome.message));
}

void ExclusiveIsShiftedInclusive(const Backend& backend, const OperatorSpec& spec) {
  ScanChoices choices = *ScanChoicesGen(spec, kFinite);
  choices.exclusive = false;
  const ScanRun inclusive = RunScan(backend, choices);
  choices.exclusive = true;
  const ScanRun exclusive = RunScan(backend, choices);
  const long double identity = IsProductScan(spec) ? 1 : 0;
  if (const auto why =
          CheckExclusiveIsShiftedInclusive(Observe(backend, inclusive), Observe(backend, exclusive),
                                           choices.Axis(), choices.reverse, identity))
    RC_FAIL(
        FailureText(backend, exclusive.recipe, "not the inclusive scan shifted by one: " + *why));
}

void ReverseIsFlippedForward(const Backend& backend, const OperatorSpec& spec) {
  ScanChoices choices = *ScanChoicesGen(spec, kFinite);
  choices.reverse = true;
  const ScanRun reverse = RunScan(backend, choices);
  choices.reverse = false;
  const std::string& input = ScanInputName(spec);
  const ScanRun forward = RunScan(backend, choices, [&](Operation& op) {
    op.tensors[input] = FlipAlongAxis(op.tensors[input], choices.Axis());
  });
  if (const auto why = CheckReverseIsFlippedForward(Observe(backend, reverse),
                                                    Observe(backend, forward), choices.Axis()))
    RC_FAIL(FailureText(backend, reverse.recipe, "not flip ∘ forward scan ∘ flip: " + *why));
}

void LastInclusiveIsTotal(const Backend& backend, const OperatorSpec& spec) {
  ScanChoices choices = *ScanChoicesGen(spec, kFinite);
  choices.exclusive = false;
  const ScanRun r = RunScan(backend, choices);
  if (const auto why =
          CheckLastInclusiveIsTotal(Observe(backend, r), r.run.op.tensors.at(ScanInputName(spec)),
                                    choices.Axis(), choices.reverse, IsProductScan(spec)))
    RC_FAIL(FailureText(backend, r.recipe, "the last inclusive result is not the total: " + *why));
}

void ProductOfOnesIsOnes(const Backend& backend, const OperatorSpec& spec) {
  const ScanRun r =
      RunScan(backend, *ScanChoicesGen(spec, {.specials = false, .values = Values::kOnes}));
  if (const auto why = CheckAllOnes(Observe(backend, r).actual))
    RC_FAIL(FailureText(backend, r.recipe, "the product of ones is not all ones: " + *why));
}

void ScatterIsIdempotent(const Backend& backend, const OperatorSpec& spec) {
  const CaseRecipe recipe =
      BuildScatterRecipe(*ScatterChoicesGen(spec, {.unique_targets = true, .plain_writes = true}));
  const ScatterForm names = ScatterFormOf(spec);
  const CaseRun first = RunOnBackend(backend, recipe, MaterializeValid(recipe));
  const TensorData& once = ExecutedOutput(backend, recipe, first, names.output);
  // The second scatter starts from the first one's output: its targets already hold the updates.
  Operation again = MaterializeValid(recipe);
  CopyLogical(once, again.tensors.at(names.input));
  const CaseRun second = RunOnBackend(backend, recipe, std::move(again));
  if (const auto why = CheckSameBits(once, ExecutedOutput(backend, recipe, second, names.output)))
    RC_FAIL(FailureText(backend, recipe, "scattering onto its own output changed it: " + *why));
}

}  // namespace opcts
