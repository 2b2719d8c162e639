#include "common/family_views.h"

#include <cstring>

#include "common/plugin_support.h"

static_assert(static_cast<uint32_t>(opcts::plugin::ScatterReduction::kAdd) ==
                      OPCTS_SCATTER_REDUCTION_ADD &&
                  static_cast<uint32_t>(opcts::plugin::ScatterReduction::kMul) ==
                      OPCTS_SCATTER_REDUCTION_MUL &&
                  static_cast<uint32_t>(opcts::plugin::ScatterReduction::kMax) ==
                      OPCTS_SCATTER_REDUCTION_MAX &&
                  static_cast<uint32_t>(opcts::plugin::ScatterReduction::kMin) ==
                      OPCTS_SCATTER_REDUCTION_MIN,
              "the family's reduction order is the ABI's");

namespace opcts::plugin {
namespace {

ViewTensor Tensor(const abi::Operator& op, const void* desc, const char* role) {
  const abi::Field* f = op.RoleField(role);
  if (f == nullptr || !f->is_tensor) return {};
  return {f->ReadTensor(desc), f->name, static_cast<uint32_t>(f->binding)};
}

uint32_t Param(const abi::Operator& op, const void* desc, const char* role, uint32_t absent) {
  const abi::Field* f = op.RoleField(role);
  return f != nullptr && !f->is_tensor ? f->ReadUInt32(desc) : absent;
}

}  // namespace

ScanView ReadScan(const abi::Operator& op, const void* desc) {
  ScanView v;
  v.input = Tensor(op, desc, "input");
  v.output = Tensor(op, desc, "output");
  if (const abi::Field* axis = op.RoleField("axis")) {
    v.axis_name = axis->name;
    v.axis_is_tensor = axis->is_tensor;
    if (axis->is_tensor)
      v.axis_tensor = Tensor(op, desc, "axis");
    else
      v.axis_field = axis->ReadUInt32(desc);
  }
  v.reverse = Param(op, desc, "reverse", 0);
  v.exclusive = Param(op, desc, "exclusive", 0);
  v.product = std::strcmp(op.combine, "product") == 0;
  return v;
}

ScatterView ReadScatter(const abi::Operator& op, const void* desc) {
  ScatterView v;
  v.input = Tensor(op, desc, "input");
  v.indices = Tensor(op, desc, "indices");
  v.updates = Tensor(op, desc, "updates");
  v.output = Tensor(op, desc, "output");
  v.has_dimension_counts = op.RoleField("input_dimension_count") != nullptr;
  const uint32_t input_rank = v.input.desc ? v.input.desc->dimension_count : 0;
  const uint32_t indices_rank = v.indices.desc ? v.indices.desc->dimension_count : 0;
  v.input_dimension_count = Param(op, desc, "input_dimension_count", input_rank);
  v.indices_dimension_count = Param(op, desc, "indices_dimension_count", indices_rank);
  v.reduction = Param(op, desc, "reduction", 0);
  return v;
}

Result<uint32_t> ResolveScanAxis(const ScanView& scan, const opcts_binding* bindings) {
  const int64_t rank = scan.input.desc->dimension_count;
  int64_t value = scan.axis_field;
  if (scan.axis_is_tensor) {
    value = 0;
    if (const opcts_tensor_desc* t = scan.axis_tensor.desc) {
      const size_t size = t->data_type == OPCTS_DTYPE_INT32   ? 4
                          : t->data_type == OPCTS_DTYPE_INT64 ? 8
                                                              : 0;
      const opcts_binding& b = bindings[scan.axis_tensor.binding];
      if (size == 0 || b.data == nullptr || b.size_in_bytes < size)
        return InvalidInput(std::string("the ") + scan.axis_name +
                            " binding holds no INT32 or INT64 scalar");
      if (size == 4) {
        int32_t v32 = 0;
        std::memcpy(&v32, b.data, 4);
        value = v32;
      } else {
        std::memcpy(&value, b.data, 8);
      }
    }
  }
  if (value < -rank || value >= rank)
    return InvalidInput(std::string(scan.axis_name) + " " + std::to_string(value) +
                        " is outside [" + std::to_string(scan.axis_is_tensor ? -rank : 0) + ", " +
                        std::to_string(rank) + ") for " + scan.input.name + ".DimensionCount " +
                        std::to_string(rank));
  return static_cast<uint32_t>(value < 0 ? value + rank : value);
}

}  // namespace opcts::plugin
