#include "backend/scan.h"

#include <algorithm>

#include "backend/elements.h"

namespace opcts::mutant {
namespace {

template <typename E>
void ScanLine(const ScanPlan& plan, const ScanParams& p, const uint8_t* in, uint8_t* out,
              uint64_t in_base, uint64_t out_base) {
  using Acc = typename E::Acc;
  const bool sum = p.op == ScanOp::kSum;
  // Sums run from -0.0 (0 for integers): IEEE's additive identity, -0.0 + x == x for x == -0.0
  // too, so a line of -0.0 sums to -0.0. An exclusive scan still writes the empty prefix first,
  // +0.0 for a float sum.
  const Acc identity = static_cast<Acc>(sum ? -0.0 : 1);
  const Acc empty = static_cast<Acc>(sum ? 0 : 1);
  const auto combine = [sum](Acc a, Acc b) { return sum ? E::Add(a, b) : E::Multiply(a, b); };
  // What an exclusive scan writes at `step`: the prefix before it.
  const auto exclusive_at = [&](uint64_t step, Acc carry, Acc local) {
    return step == 0 ? empty : combine(carry, local);
  };
  const auto x_at = [&](uint64_t k) { return in + (in_base + k * plan.in_step) * E::kSize; };
  const auto y_at = [&](uint64_t k) { return out + (out_base + k * plan.out_step) * E::kSize; };
  const uint64_t n = plan.length;

  if (n == 1) {  // nothing to accumulate: the element itself, or the identity when exclusive
#ifdef OPCTS_MUTANT_EXCLUSIVE_REVERSE_SIZE1
    // Mutant: "an exclusive scan starts with the identity at index 0" - true only forwards.
    const bool write_identity = p.exclusive && !p.reverse;
#else
    const bool write_identity = p.exclusive;
#endif
    E::Store(y_at(0), write_identity ? empty : E::Load(x_at(0)));
    return;
  }

  Acc carry = identity;  // the blocks before this one, combined
  for (uint64_t begin = 0; begin < n; begin += kScanBlock) {
    const uint64_t end = std::min(n, begin + kScanBlock);
    Acc local = identity;
    for (uint64_t step = begin; step < end; ++step) {
      const uint64_t k = p.reverse ? n - 1 - step : step;
#ifdef OPCTS_MUTANT_EXCLUSIVE_IN_PLACE
      // Mutant: the exclusive step writes its output before reading its input, which in place
      // (the plugin skips the copy) reads the value it has just overwritten.
      if (p.exclusive) {
        E::Store(y_at(k), exclusive_at(step, carry, local));
        local = combine(local, E::Load(x_at(k)));
        continue;
      }
#endif
      const Acc x = E::Load(x_at(k));
      if (p.exclusive) E::Store(y_at(k), exclusive_at(step, carry, local));
      local = combine(local, x);
      if (!p.exclusive) E::Store(y_at(k), combine(carry, local));
    }
#ifdef OPCTS_MUTANT_INPUT_AS_SCRATCH
    // Mutant: the block total is parked in the input (treated as consumed) for the carry pass.
    E::Store(const_cast<uint8_t*>(x_at(p.reverse ? n - 1 - begin : begin)), local);
#endif
#ifndef OPCTS_MUTANT_BLOCK_CARRY_DROPPED
    carry = combine(carry, local);
#endif
  }
#ifdef OPCTS_MUTANT_WRITE_PAST_END
  // Mutant: a contiguous line's total is kept in the slot after it for a later pass; the next
  // line overwrites that slot, except after the last line, where it lies past the output.
  if (plan.out_step == 1) E::Store(y_at(n), carry);
#endif
}

template <typename E>
void ScanLines(const ScanPlan& plan, const ScanParams& p, const uint8_t* in, uint8_t* out) {
  for (size_t i = 0; i < plan.in_bases.size(); ++i)
    ScanLine<E>(plan, p, in, out, plan.in_bases[i], plan.out_bases[i]);
}

}  // namespace

ScanPlan MakeScanPlan(const Layout& in, const Layout& out, uint32_t axis) {
  ScanPlan plan;
  plan.axis = axis;
  plan.length = in.sizes[axis];
  plan.in_step = in.strides[axis];
  plan.out_step = out.strides[axis];
  const size_t rank = in.sizes.size();
  const uint64_t lines = in.element_count / plan.length;
  std::vector<uint32_t> position(rank, 0);  // the line's coordinates; position[axis] stays 0
  for (uint64_t line = 0; line < lines; ++line) {
    uint64_t in_base = 0, out_base = 0;
    for (size_t d = 0; d < rank; ++d) {
      in_base += position[d] * in.strides[d];
      out_base += position[d] * out.strides[d];
    }
    plan.in_bases.push_back(in_base);
    plan.out_bases.push_back(out_base);
    for (size_t d = rank; d-- > 0;) {  // row-major odometer over every dimension but the axis
      if (d == axis) continue;
      if (++position[d] < in.sizes[d]) break;
      position[d] = 0;
    }
  }
  return plan;
}

void RunScan(const ScanPlan& plan, const ScanParams& params, uint32_t data_type, const uint8_t* in,
             uint8_t* out) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64:
      return ScanLines<Float64Element>(plan, params, in, out);
    case OPCTS_DTYPE_FLOAT32:
      return ScanLines<Float32Element>(plan, params, in, out);
    case OPCTS_DTYPE_FLOAT16:
      return ScanLines<Float16Element>(plan, params, in, out);
    case OPCTS_DTYPE_BFLOAT16:
      return ScanLines<BFloat16Element>(plan, params, in, out);
    case OPCTS_DTYPE_INT64:
      return ScanLines<IntElement<int64_t>>(plan, params, in, out);
    case OPCTS_DTYPE_INT32:
      return ScanLines<IntElement<int32_t>>(plan, params, in, out);
    case OPCTS_DTYPE_INT16:
      return ScanLines<IntElement<int16_t>>(plan, params, in, out);
    case OPCTS_DTYPE_INT8:
      return ScanLines<IntElement<int8_t>>(plan, params, in, out);
    case OPCTS_DTYPE_UINT64:
      return ScanLines<IntElement<uint64_t>>(plan, params, in, out);
    case OPCTS_DTYPE_UINT32:
      return ScanLines<IntElement<uint32_t>>(plan, params, in, out);
    case OPCTS_DTYPE_UINT16:
      return ScanLines<IntElement<uint16_t>>(plan, params, in, out);
    case OPCTS_DTYPE_UINT8:
      return ScanLines<IntElement<uint8_t>>(plan, params, in, out);
  }
}

}  // namespace opcts::mutant
