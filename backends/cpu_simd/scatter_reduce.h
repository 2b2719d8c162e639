// One element of a scatter reduction: *out = combine(*out, *update) in the element's type.
// Integers wrap; floats round once to nearest even in their own type (float16 and bfloat16
// through float, which holds their sums and products exactly before that one rounding); max and
// min return a NaN when either operand is one.
#pragma once

#include <cstdint>
#include <vector>

#include "common/family_views.h"

namespace opcts::cpu_simd {

void CombineElement(uint32_t data_type, plugin::ScatterReduction reduction, unsigned char* out,
                    const unsigned char* update);

// float16 and bfloat16 add and mul over duplicate tuples: each touched output element is kept in
// float across all its updates and rounded once at the end, the accumulation the spec's accuracy
// model grades Pass (rounding after every update is its QualityWarning tier).
//
//   if (HalfAccumulator::Needed(type, reduction)) { HalfAccumulator acc(type, reduction, span);
//     acc.Combine(out, i, update) ...; acc.Store(out); }
class HalfAccumulator {
 public:
  static bool Needed(uint32_t data_type, plugin::ScatterReduction reduction);
  // `elements`: the output buffer's span in elements.
  HalfAccumulator(uint32_t data_type, plugin::ScatterReduction reduction, uint64_t elements);
  // Output element `index` (of `out`, 2-byte elements) combined with *update.
  void Combine(const unsigned char* out, uint64_t index, const unsigned char* update);
  // Rounds every touched element once into `out`.
  void Store(unsigned char* out) const;

 private:
  float ToFloat(const unsigned char* bits) const;
  bool bfloat16_;
  plugin::ScatterReduction reduction_;
  std::vector<float> values_;
  std::vector<uint64_t> touched_;  // indices, in first-touch order
  std::vector<bool> is_touched_;
};

}  // namespace opcts::cpu_simd
