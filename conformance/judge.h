// The accuracy model applied: compares a backend's output tensor with the oracle's expectation.
//
//   Judgement j = JudgeTensor(expected.outputs[0], actual_output);
//   if (j.verdict == Verdict::kFail) std::cout << j.message;
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reference/reference.h"
#include "spec/operator_spec.h"

namespace opcts {

enum class Verdict { kPass, kQualityWarning, kFail };

struct Judgement {
  Verdict verdict = Verdict::kPass;
  uint64_t mismatches = 0;      // elements beyond even the QualityWarning bound
  uint64_t first_mismatch = 0;  // logical index of the first of them
  std::string message;          // empty on Pass
  // Float outputs: the element with the largest error relative to its Pass bound, every wrong
  // element included; one wrong beyond measure (NaN, an infinity, a zero's sign, a special it
  // may not be) has an infinite error, so a Fail's error always exceeds its bound.
  std::optional<double> max_error, bound, ulp;
  // What some elements needed of the platform's float rules to pass: "flushes FLOAT32
  // subnormals", "truncates FLOAT32 arithmetic", both joined by " and "; empty if IEEE sufficed.
  std::string behaviour;
};

// `actual` is laid out as actual.desc says (strides honoured); only logical elements are read.
// An element that fails IEEE arithmetic passes where `platform_rules` (the spec's float_rules;
// empty: IEEE only) let its accumulator flush subnormals or truncate and that explains it.
Judgement JudgeTensor(const ExpectedTensor& expected, const TensorData& actual,
                      const std::vector<FloatRule>& platform_rules = {});

// Logical indices of the elements beyond even the QualityWarning bound, at most `limit`.
std::vector<uint64_t> MismatchingElements(const ExpectedTensor& expected, const TensorData& actual,
                                          size_t limit,
                                          const std::vector<FloatRule>& platform_rules = {});
// The expectation of one element for people: "18 ± 2.1e-06", "NaN", "one of {7,9}".
std::string FormatExpected(DType t, const ExpectedTensor& expected, const ExpectedElement& e);

// "[0,0,2,3]" for a logical index of `sizes`.
std::string FormatCoordinates(const std::vector<uint32_t>& sizes, uint64_t logical);
// An element for people: "18", "-0", "nan(0x7e01)", "1.5 (0x3e00)" for float16.
std::string FormatElement(DType t, uint64_t bits);

}  // namespace opcts
