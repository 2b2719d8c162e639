// Shrinking a failing case, as rapidcheck shrinks a counterexample: a greedy search, smallest
// step first, for a smaller case that still fails the same way (FailureKind). Cases are rebuilt
// through the property generators' choices (conformance/property_case.h), so every candidate is a
// case the generators could have made; candidates the backend's claims do not cover as they cover
// the original, or that break a spec rule, are never run. The moves, in order:
//   rank      dimensions dropped (the scanned axis kept; a scatter's grid and data dimensions)
//   elements  each dimension towards 1 as rapidcheck shrinks an integer (1, then half the
//             distance off, a quarter, ..., one less), the scanned axis and the index grid first
//   layout    packed tensors instead of padded, transposed, broadcast or in place
//   values    forward inclusive scans of the value class "ones"; unique in-range indices, no
//             reduction
//   data      each input element towards 0, 1 and smaller integers (cases of at most
//             kMaxValueShrinkElements data elements), indices and axis values untouched
// Each attempt is one run of the case pipeline (RunCase) on the backend, in this process, as
// `opcts repro` runs cases: a backend that crashes, hangs or throws on a candidate takes the
// search down with it. Cases that crashed, timed out or ran out of memory are therefore not
// searched, nor are invalid cases (InvalidAccepted): the generators build valid cases only
// (ShrinkRefusal). A candidate's data are drawn afresh for its shape by its value class, as
// rapidcheck regenerates from shrunk choices: a failure that needs a rare value (a signalling NaN
// among random bits) shrinks little.
//
//   ShrinkResult r = Shrink(plugin, recipe);   // ShrinkOptions: the time box, the attempts
//   if (r.Searched()) std::ofstream(file) << VectorToJson(r.vector).dump(1);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/case_run.h"
#include "conformance/plugin_loader.h"
#include "conformance/vector_file.h"

namespace opcts {

// The data elements (inputs other than indices and axis values) up to which the values move
// tries each element; above it, one attempt per element would spend the time box.
constexpr uint64_t kMaxValueShrinkElements = 64;

struct ShrinkOptions {
  double seconds = 5;       // time box; the search stops between attempts once it is spent
  int max_attempts = 2000;  // bound on the candidate runs
  RunCaseOptions run;       // float rules and strictness, as the failing run used them
};

// The size of a case: its main tensor's (the scanned input, the scatter's input).
struct CaseSize {
  std::vector<uint32_t> shape;
  uint64_t Elements() const;
  unsigned Rank() const { return static_cast<unsigned>(shape.size()); }
};

struct ShrinkStep {
  std::string change;  // "drop dimension 0 (size 2)", "InputTensor[0,3]: 0.7109375 -> 0"
  CaseSize size;       // after the change
};

struct ShrinkResult {
  CaseVerdict original;  // the case as given (outputs kept)
  std::string refused;   // why a failing case was not searched (ShrinkRefusal); empty otherwise
  // The smallest case found failing the same way (the original when no step succeeded), its
  // verdict (outputs kept) and the reference's answer. Set when Searched().
  Operation minimal;
  CaseVerdict minimal_verdict;
  ReferenceResult expected;
  CaseSize original_size, minimal_size;
  std::vector<ShrinkStep> steps;
  int attempts = 0;           // candidate runs (the original's run not counted)
  double seconds = 0;         // the whole search
  bool budget_spent = false;  // stopped by the time box or the attempt bound, not at a fixpoint
  // The minimal case as an opcts-vector/1 test vector, `expected` the reference's answer: its
  // repro is `opcts vectors --backend B FILE`.
  TestVector vector;

  bool Failed() const { return !original.acceptable; }
  bool Searched() const { return Failed() && refused.empty(); }
};

// How a failure is recognised while shrinking: the status and the reports' normalised cause
// (reports/failure_cause.h), e.g. "Fail: OutputTensor: wrong elements": a smaller case stays in
// the failure group of the original. The tensor named and the kind of fault (elements wrong,
// bytes outside the buffer, an input modified, a refusal and its reason) must stay;
// coordinates, values and counts change as the case shrinks.
std::string FailureKind(const CaseOutcome& outcome);

// Why a case that ended with `status` is not shrunk, or "": a Crash, Timeout or MemoryLimit (every
// attempt runs in this process, which such a backend would take down) and an invalid case (the
// generators rebuild valid cases only). A caller holding a status its workers saw (the runner)
// asks before calling Shrink; Shrink asks after its own run.
std::string ShrinkRefusal(const CaseRecipe& recipe, Status status);

// Runs `failing` on `plugin` (grouped by the plugin's claims) and, if it fails the gate, searches
// for the smallest case failing the same way. A passing case is run once and left alone.
ShrinkResult Shrink(const Plugin& plugin, const CaseRecipe& failing,
                    const ShrinkOptions& options = {});

}  // namespace opcts
