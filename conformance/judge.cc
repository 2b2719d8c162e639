#include "conformance/judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "spec/element.h"
#include "spec/tensor.h"

namespace opcts {
namespace {

bool WithinTier(DType t, long double actual, const ExpectedElement& e, double bound,
                bool overflow_ok) {
  if (std::isnan(actual)) return overflow_ok;
  if (std::isinf(actual)) {
    if (overflow_ok) return true;
    // Rounding the exact value may overflow when it lies within the bound of the threshold.
    return std::signbit(actual) == std::signbit(e.value) &&
           std::fabs(e.value) + bound >= OverflowThreshold(t);
  }
  return std::fabs(actual - e.value) <= bound;
}

struct ElementResult {
  bool pass = false, warn = false;
};

ElementResult JudgeElement(DType t, const ExpectedTensor& expected, const ExpectedElement& e,
                           uint64_t bits) {
  if (std::binary_search(expected.alternatives.begin(), expected.alternatives.end(), bits))
    return {true};
  switch (e.kind) {
    case Expect::kAny:
      return {true};
    case Expect::kBits: {
      if (bits == e.bits) return {true};
      const long double a = BitsToLongDouble(t, bits);
      const bool special = std::isnan(a) || std::isinf(a);
      return {special && e.pass_overflow_ok, special && !e.pass_overflow_ok && e.warn_overflow_ok};
    }
    case Expect::kNaN:
      return {IsNaNBits(t, bits)};
    case Expect::kAnyOf: {
      const auto& set = expected.candidates[e.bits];
      return {std::find(set.begin(), set.end(), bits) != set.end()};
    }
    case Expect::kNear: {
      const long double a = BitsToLongDouble(t, bits);
      const bool pass = WithinTier(t, a, e, e.pass_bound, e.pass_overflow_ok);
      return {pass, !pass && WithinTier(t, a, e, e.warn_bound, e.warn_overflow_ok)};
    }
  }
  return {};
}

}  // namespace

std::string FormatExpected(DType t, const ExpectedTensor& expected, const ExpectedElement& e) {
  if (!expected.alternatives.empty()) {
    ExpectedTensor primary;  // the element's own expectation, without the alternatives
    primary.candidates = expected.candidates;
    const std::vector<uint64_t>& set = expected.alternatives;
    std::string s = FormatExpected(t, primary, e) + " or a value of an out-of-range tuple {";
    for (size_t i = 0; i < std::min<size_t>(set.size(), 8); ++i)
      s += FormatElement(t, set[i]) + ",";
    if (set.size() > 8) s += "... " + std::to_string(set.size() - 8) + " more,";
    s.back() = '}';
    return s;
  }
  char buffer[128];
  switch (e.kind) {
    case Expect::kBits:
      return FormatElement(t, e.bits);
    case Expect::kNaN:
      return "NaN";
    case Expect::kAny:
      return "anything";
    case Expect::kNear:
      std::snprintf(buffer, sizeof buffer, "%.17Lg ± %.3g", e.value, e.pass_bound);
      return buffer;
    case Expect::kAnyOf: {
      std::string s = "one of {";
      for (uint64_t bits : expected.candidates[e.bits]) s += FormatElement(t, bits) + ",";
      s.back() = '}';
      return s;
    }
  }
  return "?";
}

std::vector<uint64_t> MismatchingElements(const ExpectedTensor& expected, const TensorData& actual,
                                          size_t limit) {
  std::vector<uint64_t> bad;
  const StridedIndexer indexer(actual.desc);
  for (uint64_t i = 0; i < expected.elements.size() && bad.size() < limit; ++i) {
    const uint64_t bits = LoadBits(actual.desc.dtype, actual.Element(indexer.BufferIndex(i)));
    const ElementResult r = JudgeElement(actual.desc.dtype, expected, expected.elements[i], bits);
    if (!r.pass && !r.warn) bad.push_back(i);
  }
  return bad;
}

std::string FormatCoordinates(const std::vector<uint32_t>& sizes, uint64_t logical) {
  std::vector<uint32_t> coords(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    coords[d] = static_cast<uint32_t>(logical % sizes[d]);
    logical /= sizes[d];
  }
  return FormatList(coords);
}

std::string FormatElement(DType t, uint64_t bits) {
  char buffer[96];
  if (!IsFloat(t)) {
    if (IsSignedInt(t)) return std::to_string(BitsToInt64(t, bits));
    return std::to_string(bits);
  }
  const long double v = BitsToLongDouble(t, bits);
  const int hex_digits = static_cast<int>(DTypeSize(t) * 2);
  if (std::isnan(v))
    std::snprintf(buffer, sizeof buffer, "nan(0x%0*llx)", hex_digits,
                  static_cast<unsigned long long>(bits));
  else
    std::snprintf(buffer, sizeof buffer, "%.17Lg (0x%0*llx)", v, hex_digits,
                  static_cast<unsigned long long>(bits));
  return buffer;
}

Judgement JudgeTensor(const ExpectedTensor& expected, const TensorData& actual) {
  Judgement j;
  const DType t = actual.desc.dtype;
  const StridedIndexer indexer(actual.desc);
  bool any_warning = false;
  long double worst_ratio = -1;
  for (uint64_t i = 0; i < expected.elements.size(); ++i) {
    const ExpectedElement& e = expected.elements[i];
    const uint64_t bits = LoadBits(t, actual.Element(indexer.BufferIndex(i)));
    const auto [pass, warn] = JudgeElement(t, expected, e, bits);
    if (e.kind == Expect::kNear) {
      const long double a = BitsToLongDouble(t, bits);
      if (std::isfinite(a)) {
        const long double error = std::fabs(a - e.value);
        const long double ratio =
            e.pass_bound > 0 ? error / e.pass_bound : (error > 0 ? INFINITY : 0);
        if (ratio > worst_ratio) {
          worst_ratio = ratio;
          j.max_error = static_cast<double>(error);
          j.bound = e.pass_bound;
          j.ulp = static_cast<double>(error / UlpAt(t, e.value));
        }
      }
    }
    if (warn) any_warning = true;
    if (pass || warn) continue;
    if (j.mismatches++ == 0) {
      j.first_mismatch = i;
      j.message = "element " + FormatCoordinates(expected.desc.sizes, i) + ": expected " +
                  FormatExpected(t, expected, e) + ", got " + FormatElement(t, bits);
    }
  }
  if (j.mismatches > 0) {
    j.verdict = Verdict::kFail;
    j.message = expected.name + ": " + std::to_string(j.mismatches) + " of " +
                std::to_string(expected.elements.size()) + " elements wrong; first " + j.message;
  } else if (any_warning) {
    j.verdict = Verdict::kQualityWarning;
    j.message = expected.name +
                ": within the bound for accumulation in the output type only (expected at "
                "least float32 accumulation)";
  }
  return j;
}

}  // namespace opcts
