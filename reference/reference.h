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
  kBits,   // exactly `bits` (integers, data movement, ±inf)
  kAnyOf,  // any pattern in candidates[bits] (overlapping scatter indices)
  kNear,   // a float within the bound of `value`
  kNaN,    // any NaN
  kAny,    // unconstrained (signed overflow): memory safety only; `bits` still holds a
           // plausible value (the wrapped result) for a backend to emit
};

struct ExpectedElement {
  Expect kind = Expect::kAny;
  uint64_t bits = 0;
  long double value = 0;  // kNear: the exact-as-possible result
  // kNear: |actual - value| <= pass_bound is Pass (accumulation at >= float32 precision);
  // <= warn_bound is QualityWarning (accumulation in the output type).
  double pass_bound = 0;
  double warn_bound = 0;
  // kNear, kBits: an intermediate result may overflow (or, for products, underflow to 0) in the
  // accumulator of that tier in some evaluation order, so ±inf or NaN are also acceptable
  // there: e.g. max + max + (-inf) is -inf exactly but NaN through float32.
  bool pass_overflow_ok = false;
  bool warn_overflow_ok = false;
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
