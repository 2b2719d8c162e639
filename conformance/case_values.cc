// Fills a materialized case's tensors. Padding elements (addressed by no logical element) get a
// poison value so a backend that reads them computes something visibly wrong.
#include <algorithm>
#include <cmath>
#include <random>

#include "conformance/case.h"
#include "spec/element.h"

namespace opcts {
namespace {

using Rng = std::mt19937_64;

double Uniform(Rng& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1p-53;
}
uint64_t Below(Rng& rng, uint64_t n) { return n == 0 ? 0 : rng() % n; }

int64_t SignedMax(DType t) {
  return DTypeBits(t) == 64 ? INT64_MAX : (int64_t{1} << (DTypeBits(t) - 1)) - 1;
}

uint64_t RandomSum(DType t, Rng& rng, uint64_t line) {
  if (IsFloat(t)) {
    // Integers in float16's exact range would hide rounding; halves and quarters do not.
    return DoubleToBits(t, Uniform(rng, -4, 4));
  }
  if (IsUnsignedInt(t)) return rng() & BitsMask(t);  // wrapping is defined: any value
  // Signed: every prefix of `line` terms stays within range.
  const int64_t limit = std::max<int64_t>(1, SignedMax(t) / static_cast<int64_t>(line + 1));
  return static_cast<uint64_t>(static_cast<int64_t>(Below(rng, 2 * limit + 1)) - limit) &
         BitsMask(t);
}

uint64_t RandomProduct(DType t, Rng& rng, uint64_t line) {
  if (IsFloat(t)) {
    // log2 of the running product is a random walk with steps of +-2/sqrt(line): it wanders about
    // a factor 2^2 over the whole line, far from overflow and underflow.
    const double step = 2.0 / std::sqrt(static_cast<double>(line));
    const double magnitude = std::exp2(Uniform(rng, -step, step));
    return DoubleToBits(t, (rng() & 1) ? -magnitude : magnitude);
  }
  if (IsUnsignedInt(t)) return rng() & BitsMask(t);  // wraps modulo 2^n
  // Signed products overflow quickly: mostly ±1, sometimes 2 or 0.
  static constexpr int64_t kSmall[] = {1, -1, 1, -1, 2, 1, -1, 0};
  return static_cast<uint64_t>(kSmall[Below(rng, 8)]) & BitsMask(t);
}

// ---- Float scan edges: one line at a time, in axis order ----

double RandomSign(Rng& rng) { return (rng() & 1) ? -1.0 : 1.0; }

// -0.0 heads both directions (index 0 and n-1) and identity positions (x + -0.0 == x). The line
// number picks the pattern, so every tensor of four lines or more has each, and a single line
// (the long cases) is all -0.0.
std::vector<uint64_t> NegZeroLine(DType t, Values kind, uint64_t n, uint64_t line, Rng& rng) {
  const uint64_t neg_zero = DoubleToBits(t, -0.0), pos_zero = DoubleToBits(t, 0.0);
  auto ordinary = [&] {
    return kind == Values::kNegZeroSum ? RandomSum(t, rng, n) : RandomProduct(t, rng, n);
  };
  std::vector<uint64_t> v(n, neg_zero);  // pattern 0: a sum of -0.0 alone is -0.0
  for (uint64_t& x : v) {
    if (line % 4 == 1)
      x = (rng() & 3) ? neg_zero : pos_zero;  // signed zeros: any +0.0 makes the sum +0.0
    else if (line % 4 == 2)
      x = (rng() & 1) ? neg_zero : ordinary();
    else if (line % 4 == 3)
      x = ordinary();
  }
  v.front() = v.back() = neg_zero;
  return v;
}

// [±L, s, ∓L, s, ±L, ...], starting with s on odd lines, L = 4 / u: L's ulp in the dtype is 8,
// so L + s rounds back to L for every |s| <= 2 (accumulating in the dtype loses each s) while the
// exact partial sums return to a few units; s = ±0 between L and -L cancels exactly (to +0).
std::vector<uint64_t> CancellationLine(DType t, uint64_t n, uint64_t line, Rng& rng) {
  static constexpr double kSmall[] = {1, -1, 0.5, -2, 1.5, 0.0, -0.0};
  const double large = 4 / static_cast<double>(UnitRoundoff(t));
  const double sign = RandomSign(rng);
  std::vector<uint64_t> v(n);
  for (uint64_t k = 0; k < n; ++k) {
    const uint64_t j = k + line % 2;
    v[k] = DoubleToBits(
        t, j % 2 ? kSmall[Below(rng, std::size(kSmall))] : (j / 2 % 2 ? -sign : sign) * large);
  }
  return v;
}

// ±B everywhere but one ±0 at position 0, 1 or 2 (by line), B = max / 4: B * B overflows the
// dtype, so a product taken across the zero is exactly ±0 while an order that multiplies the big
// factors first reaches inf (and inf * 0 = NaN); walked in reverse, the overflow comes first.
std::vector<uint64_t> ZeroThenOverflowLine(DType t, uint64_t n, uint64_t line, Rng& rng) {
  const double big = static_cast<double>(MaxFinite(t) / 4);
  const uint64_t zero_at = line % std::min<uint64_t>(n, 3);
  std::vector<uint64_t> v(n);
  for (uint64_t k = 0; k < n; ++k)
    v[k] = DoubleToBits(t, RandomSign(rng) * (k == zero_at ? 0.0 : big));
  return v;
}

// [±τ, ±τ, ±1/τ, ±1/τ, ...] with τ a power of 2 whose square is below half the dtype's smallest
// subnormal: the running product underflows to 0 in the dtype after two factors, and the exact
// one comes back to ±1 two factors later. Every factor is exact.
std::vector<uint64_t> UnderflowRecoverLine(DType t, uint64_t n, Rng& rng) {
  const int exponent =
      static_cast<int>(std::floor(std::log2(static_cast<double>(SmallestSubnormal(t))) / 2)) - 2;
  std::vector<uint64_t> v(n);
  for (uint64_t k = 0; k < n; ++k)
    v[k] = DoubleToBits(t, RandomSign(rng) * std::ldexp(1.0, k % 4 < 2 ? exponent : -exponent));
  return v;
}

std::vector<uint64_t> EdgeLine(DType t, Values kind, uint64_t n, uint64_t line, Rng& rng) {
  switch (kind) {
    case Values::kCancellation:
      return CancellationLine(t, n, line, rng);
    case Values::kZeroThenOverflow:
      return ZeroThenOverflowLine(t, n, line, rng);
    case Values::kUnderflowRecover:
      return UnderflowRecoverLine(t, n, rng);
    default:
      return NegZeroLine(t, kind, n, line, rng);
  }
}

// The line classes' values at their logical (row-major) positions: line l is (outer, inner) =
// (l / line_inner, l % line_inner). Lines are drawn in order, so the same recipe gives the same
// values; a tensor an invalid case resized still gets a value everywhere.
std::vector<uint64_t> LineValues(DType t, const TensorRecipe& recipe, uint64_t logical, Rng& rng) {
  const uint64_t n = std::max<uint64_t>(recipe.line_length, 1);
  const uint64_t inner = std::max<uint64_t>(recipe.line_inner, 1);
  const uint64_t lines = (logical + n * inner - 1) / (n * inner) * inner;
  std::vector<std::vector<uint64_t>> by_line(lines);
  for (uint64_t l = 0; l < lines; ++l) by_line[l] = EdgeLine(t, recipe.values, n, l, rng);
  std::vector<uint64_t> values(logical);
  for (uint64_t i = 0; i < logical; ++i)
    values[i] = by_line[i / (n * inner) * inner + i % inner][i / inner % n];
  return values;
}

uint64_t Extreme(DType t, Rng& rng) {
  if (IsFloat(t)) {
    const long double max = MaxFinite(t);
    const double pool[] = {0.0,
                           -0.0,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           static_cast<double>(max),
                           -static_cast<double>(max),
                           static_cast<double>(SmallestSubnormal(t)),
                           -static_cast<double>(SmallestSubnormal(t)),
                           static_cast<double>(max) * 0.75,
                           1.0,
                           -1.5};
    // Half the time an ordinary value, so specials mix with normal arithmetic.
    if (rng() & 1) return DoubleToBits(t, Uniform(rng, -4, 4));
    return DoubleToBits(t, pool[Below(rng, std::size(pool))]);
  }
  const uint64_t mask = BitsMask(t);
  const uint64_t min_signed = IsSignedInt(t) ? (uint64_t{1} << (DTypeBits(t) - 1)) : 0;
  const uint64_t pool[] = {
      0, 1, mask /* -1 or max */, mask >> (IsSignedInt(t) ? 1 : 0), min_signed, mask - 1};
  return pool[Below(rng, std::size(pool))] & mask;
}

// Index tuples: `tuples` rows of `dims.size()` coordinates, as the index dtype's bits.
std::vector<uint64_t> IndexData(DType t, Values kind, const std::vector<uint32_t>& dims,
                                uint64_t tuples, Rng& rng) {
  const size_t q = dims.size();
  uint64_t positions = 1;
  for (uint32_t d : dims) positions *= d;
  std::vector<uint64_t> flat(tuples);  // each tuple as a flat position first
  if (kind == Values::kIndexUnique) {
    std::vector<uint64_t> all(positions);
    for (uint64_t i = 0; i < positions; ++i) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    for (uint64_t i = 0; i < tuples; ++i) flat[i] = all[i % positions];
  } else if (kind == Values::kIndexDuplicates) {
    for (uint64_t i = 0; i < tuples; ++i)
      flat[i] = i == 0 ? Below(rng, positions) : flat[Below(rng, i)];
  } else {
    for (uint64_t i = 0; i < tuples; ++i) flat[i] = Below(rng, positions);
  }
  const bool is_signed = IsSignedInt(t);
  std::vector<uint64_t> bits;
  for (uint64_t i = 0; i < tuples; ++i) {
    std::vector<int64_t> coords(q);
    uint64_t p = flat[i];
    for (size_t c = q; c-- > 0;) {
      coords[c] = static_cast<int64_t>(p % dims[c]);
      p /= dims[c];
    }
    for (size_t c = 0; c < q; ++c) {
      const int64_t dim = dims[c];
      if (kind == Values::kIndexBoundary) {
        const int64_t choices[] = {0, dim - 1, -dim, -1};
        coords[c] = choices[Below(rng, is_signed ? 4 : 2)];
      } else if (kind == Values::kIndexNegative && is_signed) {
        coords[c] -= dim;  // same position, written from the end
      }
    }
    if (kind == Values::kIndexOutOfRange && i == tuples / 2) {
      const size_t c = Below(rng, q);
      const int64_t dim = dims[c];
      // Far out of range, as bits: values a backend mishandles when it reads them signed,
      // truncated or added without overflow checks. Each stays out of range for its dtype
      // (0xFFFFFFFF would be -1, in range, as an INT32).
      std::vector<uint64_t> far = {uint64_t{1} << 31};
      if (!is_signed || DTypeBits(t) == 64) far.push_back(0xFFFFFFFFull);
      if (DTypeBits(t) == 64) far.insert(far.end(), {uint64_t{1} << 63, ~uint64_t{0} >> 1});
      if (DTypeBits(t) == 64 && !is_signed)
        far.insert(far.end(), {~uint64_t{0}, (uint64_t{1} << 32) + Below(rng, 4)});
      if (rng() % 3 == 0) {
        coords[c] = static_cast<int64_t>(far[Below(rng, far.size())]);
      } else if (is_signed && (rng() & 1)) {
        coords[c] = -dim - 1;
      } else {
        coords[c] = dim + static_cast<int64_t>(Below(rng, 3));
      }
    }
    for (int64_t c : coords) bits.push_back(static_cast<uint64_t>(c) & BitsMask(t));
  }
  return bits;
}

uint64_t Poison(DType t) {
  return IsFloat(t) ? DoubleToBits(t, 12345.0) : (0x5A5A5A5A5A5A5A5Aull & BitsMask(t));
}

void Fill(TensorData& data, const TensorRecipe& recipe, Rng& rng) {
  const TensorDesc& desc = data.desc;
  const DType t = desc.dtype;
  const uint64_t logical = ElementCount(desc);
  // An invalid case may give a TotalTensorSizeInBytes below what the sizes address: fill only
  // what the buffer holds.
  const uint64_t capacity = data.bytes.size() / DTypeSize(t);
  for (uint64_t i = 0; i < std::min(BufferElementCount(desc), capacity); ++i)
    StoreBits(t, data.Element(i), Poison(t));
  std::vector<uint64_t> values;
  switch (recipe.values) {
    case Values::kNone:
      return;
    case Values::kScalar:
      values = {static_cast<uint64_t>(recipe.scalar) & BitsMask(t)};
      break;
    case Values::kIndexUnique:
    case Values::kIndexBoundary:
    case Values::kIndexNegative:
    case Values::kIndexDuplicates:
    case Values::kIndexOutOfRange:
      values =
          IndexData(t, recipe.values, recipe.index_dims, logical / recipe.index_dims.size(), rng);
      break;
    case Values::kNegZeroSum:
    case Values::kNegZeroProduct:
    case Values::kCancellation:
    case Values::kZeroThenOverflow:
    case Values::kUnderflowRecover:
      values = LineValues(t, recipe, logical, rng);
      break;
    default:
      values.resize(logical);
      for (uint64_t& v : values) {
        switch (recipe.values) {
          case Values::kRandomSum:
            v = RandomSum(t, rng, recipe.line_length);
            break;
          case Values::kRandomProduct:
            v = RandomProduct(t, rng, recipe.line_length);
            break;
          case Values::kExtremes:
            v = Extreme(t, rng);
            break;
          case Values::kRandomBits:
            v = rng() & BitsMask(t);
            break;
          default:
            v = DoubleToBits(t, 1.0);
            break;  // kOnes
        }
      }
  }
  const StridedIndexer indexer(desc);
  for (uint64_t i = 0; i < values.size(); ++i)
    if (const uint64_t at = indexer.BufferIndex(i); at < capacity)
      StoreBits(t, data.Element(at), values[i]);
}

}  // namespace

uint64_t StableHash(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

Operation Materialize(const CaseRecipe& recipe) {
  Operation op{recipe.spec, recipe.params, {}, recipe.in_place};
  Rng rng(recipe.seed);
  for (const auto& [name, tensor] : recipe.tensors) {
    TensorData data = MakeTensor(tensor.desc);
    Fill(data, tensor, rng);
    op.tensors.emplace(name, std::move(data));
  }
  return op;
}

}  // namespace opcts
