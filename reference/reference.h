// The reference oracle's interface: what a correct output must look like, element by element.
//
// A kernel per operator (one file each in reference/) registers itself under the spec's
// `reference:` key. It returns, for each output tensor, one ExpectedElement per logical element
// (row-major): an exact bit pattern, a set of permitted patterns, or a value with the error
// bounds of the accuracy model (../shared/DESIGN.md).
//
//   const ReferenceKernel* kernel = FindReferenceKernel(spec.reference);
//   ReferenceResult expected = (*kernel)(operation);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/operation.h"

namespace opcts {

enum class Expect : uint8_t {
  kBits,   // exactly `bits` (integers, data movement, exact zeros and infinities), or a special
  kAnyOf,  // any pattern in candidates[bits] (overlapping scatter indices)
  kNear,   // a float within the tier's bound of `value`, or a special
  kNaN,    // any NaN
  kAny,    // unconstrained (signed overflow): memory safety only; `bits` still holds a
           // plausible value (the wrapped result) for a backend to emit
};

// IEEE outcomes that some evaluation order reaches besides `bits` / the value within the bound
// (an accumulator overflowing, a product underflowing to zero): each is acceptable as it is.
enum FloatSpecial : uint8_t {
  kPosInf = 1,
  kNegInf = 2,
  kAnyNaN = 4,
  kPosZero = 8,
  kNegZero = 16,
  kAnyFinite = 32,       // a truncating platform saturates an overflowing partial result instead
  kZeroEitherSign = 64,  // a zero within the bound may have either sign (a flushed partial)
};

struct ExpectedElement {
  Expect kind = Expect::kAny;
  // kNear: the sign a zero within the bound must have; with `sign_exact` the sign of every
  // non-NaN result (a product's sign is the parity of its negative factors in every order).
  bool negative = false;
  bool sign_exact = false;
  // FloatSpecial bits reachable in each tier: Pass (accumulation at >= float32 precision),
  // QualityWarning (accumulation in the output type), and what the Pass tier adds under a
  // platform's float rules (spec `float_rules`) where its accumulator is float32.
  uint8_t pass_specials = 0, warn_specials = 0, flush_specials = 0, truncate_specials = 0;
  uint64_t bits = 0;
  long double value = 0;  // kNear: the exact-as-possible result
  // kNear: |actual - value| <= bound per tier; flushing float32 subnormals to signed zero and
  // truncating float32 results add their extras to the Pass bound.
  double pass_bound = 0, warn_bound = 0, flush_extra = 0, truncate_extra = 0;
};

struct ExpectedTensor {
  std::string name;
  TensorDesc desc;
  std::vector<ExpectedElement> elements;          // logical row-major order
  std::vector<std::vector<uint64_t>> candidates;  // kAnyOf sets
  // Sorted patterns any element may hold besides its own expectation: the values of
  // out-of-range ScatterND tuples' slices, which a backend may write anywhere. Empty: none.
  // (The initializer lets aggregate initializations leave it out.)
  std::vector<uint64_t> alternatives = {};
};

struct ReferenceResult {
  std::vector<ExpectedTensor> outputs;
  // Set when the operation is invalid in a way only the data shows (OpenVINO's axis value):
  // a backend must reject it. The message says why.
  std::optional<std::string> invalid;
  // Set when the data is valid but the spec lets a backend refuse it at execute with INVALID
  // (out-of-range ScatterND tuples). The message says why; each element's expectation is then
  // the output of a backend that skips the offending data, and the tensor's `alternatives` what
  // else that data may have put there.
  std::optional<std::string> refusable;
};

using ReferenceKernel = ReferenceResult (*)(const Operation&);

// Registration happens in each kernel's file through a static ReferenceRegistration object;
// the reference library is linked as an object library so none is dropped.
const ReferenceKernel* FindReferenceKernel(const std::string& key);

struct ReferenceRegistration {
  ReferenceRegistration(const char* key, ReferenceKernel kernel);
};

}  // namespace opcts
