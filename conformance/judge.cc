#include "conformance/judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "reference/accumulation.h"
#include "spec/element.h"
#include "spec/tensor.h"

namespace opcts {
namespace {

// One tier as the judge applies it: the bound and the reachable specials.
struct Tier {
  double bound = 0;
  uint8_t specials = 0;
};

bool WithinTier(DType t, uint64_t bits, const ExpectedElement& e, const Tier& tier) {
  const long double a = BitsToLongDouble(t, bits);
  if (std::isnan(a)) return tier.specials & kAnyNaN;
  const bool negative = std::signbit(a);
  if (e.sign_exact && negative != e.negative) return false;
  if (std::isinf(a)) {
    if (tier.specials & (negative ? kNegInf : kPosInf)) return true;
    // Rounding the exact value may overflow when it lies within the bound of the threshold.
    return e.kind == Expect::kNear && negative == std::signbit(e.value) &&
           std::fabs(e.value) + tier.bound >= OverflowThreshold(t);
  }
  if (tier.specials & kAnyFinite) return true;
  if (a == 0) {
    if (tier.specials & (negative ? kNegZero : kPosZero)) return true;
    if (negative != e.negative && !(tier.specials & kZeroEitherSign)) return false;
  }
  return e.kind == Expect::kNear && std::fabs(a - e.value) <= tier.bound;
}

// Platform behaviours an element needed (bits of Judgement::behaviour).
enum Behaviour : uint8_t { kFlushes = 1, kTruncates = 2 };

struct ElementResult {
  bool pass = false, warn = false;
  uint8_t behaviour = 0;
};

ElementResult JudgeElement(DType t, const ExpectedTensor& expected, const ExpectedElement& e,
                           uint64_t bits, const FloatRule* rule) {
  if (std::binary_search(expected.alternatives.begin(), expected.alternatives.end(), bits))
    return {true};
  switch (e.kind) {
    case Expect::kAny:
      return {true};
    case Expect::kNaN:
      return {IsNaNBits(t, bits)};
    case Expect::kAnyOf: {
      const auto& set = expected.candidates[e.bits];
      return {std::find(set.begin(), set.end(), bits) != set.end()};
    }
    case Expect::kBits:
      if (bits == e.bits) return {true};
      break;
    case Expect::kNear:
      break;
  }
  const Tier pass{e.pass_bound, e.pass_specials};
  if (WithinTier(t, bits, e, pass)) return {true};
  if (rule != nullptr) {
    // The least departure that explains the element: flushing, truncating, then both.
    const Tier flushed{pass.bound + e.flush_extra,
                       static_cast<uint8_t>(pass.specials | e.flush_specials)};
    const Tier truncated{pass.bound + e.truncate_extra,
                         static_cast<uint8_t>(pass.specials | e.truncate_specials)};
    const Tier both{flushed.bound + e.truncate_extra,
                    static_cast<uint8_t>(flushed.specials | truncated.specials)};
    if (rule->flush_subnormals && WithinTier(t, bits, e, flushed)) return {true, false, kFlushes};
    if (rule->truncate && WithinTier(t, bits, e, truncated)) return {true, false, kTruncates};
    if (rule->flush_subnormals && rule->truncate && WithinTier(t, bits, e, both))
      return {true, false, kFlushes | kTruncates};
  }
  return {false, WithinTier(t, bits, e, {e.warn_bound, e.warn_specials})};
}

// The spec's rule for the arithmetic of `t`'s Pass tier, if any.
const FloatRule* RuleFor(DType t, const std::vector<FloatRule>& rules) {
  if (!IsFloat(t)) return nullptr;
  const DType acc = PassAccumulator(t);
  for (const FloatRule& r : rules)
    if (r.dtype == acc) return &r;
  return nullptr;
}

std::string BehaviourText(uint8_t behaviour, DType acc) {
  std::string text;
  const auto add = [&](const char* verb, const char* what) {
    if (!text.empty()) text += " and ";
    text.append(verb).append(DTypeName(acc)).append(what);
  };
  if (behaviour & kFlushes) add("flushes ", " subnormals");
  if (behaviour & kTruncates) add("truncates ", " arithmetic");
  return text;
}

std::string SpecialsText(uint8_t specials) {
  std::string text;
  const std::pair<uint8_t, const char*> names[] = {
      {kPosInf, "+inf"}, {kNegInf, "-inf"}, {kAnyNaN, "NaN"}, {kPosZero, "+0"}, {kNegZero, "-0"}};
  for (const auto& [bit, name] : names)
    if (specials & bit) {
      text += text.empty() ? " (or " : ", ";
      text += name;
    }
  return text.empty() ? text : text + ")";
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
      return FormatElement(t, e.bits) + SpecialsText(e.pass_specials);
    case Expect::kNaN:
      return "NaN";
    case Expect::kAny:
      return "anything";
    case Expect::kNear:
      std::snprintf(buffer, sizeof buffer, "%.17Lg ± %.3g", e.value, e.pass_bound);
      return buffer + SpecialsText(e.pass_specials);
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
                                          size_t limit,
                                          const std::vector<FloatRule>& platform_rules) {
  std::vector<uint64_t> bad;
  const DType t = actual.desc.dtype;
  const FloatRule* rule = RuleFor(t, platform_rules);
  const StridedIndexer indexer(actual.desc);
  for (uint64_t i = 0; i < expected.elements.size() && bad.size() < limit; ++i) {
    const uint64_t bits = LoadBits(t, actual.Element(indexer.BufferIndex(i)));
    const ElementResult r = JudgeElement(t, expected, expected.elements[i], bits, rule);
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

Judgement JudgeTensor(const ExpectedTensor& expected, const TensorData& actual,
                      const std::vector<FloatRule>& platform_rules) {
  Judgement j;
  const DType t = actual.desc.dtype;
  const FloatRule* rule = RuleFor(t, platform_rules);
  const StridedIndexer indexer(actual.desc);
  bool any_warning = false;
  uint8_t behaviour = 0;
  long double worst_ratio = -1;
  for (uint64_t i = 0; i < expected.elements.size(); ++i) {
    const ExpectedElement& e = expected.elements[i];
    const uint64_t bits = LoadBits(t, actual.Element(indexer.BufferIndex(i)));
    const ElementResult r = JudgeElement(t, expected, e, bits, rule);
    const bool wrong = !r.pass && !r.warn;
    const long double a = IsFloat(t) ? BitsToLongDouble(t, bits) : 0;
    const bool measurable = e.kind == Expect::kNear && std::isfinite(a);
    if (IsFloat(t) && (measurable || wrong)) {
      // Every wrong element counts, so no Fail reports an error within its bound: one whose
      // error is no distance (NaN, an infinity, the sign of a zero, a special it may not be)
      // counts as infinitely far. A special that was allowed is no error at all.
      long double error = measurable ? std::fabs(a - e.value) : INFINITY;
      if (wrong && error <= e.pass_bound) error = INFINITY;
      const long double ratio =
          e.pass_bound > 0 ? error / e.pass_bound : (error > 0 ? INFINITY : 0);
      if (ratio > worst_ratio) {
        worst_ratio = ratio;
        j.max_error = static_cast<double>(error);
        j.bound = e.pass_bound;
        j.ulp = e.kind == Expect::kNear && std::isfinite(error)
                    ? static_cast<double>(error / UlpAt(t, e.value))
                    : static_cast<double>(INFINITY);
      }
    }
    behaviour |= r.behaviour;
    if (r.warn) any_warning = true;
    if (!wrong) continue;
    if (j.mismatches++ == 0) {
      j.first_mismatch = i;
      j.message = "element " + FormatCoordinates(expected.desc.sizes, i) + ": expected " +
                  FormatExpected(t, expected, e) + ", got " + FormatElement(t, bits);
    }
  }
  if (j.mismatches > 0) {
    j.verdict = Verdict::kFail;
    // reports/failure_cause.cc groups failures by this shape: keep the two in step.
    j.message = expected.name + ": " + std::to_string(j.mismatches) + " of " +
                std::to_string(expected.elements.size()) + " elements wrong; first " + j.message;
  } else if (any_warning) {
    j.verdict = Verdict::kQualityWarning;
    j.message = expected.name +
                ": within the bound for accumulation in the output type only (expected at "
                "least float32 accumulation)";
  }
  if (behaviour != 0) j.behaviour = BehaviourText(behaviour, PassAccumulator(t));
  return j;
}

}  // namespace opcts
