// Metamorphic relations between a backend's own outputs: each checker returns the first element
// that breaks the relation, as a sentence, or nullopt.
//
// Outputs are compared with each other, never with the reference's value. Integers (and data
// movement) must agree exactly. Floats may differ by rounding, so two elements that the relation
// says hold the same mathematical value s must agree within bound_a + bound_b, the reference's
// accuracy bounds at those two elements (the larger, QualityWarning, tier): any two outputs that
// meet the accuracy model satisfy |a - b| <= |a - s| + |s - b| <= bound_a + bound_b, so a
// mismatch is a real defect, and the check does not trust the oracle's value, only its bounds.
// Elements the reference leaves unconstrained (kAny: signed overflow) are skipped.
//
//   ObservedOutput inc{inclusive_output, expected_inclusive}, exc{...};
//   if (auto why = CheckExclusiveIsShiftedInclusive(inc, exc, axis, reverse, 0)) RC_FAIL(*why);
#pragma once

#include <optional>
#include <string>

#include "reference/reference.h"

namespace opcts {

struct ObservedOutput {
  const TensorData& actual;        // as the backend left it (strides honoured)
  const ExpectedTensor& expected;  // the reference's expectation: kinds and bounds are used
};

// exclusive[k] == inclusive[k - 1] along the axis (k + 1 when reverse), and the first element
// in scan order is the identity (0 for sums, 1 for products).
std::optional<std::string> CheckExclusiveIsShiftedInclusive(const ObservedOutput& inclusive,
                                                            const ObservedOutput& exclusive,
                                                            unsigned axis, bool reverse,
                                                            long double identity);

// reverse_scan(x)[k] == forward_scan(flip(x))[n - 1 - k] along the axis.
std::optional<std::string> CheckReverseIsFlippedForward(const ObservedOutput& reverse,
                                                        const ObservedOutput& forward_of_flipped,
                                                        unsigned axis);

// The last inclusive result in scan order equals the line's total (sum or product) computed here
// from the input: wrapped modulo 2^n for integers, in long double for floats (its own rounding,
// m * 2^-63 relative to the sum of magnitudes or the product, is added to the tolerance).
std::optional<std::string> CheckLastInclusiveIsTotal(const ObservedOutput& inclusive,
                                                     const TensorData& input, unsigned axis,
                                                     bool reverse, bool product);

// Every logical element is exactly 1.
std::optional<std::string> CheckAllOnes(const TensorData& output);

// The two tensors hold the same bits at every logical element (sizes and dtype equal).
std::optional<std::string> CheckSameBits(const TensorData& first, const TensorData& second);

// `t` with its logical elements reversed along `axis` (same desc; padding kept).
TensorData FlipAlongAxis(const TensorData& t, unsigned axis);
// Copies the logical elements of `from` into `to`, each laid out by its own desc.
void CopyLogical(const TensorData& from, TensorData& to);

}  // namespace opcts
