// The scan kernel shared by DML_CUMULATIVE_SUMMATION, DML_CUMULATIVE_PRODUCT and OpenVINO
// CumSum-3: every line along the axis is scanned in blocks of kScanBlock elements, each block
// from the identity, then offset by the carry (the combined total of the blocks before it), the
// structure of the SIMD and GPU kernels whose bugs the mutants model.
//
//   ScanPlan plan = MakeScanPlan(ReadLayout(in_desc), WriteLayout(out_desc), axis);
//   RunScan(plan, {ScanOp::kSum, /*reverse=*/false, /*exclusive=*/true}, in_desc.data_type, in,
//   out);
#pragma once

#include <cstdint>
#include <vector>

#include "backend/layout.h"

namespace opcts::mutant {

inline constexpr uint64_t kScanBlock = 4096;

enum class ScanOp { kSum, kProduct };

struct ScanParams {
  ScanOp op = ScanOp::kSum;
  bool reverse = false;
  bool exclusive = false;
};

// Where the lines along the axis start, in elements, in the input and the output: what a GPU
// backend would bake into a pipeline, so the plugin caches plans per descriptor.
struct ScanPlan {
  uint32_t axis = 0;
  uint64_t length = 1;                 // elements per line
  uint64_t in_step = 0, out_step = 0;  // strides along the axis
  std::vector<uint64_t> in_bases, out_bases;
};

ScanPlan MakeScanPlan(const Layout& in, const Layout& out, uint32_t axis);

// `in` may be a copy of the output's buffer (in place) but never the output itself.
void RunScan(const ScanPlan& plan, const ScanParams& params, uint32_t data_type, const uint8_t* in,
             uint8_t* out);

}  // namespace opcts::mutant
