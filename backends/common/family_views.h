// An operator descriptor seen through its family's roles (spec/families.h): the few facts a scan
// or a scatter kernel needs, whichever operator of the family the descriptor is. Built-in
// backends implement families, not operators; the operator table says which field is which.
//
//   const abi::Operator* op = abi::FindOperator(desc.type);
//   if (std::string_view(op->family) == "scan") {
//     const ScanView scan = ReadScan(*op, desc.desc);
//     OPCTS_ASSIGN_OR_RETURN(const uint32_t axis, ResolveScanAxis(scan, bindings));
//   }
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "common/operator_table.h"
#include "opcts/backend.h"

namespace opcts::plugin {

// A tensor of the view: its desc (NULL for an absent optional input), spec name and binding.
struct ViewTensor {
  const opcts_tensor_desc* desc = nullptr;
  const char* name = "";
  uint32_t binding = 0;
};

struct ScanView {
  ViewTensor input, output;
  // The axis: a descriptor field (axis_field), or a scalar input read at execute (axis_is_tensor).
  uint32_t axis_field = 0;
  const char* axis_name = "";
  ViewTensor axis_tensor;
  bool axis_is_tensor = false;
  uint32_t reverse = 0, exclusive = 0;  // raw field values (0 or 1 once checked)
  bool product = false;                 // the combine: * instead of +
};

struct ScatterView {
  ViewTensor input, indices, updates, output;
  // DirectML's form: every tensor has one rank, and only the trailing dimension counts matter.
  // Without them (ONNX) both counts are the tensors' ranks.
  bool has_dimension_counts = false;
  uint32_t input_dimension_count = 0, indices_dimension_count = 0;
  uint32_t reduction = 0;  // a ScatterReduction; 0 (none) when the operator has no reduction
};

// The family's reduction role, in the order spec/families.cc fixes for every spec's enum
// (OPCTS_SCATTER_REDUCTION_* of ONNX ScatterND; family_views.cc checks).
enum class ScatterReduction : uint32_t { kNone, kAdd, kMul, kMax, kMin };

ScanView ReadScan(const abi::Operator& op, const void* desc);
ScatterView ReadScatter(const abi::Operator& op, const void* desc);

// The scan's axis in [0, rank): the field, or the scalar input's INT32/INT64 value (negative
// counts from the back; an absent optional input means 0). kInvalidInput with a message when the
// value is outside [-rank, rank) or the binding holds no such scalar.
Result<uint32_t> ResolveScanAxis(const ScanView& scan, const opcts_binding* bindings);

}  // namespace opcts::plugin
