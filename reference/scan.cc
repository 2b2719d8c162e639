#include "reference/scan.h"

#include <string>

#include "reference/accumulation.h"
#include "spec/element.h"

namespace opcts {
namespace {

// Integers: unsigned arithmetic wraps modulo 2^n; signed overflow is unconstrained by the specs,
// so once the exact prefix leaves the type's range the element only has to be memory-safe.
struct IntTally {
  uint64_t wrapped;
  __int128 exact;
  bool overflowed = false;
  bool zero = false;  // a zero factor makes every later product exactly 0

  explicit IntTally(Accumulation op)
      : wrapped(op == Accumulation::kSum ? 0 : 1), exact(op == Accumulation::kSum ? 0 : 1) {}

  void Add(DType t, uint64_t bits, Accumulation op) {
    if (op == Accumulation::kSum) {
      wrapped += bits;
      if (IsSignedInt(t)) exact += BitsToInt64(t, bits);
    } else {
      wrapped *= bits;
      if (IsSignedInt(t)) {
        const int64_t x = BitsToInt64(t, bits);
        if (x == 0) zero = true;
        // Stop tracking the exact product once it is out of range: it stays out (|x| >= 1).
        if (!overflowed && __builtin_mul_overflow(exact, static_cast<__int128>(x), &exact))
          overflowed = true;
      }
    }
    if (IsSignedInt(t) && !zero) {
      const unsigned n = DTypeBits(t);
      const __int128 lo = -(static_cast<__int128>(1) << (n - 1));
      const __int128 hi = (static_cast<__int128>(1) << (n - 1)) - 1;
      if (exact < lo || exact > hi) overflowed = true;
    }
  }
};

ExpectedElement IntExpectation(const IntTally& t, DType out) {
  ExpectedElement e;
  e.bits = t.zero ? 0 : t.wrapped & BitsMask(out);
  e.kind = IsSignedInt(out) && t.overflowed && !t.zero ? Expect::kAny : Expect::kBits;
  return e;
}

}  // namespace

ExpectedTensor ReferenceScan(const TensorData& input, const TensorDesc& output_desc,
                             const std::string& output_name, const ScanParams& params) {
  const TensorDesc& in = input.desc;
  const DType dtype = in.dtype;
  ExpectedTensor result{output_name, output_desc, {}, {}};
  result.elements.resize(ElementCount(in));

  // Logical row-major layout: line = (outer, inner), position along the axis.
  uint64_t inner = 1;
  for (size_t d = params.axis + 1; d < in.sizes.size(); ++d) inner *= in.sizes[d];
  const uint64_t axis_len = in.sizes[params.axis];
  const uint64_t outer = ElementCount(in) / (axis_len * inner);
  const StridedIndexer indexer(in);

  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t i = 0; i < inner; ++i) {
      FloatTally ft;
      IntTally it(params.op);
      for (uint64_t step = 0; step < axis_len; ++step) {
        const uint64_t k = params.reverse ? axis_len - 1 - step : step;
        const uint64_t logical = (o * axis_len + k) * inner + i;
        const uint64_t bits = LoadBits(dtype, input.Element(indexer.BufferIndex(logical)));
        ExpectedElement& out = result.elements[logical];
        if (IsFloat(dtype)) {
          if (params.exclusive) out = FloatExpectation(ft, params.op, dtype);
          ft.Add(BitsToLongDouble(dtype, bits), params.op);
          if (!params.exclusive) out = FloatExpectation(ft, params.op, dtype);
        } else {
          if (params.exclusive) out = IntExpectation(it, dtype);
          it.Add(dtype, bits, params.op);
          if (!params.exclusive) out = IntExpectation(it, dtype);
        }
      }
    }
  }
  return result;
}

ReferenceResult ReferenceAxisInputScan(const Operation& op, const AxisInputScanNames& names) {
  const TensorData& data = *op.Tensor(names.data);
  const int64_t rank = data.desc.rank();
  const TensorData* axis_tensor = op.Tensor(names.axis);
  if (axis_tensor == nullptr && !names.absent_axis)
    return {{}, std::string("the ") + names.axis + " input is required", std::nullopt};
  const int64_t axis =
      axis_tensor == nullptr
          ? *names.absent_axis
          : BitsToInt64(axis_tensor->desc.dtype,
                        LoadBits(axis_tensor->desc.dtype, axis_tensor->bytes.data()));
  if (axis < -rank || axis >= rank)
    return {{},
            "axis " + std::to_string(axis) + " is outside [-" + std::to_string(rank) + ", " +
                std::to_string(rank - 1) + "]",
            std::nullopt};
  ScanParams params;
  params.op = Accumulation::kSum;
  params.axis = static_cast<unsigned>(axis < 0 ? axis + rank : axis);
  params.exclusive = op.Param("exclusive").value_or(0) != 0;
  params.reverse = op.Param("reverse").value_or(0) != 0;
  return {{ReferenceScan(data, op.Tensor(names.output)->desc, names.output, params)},
          std::nullopt,
          std::nullopt};
}

}  // namespace opcts
