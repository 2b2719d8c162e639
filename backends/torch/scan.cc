#include "torch/scan.h"

#include <vector>

#include <ATen/ATen.h>

namespace opcts::torch_cpu {
namespace {

// The exclusive scan from the inclusive one: the identity (+0.0 or 1), then the inclusive scan
// without its last element. Exact, unlike inclusive - input, which rounds for floats and gives
// NaN after an infinity.
at::Tensor ShiftedByIdentity(const at::Tensor& inclusive, int64_t axis, bool product) {
  std::vector<int64_t> head_sizes = inclusive.sizes().vec();
  head_sizes[axis] = 1;
  const at::Tensor head = product ? at::ones(head_sizes, inclusive.options())
                                  : at::zeros(head_sizes, inclusive.options());
  return at::cat({head, inclusive.narrow(axis, 0, inclusive.size(axis) - 1)}, axis);
}

}  // namespace

void TorchScan(const at::Tensor& input, const at::Tensor& output, int64_t axis, ScanMode mode) {
  const at::Tensor forward = mode.reverse ? input.flip({axis}) : input;
  at::Tensor scanned = mode.product ? at::cumprod(forward, axis, forward.scalar_type())
                                    : at::cumsum(forward, axis, forward.scalar_type());
  if (mode.exclusive) scanned = ShiftedByIdentity(scanned, axis, mode.product);
  output.copy_(mode.reverse ? scanned.flip({axis}) : scanned);
}

}  // namespace opcts::torch_cpu
