// The accuracy model of a float sum or product whose evaluation order is unknown: the exact-as-
// possible result of the terms, the error bound of any order of evaluation, and the IEEE
// outcomes (signed zeros, infinities, NaN) that some order reaches. Scans (a prefix at a time)
// and ScatterND reductions (duplicate indices, combined in any order) both use it. The
// derivation is in reference/README.md.
//
//   FloatTally tally;
//   for (long double x : terms) tally.Add(x, Accumulation::kSum);
//   ExpectedElement e = FloatExpectation(tally, Accumulation::kSum, DType::kFloat16);
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "reference/reference.h"

namespace opcts {

enum class Accumulation { kSum, kProduct };

// The accumulator of the Pass tier: at least float32 (float64 for FLOAT64 data).
DType PassAccumulator(DType out);

// The log2 magnitudes of the products of subsets of some factors, as sorted spans. Gaps
// narrower than `kMergeGap` are closed: that keeps "does a window at least that wide contain a
// subset product?" exact, and the span count bounded.
class SubsetLog2Products {
 public:
  static constexpr double kMergeGap = 8;  // bits; bfloat16's subnormal window is 8 wide
  static constexpr size_t kMaxSpans = 256;

  void Add(double log2_magnitude);
  bool Meets(double lo, double hi) const;
  double Smallest() const { return spans_.front().first; }  // log2 of the smallest product
  double Largest() const { return spans_.back().second; }   // and of the largest

 private:
  std::vector<std::pair<double, double>> spans_{{0, 0}};  // the empty subset
};

// Count, sum and largest of the terms' magnitudes per binade (ilogb), ascending.
struct Binade {
  int exponent;
  uint64_t count;
  long double sum, largest;
};

// The running state of one accumulation.
struct FloatTally {
  uint64_t terms = 0;
  bool nan = false, pos_inf = false, neg_inf = false;

  // Sums.
  long double sum = 0, compensation = 0;           // Neumaier-compensated exact-as-possible sum
  long double positive_sum = 0, negative_sum = 0;  // of the finite terms, magnitudes
  uint64_t zeros = 0, negative_zeros = 0;
  long double min_magnitude = INFINITY;  // of the nonzero finite terms
  std::vector<Binade> binades;

  // Products.
  long double product = 1;
  bool zero = false;
  bool negative = false;               // parity of the negative factors, -0 and -inf included
  SubsetLog2Products subset_products;  // of the finite nonzero factors

  void Add(long double x, Accumulation op);
};

// What the accumulated terms may evaluate to in `out`.
ExpectedElement FloatExpectation(const FloatTally& t, Accumulation op, DType out);

}  // namespace opcts
