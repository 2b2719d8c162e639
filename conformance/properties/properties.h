// The properties, each the body of one rapidcheck property run against one backend and one
// operator: it draws a case from the spec-built generators, runs it, and RC_FAILs with the opcts
// case id when the property does not hold.
//
//   rc::check([&] { ExclusiveIsShiftedInclusive(backend, spec); });
#pragma once

#include "conformance/properties/property_support.h"

namespace opcts {

// Any valid case of the operator: Pass or QualityWarning by the reference's accuracy model
// (NotSupported is also fine when the backend does not claim the case's level).
void MatchesReference(const Backend& backend, const OperatorSpec& spec);

// Scans (IsScanFamily): the exclusive scan is the inclusive one shifted by one along the axis,
// the identity first.
void ExclusiveIsShiftedInclusive(const Backend& backend, const OperatorSpec& spec);
// Scans: the reverse scan is flip ∘ forward scan ∘ flip.
void ReverseIsFlippedForward(const Backend& backend, const OperatorSpec& spec);
// Scans: the last inclusive result in scan order is the line's total (sum or product).
void LastInclusiveIsTotal(const Backend& backend, const OperatorSpec& spec);
// Product scans (IsProductScan): every scan of an all-ones tensor is all ones.
void ProductOfOnesIsOnes(const Backend& backend, const OperatorSpec& spec);
// Scatters (IsScatterFamily), distinct targets, plain writes (reduction none): scattering the
// updates again onto the first scatter's output leaves it unchanged.
void ScatterIsIdempotent(const Backend& backend, const OperatorSpec& spec);

}  // namespace opcts
