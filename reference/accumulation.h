// The accuracy model of a float sum or product whose evaluation order is unknown: the exact-as-
// possible result of the terms and the error bounds of any order of evaluation. Scans (a prefix
// at a time) and ScatterND reductions (duplicate indices, combined in any order) both use it.
//
//   FloatTally tally;
//   for (long double x : terms) tally.Add(x, Accumulation::kSum);
//   ExpectedElement e = FloatExpectation(tally, Accumulation::kSum, DType::kFloat16);
#pragma once

#include <cstdint>

#include "reference/reference.h"

namespace opcts {

enum class Accumulation { kSum, kProduct };

// The running state of one accumulation.
struct FloatTally {
  long double sum = 0, compensation = 0;  // Neumaier-compensated exact-as-possible sum
  long double product = 1;
  long double abs_sum = 0;        // sum of |x|
  long double big_product = 1;    // product of max(|x|, 1): largest partial product
  long double small_product = 1;  // product of min(|x|, 1) over nonzero x: smallest one
  uint64_t terms = 0;
  bool nan = false, pos_inf = false, neg_inf = false, zero = false;
  bool negative_inf_product = false;  // sign of an infinite product

  void Add(long double x, Accumulation op);
};

// What the accumulated terms may evaluate to in `out`: kNear with the Pass bound (accumulation at
// >= float32 precision) and the QualityWarning bound (accumulation in `out`), or an IEEE special.
ExpectedElement FloatExpectation(const FloatTally& t, Accumulation op, DType out);

}  // namespace opcts
