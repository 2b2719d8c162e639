// The scan shared by every cumulative operator: walk each line along `axis`, keep the exact
// running result and the error bound of the accuracy model, emit one expectation per element.
#pragma once

#include "reference/reference.h"

namespace opcts {

enum class ScanOp { kSum, kProduct };

struct ScanParams {
  ScanOp op = ScanOp::kSum;
  unsigned axis = 0;
  bool reverse = false;    // traverse by descending index
  bool exclusive = false;  // the current element is not part of its own tally
};

ExpectedTensor ReferenceScan(const TensorData& input, const TensorDesc& output_desc,
                             const std::string& output_name, const ScanParams& params);

}  // namespace opcts
