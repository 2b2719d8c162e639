// A scan (cumulative sum or product) computed by torch's kernels, as a framework adapter maps
// DML's and ONNX's attributes onto torch.cumsum / torch.cumprod, which have neither.
#pragma once

#include <cstdint>

#include <ATen/core/Tensor.h>

namespace opcts::torch_cpu {

struct ScanMode {
  bool product = false;    // torch.cumprod; otherwise torch.cumsum
  bool reverse = false;    // DECREASING / reverse=1: flip, scan, flip back
  bool exclusive = false;  // the inclusive scan shifted by one, the identity first
};

// output = the scan of input along `axis` in input's own dtype (at::cumsum / at::cumprod with
// dtype=, so torch does not promote integers to int64). output may alias input: the result is
// computed into a fresh tensor and copied last. Throws c10::Error when torch refuses.
void TorchScan(const at::Tensor& input, const at::Tensor& output, int64_t axis, ScanMode mode);

}  // namespace opcts::torch_cpu
