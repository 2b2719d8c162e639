// ScatterND, shared by DirectML SCATTER_ND and ONNX ScatterND: output = data, then each index
// tuple's slice of the output is replaced by (or, with a reduction, combined with) its slice of
// updates. The wrappers (dml_scatter_nd.cc, onnx_scatter_nd.cc) say which dimensions of data the
// tuples address.
//
//   ReferenceScatterND({data, indices, updates, output_desc, "output", data.desc.sizes,
//                       ScatterReduction::kAdd}, op.spec->semantics);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/reference.h"
#include "reference/scatter_reduction.h"

namespace opcts {

struct ScatterNDOperands {
  const TensorData& data;
  // Logical row-major order: tuple t's coordinate c is element t * k + c (k: the last size).
  const TensorData& indices;
  // Logical row-major order: element s of tuple t's slice is element t * slice + s.
  const TensorData& updates;
  const TensorDesc& output_desc;
  std::string output_name;
  // The data dimensions the tuples address, all of data's elements in row-major order: ONNX's
  // whole shape, DirectML's meaningful trailing dimensions (the leading ones dropped).
  std::vector<uint32_t> dims;
  ScatterReduction reduction;
};

// Negative indices wrap for signed index types where the spec allows them. With an out-of-range
// tuple each element holds what the in-range tuples give or a value of an out-of-range tuple's
// slice (ExpectedTensor::alternatives), and the data is refusable where the spec says
// memory_safe_only. Updates that do not hold every tuple's slice make the result `invalid`.
ReferenceResult ReferenceScatterND(const ScatterNDOperands& in, const Semantics& semantics);

}  // namespace opcts
