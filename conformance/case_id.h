// A case's name, the Vulkan CTS way (op.dtype.rank.variant): every id opcts prints is built and
// read here.
//   generated:  "dml_cumulative_summation.f32.rank4.1x1x3x4.axis3-fwd-incl.packed.random.s1"
//   invalid:    "openvino_cumsum_3.f64.rank1.invalid.alignment-not-power-of-two.s7"
//   property:   "dml_scatter_nd.prop.f16.rank3.2x3x4.in3-idx2-3x1-u32.packed.unique.s42"
// The last part is the seed: the run's for a generated case, the draw's for a property case.
//
//   const CaseId id{OperatorKey(spec), false, DType::kFloat32, 1, {"5", "axis0-fwd-incl"}, 7};
//   Result<CaseId> parsed =
//   CaseId::Parse("dml_cumulative_summation.f32.rank1.5.axis0-fwd-incl.s7");
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "spec/dtype.h"

namespace opcts {

struct CaseId {
  std::string op;                 // the operator key: "dml_cumulative_summation"
  bool property = false;          // drawn by a property test
  DType dtype = DType::kFloat32;  // the data type the case is about
  unsigned rank = 0;
  std::vector<std::string>
      variant;  // the parts after the rank: shape, attributes, layout, values, ...
  uint64_t seed = 0;

  // Without ".s<seed>": what a generated case's data seed is derived from.
  std::string Stem() const;
  std::string ToString() const;
  // An error naming the part that does not fit the scheme above.
  static Result<CaseId> Parse(std::string_view text);
};

}  // namespace opcts
