#include "backend/scatter_nd.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <vector>

#include "backend/elements.h"
#include "backend/layout.h"
#include "spec/half.h"

namespace opcts::mutant {
namespace {

#if defined(OPCTS_MUTANT_SUBNORMALS_FLUSHED) || defined(OPCTS_MUTANT_SIGNALING_NAN_QUIETED)
// Mutant: float elements move through float registers. With flush-to-zero a subnormal becomes
// a signed zero; a signaling NaN comes out quiet.
uint64_t ThroughFloatRegister(uint32_t data_type, uint64_t bits) {
  struct Fields {
    uint64_t exponent, mantissa, quiet;
  };
  Fields f{0, 0, 0};
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64:
      f = {0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull, 1ull << 51};
      break;
    case OPCTS_DTYPE_FLOAT32:
      f = {0x7F800000u, 0x007FFFFFu, 1u << 22};
      break;
    case OPCTS_DTYPE_FLOAT16:
      f = {0x7C00u, 0x03FFu, 1u << 9};
      break;
    case OPCTS_DTYPE_BFLOAT16:
      f = {0x7F80u, 0x007Fu, 1u << 6};
      break;
    default:
      return bits;  // integers move untouched
  }
  const uint64_t exponent = bits & f.exponent, mantissa = bits & f.mantissa;
#ifdef OPCTS_MUTANT_SUBNORMALS_FLUSHED
  if (exponent == 0 && mantissa != 0) return bits & ~(f.exponent | f.mantissa);
#else
  if (exponent == f.exponent && mantissa != 0) return bits | f.quiet;
#endif
  return bits;
}
#endif

// Moves one element (or `size` bytes of it), bit for bit.
void MoveElement(uint32_t data_type, size_t size, uint8_t* dst, const uint8_t* src) {
  uint64_t bits = 0;
  std::memcpy(&bits, src, size);
#if defined(OPCTS_MUTANT_SUBNORMALS_FLUSHED) || defined(OPCTS_MUTANT_SIGNALING_NAN_QUIETED)
  bits = ThroughFloatRegister(data_type, bits);
#else
  (void)data_type;
#endif
  std::memcpy(dst, &bits, size);
}

// Output = input, element by element through the layouts, or as one run when both are packed.
void CopyInput(uint32_t data_type, const Layout& in, const uint8_t* input, const Layout& out,
               uint8_t* output) {
  const size_t size = in.element_size;
  if (in.packed && out.packed) {
    const uint64_t bytes = in.element_count * size;
#ifdef OPCTS_MUTANT_VECTOR_COPY_OVERRUN
    // Mutant: copies whole 16-byte vectors with no tail loop, up to 15 bytes past the end.
    for (uint64_t offset = 0; offset < bytes; offset += 16)
      std::memcpy(output + offset, input + offset, 16);
#else
    std::memcpy(output, input, bytes);
#endif
    return;
  }
  for (uint64_t i = 0; i < in.element_count; ++i)
    MoveElement(data_type, size, output + Offset(out, i) * size, input + Offset(in, i) * size);
}

// Coordinate `i` (logical) of the index tensor as a signed value; unsigned values above
// INT64_MAX do not occur in tensors below 2^32 elements and read as out of range anyway.
int64_t ReadIndex(uint32_t index_type, const Layout& layout, const uint8_t* indices, uint64_t i) {
  const uint64_t offset = Offset(layout, i);
#ifdef OPCTS_MUTANT_INT64_INDICES_AS_INT32
  // Mutant: every index buffer is bound as an int32 array, whatever the index type.
  if (layout.element_size == 8) {
    const int32_t v = LoadAs<int32_t>(indices + offset * 4);
    return index_type == OPCTS_DTYPE_INT64 ? v : static_cast<int64_t>(static_cast<uint32_t>(v));
  }
#endif
  const uint8_t* p = indices + offset * layout.element_size;
  switch (index_type) {
    case OPCTS_DTYPE_INT64:
      return LoadAs<int64_t>(p);
    case OPCTS_DTYPE_INT32:
      return LoadAs<int32_t>(p);
    case OPCTS_DTYPE_INT16:
      return LoadAs<int16_t>(p);
    case OPCTS_DTYPE_INT8:
      return LoadAs<int8_t>(p);
    case OPCTS_DTYPE_UINT64:
      return static_cast<int64_t>(std::min<uint64_t>(LoadAs<uint64_t>(p), INT64_MAX));
    case OPCTS_DTYPE_UINT32:
      return LoadAs<uint32_t>(p);
    case OPCTS_DTYPE_UINT16:
      return LoadAs<uint16_t>(p);
    case OPCTS_DTYPE_UINT8:
      return LoadAs<uint8_t>(p);
  }
  return -1;
}

bool IsSignedIndex(uint32_t t) {
  return t == OPCTS_DTYPE_INT64 || t == OPCTS_DTYPE_INT32 || t == OPCTS_DTYPE_INT16 ||
         t == OPCTS_DTYPE_INT8;
}

// An element under a reduction: a float as double (every float type converts exactly), an
// integer as its 64-bit two's complement pattern (sign-extended when signed).
struct Number {
  double f = 0;
  uint64_t i = 0;
};

bool IsFloatType(uint32_t t) {
  return t == OPCTS_DTYPE_FLOAT64 || t == OPCTS_DTYPE_FLOAT32 || t == OPCTS_DTYPE_FLOAT16 ||
         t == OPCTS_DTYPE_BFLOAT16;
}

Number LoadNumber(uint32_t t, size_t size, const uint8_t* p) {
  Number n;
  switch (t) {
    case OPCTS_DTYPE_FLOAT64:
      n.f = LoadAs<double>(p);
      return n;
    case OPCTS_DTYPE_FLOAT32:
      n.f = LoadAs<float>(p);
      return n;
    case OPCTS_DTYPE_FLOAT16:
      n.f = HalfBitsToFloat(LoadAs<uint16_t>(p));
      return n;
    case OPCTS_DTYPE_BFLOAT16:
      n.f = BFloat16BitsToFloat(LoadAs<uint16_t>(p));
      return n;
  }
  std::memcpy(&n.i, p, size);
  const unsigned spare = 64 - 8 * static_cast<unsigned>(size);
  if (IsSignedIndex(t) && spare > 0)
    n.i = static_cast<uint64_t>(static_cast<int64_t>(n.i << spare) >> spare);
  return n;
}

// Rounds once to the element type (floats) or keeps the low bits (integers: modulo 2^n).
void StoreNumber(uint32_t t, size_t size, uint8_t* p, Number n) {
  switch (t) {
    case OPCTS_DTYPE_FLOAT64:
      StoreAs<double>(p, n.f);
      return;
    case OPCTS_DTYPE_FLOAT32:
      StoreAs<float>(p, static_cast<float>(n.f));
      return;
    case OPCTS_DTYPE_FLOAT16:
      StoreAs<uint16_t>(p, DoubleToHalfBits(n.f));
      return;
    case OPCTS_DTYPE_BFLOAT16:
      StoreAs<uint16_t>(p, DoubleToBFloat16Bits(n.f));
      return;
  }
  std::memcpy(p, &n.i, size);
}

#ifdef OPCTS_MUTANT_REDUCTION_FLUSH_TO_ZERO
// Mutant: float32 and bfloat16 add and mul run in float32 arithmetic that flushes subnormal
// operands and results to signed zero, as a GPU's float32 may, where the spec says IEEE 754
// (max and min compare the bits as integers, untouched).
double Flushed(uint32_t t, double v) {
  const bool float32_range = t == OPCTS_DTYPE_FLOAT32 || t == OPCTS_DTYPE_BFLOAT16;
  return float32_range && std::fabs(v) < 0x1p-126 ? std::copysign(0.0, v) : v;
}
#endif

Number Combine(uint32_t t, plugin::ScatterReduction reduction, Number a, Number b) {
  using R = plugin::ScatterReduction;
#ifdef OPCTS_MUTANT_REDUCTION_FLUSH_TO_ZERO
  if (IsFloatType(t) && reduction == R::kAdd)
    return {Flushed(t, Flushed(t, a.f) + Flushed(t, b.f)), 0};
  if (IsFloatType(t) && reduction == R::kMul)
    return {Flushed(t, Flushed(t, a.f) * Flushed(t, b.f)), 0};
#endif
  if (IsFloatType(t)) {
    if (reduction == R::kAdd) return {a.f + b.f, 0};
    if (reduction == R::kMul) return {a.f * b.f, 0};
    const bool greater = reduction == R::kMax ? a.f < b.f : b.f < a.f;  // take b
#ifdef OPCTS_MUTANT_MAX_MIN_NAN_DROPPED
    // Mutant: std::max / std::min semantics: a NaN update loses to the element it meets.
    return greater ? b : a;
#else
    if (std::isnan(a.f) || std::isnan(b.f)) return {std::numeric_limits<double>::quiet_NaN(), 0};
    return greater ? b : a;
#endif
  }
  if (reduction == R::kAdd) return {0, a.i + b.i};
  if (reduction == R::kMul) return {0, a.i * b.i};
  const bool less =
      IsSignedIndex(t) ? static_cast<int64_t>(a.i) < static_cast<int64_t>(b.i) : a.i < b.i;
  return (reduction == R::kMax) == less ? b : a;
}

}  // namespace

Result<void> RunScatterND(const ScatterArgs& desc, const uint8_t* input, const uint8_t* indices,
                          const uint8_t* updates, uint8_t* output) {
  const Layout in = ReadLayout(*desc.input), idx = ReadLayout(*desc.indices);
  const Layout upd = ReadLayout(*desc.updates), out = WriteLayout(*desc.output);
  const uint32_t data_type = desc.input->data_type, index_type = desc.indices->data_type;
  const size_t size = in.element_size;
  const uint32_t rank = desc.input->dimension_count;
  const uint32_t input_dims = desc.input_dims;

#ifdef OPCTS_MUTANT_NO_INPUT_COPY
  // Mutant: "the output already holds the input", which is true only in place.
  const bool copy_input = false;
#else
  const bool copy_input = true;
#endif
  if (copy_input) CopyInput(data_type, in, input, out, output);

    // Tuples of q coordinates address the first q of the input's last `input_dims` dimensions;
    // each writes a contiguous slice spanning the rest.
#ifdef OPCTS_MUTANT_INDEX_DEPTH_WRONG_DIM
  // Mutant: the tuple size is read from the first meaningful index dimension, not the last.
  const uint32_t q = idx.sizes[idx.sizes.size() - desc.indices_dims];
#else
  const uint32_t q = idx.sizes.back();
#endif
  const uint32_t* dims = desc.input->sizes + (rank - input_dims);
  uint64_t slice = 1;
  for (uint32_t d = q; d < input_dims; ++d) slice *= dims[d];
  const uint64_t tuples = idx.element_count / q;
  // The descriptor checks make these hold; the kernel never reads past a tensor if they do not.
  if (q > input_dims || tuples * slice != upd.element_count) {
    return InternalError("mutant: " + std::to_string(tuples) + " index tuples of " +
                         std::to_string(q) + " do not match UpdatesTensor's " +
                         std::to_string(upd.element_count) + " elements");
  }

  // Resolve every tuple to the logical index of its slice's first element; skipped: -1.
  std::vector<int64_t> starts(tuples, -1);
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t start = 0;
    bool in_range = true;
    for (uint32_t c = 0; c < q && in_range; ++c) {
      int64_t v = ReadIndex(index_type, idx, indices, t * q + c);
      if (v < 0 && IsSignedIndex(index_type)) {
#if defined(OPCTS_MUTANT_NEGATIVE_INDEX_NOT_WRAPPED)
        // Mutant: negative coordinates are not counted from the end (they stay out of range).
#elif defined(OPCTS_MUTANT_NEGATIVE_INDEX_WRONG_DIM)
        // Mutant: wrapped with the dimension of the same number in the full-rank sizes, which
        // is a leading 1 when the input has leading ones.
        v += desc.input->sizes[c];
#else
        v += dims[c];
#endif
      }
#ifdef OPCTS_MUTANT_OUT_OF_RANGE_OFF_BY_ONE
      // Mutant: the bounds check lets a coordinate equal to the dimension through.
      in_range = v >= 0 && static_cast<uint64_t>(v) <= dims[c];
#else
      in_range = v >= 0 && static_cast<uint64_t>(v) < dims[c];
#endif
      start = start * dims[c] + static_cast<uint64_t>(v);
    }
    if (in_range) starts[t] = static_cast<int64_t>(start * slice);
  }
#ifdef OPCTS_MUTANT_OUT_OF_RANGE_ZEROED
  // Mutant: an out-of-range tuple takes an early exit that zeroes the output and reports
  // success: values no tuple and no input element held.
  if (std::count(starts.begin(), starts.end(), -1) > 0) {
    for (uint64_t e = 0; e < out.element_count; ++e)
      std::memset(output + Offset(out, e) * size, 0, size);
    return {};
  }
#endif

  const auto write = [&](uint64_t t, size_t byte_offset, size_t bytes) {
    if (starts[t] < 0) return;
    for (uint64_t s = 0; s < slice; ++s)
      MoveElement(data_type, bytes, output + Offset(out, starts[t] + s) * size + byte_offset,
                  updates + Offset(upd, t * slice + s) * size + byte_offset);
  };
#ifdef OPCTS_MUTANT_DUPLICATES_TORN
  // Mutant: 64-bit elements move as two 32-bit words by different lanes, whose order differs:
  // where tuples repeat, the low and the high word can come from different updates.
  if (size == 8) {
    for (uint64_t t = 0; t < tuples; ++t) write(t, 0, 4);
    for (uint64_t t = tuples; t-- > 0;) write(t, 4, 4);
    return {};
  }
#endif
  if (desc.reduction == plugin::ScatterReduction::kNone) {
    for (uint64_t t = 0; t < tuples; ++t) write(t, 0, size);
    return {};
  }
  // Each element starts from the input and meets its updates in index order; stored once.
  std::map<uint64_t, Number> combined;
  for (uint64_t t = 0; t < tuples; ++t) {
    if (starts[t] < 0) continue;
    for (uint64_t s = 0; s < slice; ++s) {
      const uint64_t e = static_cast<uint64_t>(starts[t]) + s;
      const Number original = LoadNumber(data_type, size, output + Offset(out, e) * size);
      const auto [it, first] = combined.try_emplace(e, original);
#ifdef OPCTS_MUTANT_REDUCTION_APPLIED_ONCE
      // Mutant: each update is combined with the element's original value, not the running
      // result: with duplicate tuples only the last update counts.
      it->second = original;
#endif
      (void)first;
      it->second =
          Combine(data_type, desc.reduction, it->second,
                  LoadNumber(data_type, size, updates + Offset(upd, t * slice + s) * size));
    }
  }
  for (const auto& [e, value] : combined)
    StoreNumber(data_type, size, output + Offset(out, e) * size, value);
  return {};
}

}  // namespace opcts::mutant
