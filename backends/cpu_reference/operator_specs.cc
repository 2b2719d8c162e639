#include "cpu_reference/operator_specs.h"

#include "opcts/backend.h"

namespace opcts::cpu_reference {
namespace {

// Member by member: designated initializers that skip members trip -Wmissing-field-initializers.
ParamSpec Param(const char* name, ParamType type, std::optional<int64_t> default_value = {}) {
  ParamSpec p;
  p.name = name;
  p.type = type;
  p.default_value = default_value;
  return p;
}

TensorSpec Tensor(const char* name, TensorRole role, const char* may_alias = "") {
  TensorSpec t;
  t.name = name;
  t.role = role;
  t.may_alias = may_alias;
  return t;
}

// DML_CUMULATIVE_SUMMATION and DML_CUMULATIVE_PRODUCT differ only in names.
OperatorSpec Cumulative(const char* name, const char* reference, const char* exclusive_param) {
  OperatorSpec spec;
  spec.name = name;
  spec.reference = reference;
  ParamSpec direction = Param("AxisDirection", ParamType::kEnum, 0);
  direction.enum_values = {"INCREASING", "DECREASING"};
  spec.params = {Param("Axis", ParamType::kUInt32), direction,
                 Param(exclusive_param, ParamType::kBool, 0)};
  spec.tensors = {Tensor("InputTensor", TensorRole::kInput),
                  Tensor("OutputTensor", TensorRole::kOutput, "InputTensor")};
  spec.semantics.in_place = true;
  return spec;
}

OperatorSpec ScatterND() {
  OperatorSpec spec;
  spec.name = "DML_SCATTER_ND";
  spec.reference = "scatter_nd";
  spec.params = {Param("InputDimensionCount", ParamType::kUInt32),
                 Param("IndicesDimensionCount", ParamType::kUInt32)};
  spec.tensors = {Tensor("InputTensor", TensorRole::kInput),
                  Tensor("IndicesTensor", TensorRole::kInput),
                  Tensor("UpdatesTensor", TensorRole::kInput),
                  Tensor("OutputTensor", TensorRole::kOutput, "InputTensor")};
  spec.semantics.in_place = true;
  spec.semantics.duplicate_indices_any_candidate = true;
  // The backend claims 5_0, above the level (3_0) where signed indices may count from the end.
  spec.semantics.negative_indices_from_level = "3_0";
  spec.semantics.out_of_range_indices_memory_safe_only = true;
  return spec;
}

OperatorSpec OpenVINOCumSum() {
  OperatorSpec spec;
  spec.name = "OPENVINO_CUMSUM_3";
  spec.reference = "openvino_cumsum";
  spec.scheme = LevelScheme::kOpenVINO;
  spec.params = {Param("exclusive", ParamType::kBool, 0), Param("reverse", ParamType::kBool, 0)};
  TensorSpec axis = Tensor("axis", TensorRole::kScalarInput);
  axis.optional = true;
  spec.tensors = {Tensor("data", TensorRole::kInput), axis, Tensor("output", TensorRole::kOutput)};
  return spec;
}

}  // namespace

const OperatorSpec* SpecFor(uint32_t op_type) {
  static const OperatorSpec kSum =
      Cumulative("DML_CUMULATIVE_SUMMATION", "cumulative_summation", "HasExclusiveSum");
  static const OperatorSpec kProduct =
      Cumulative("DML_CUMULATIVE_PRODUCT", "cumulative_product", "HasExclusiveProduct");
  static const OperatorSpec kScatterND = ScatterND();
  static const OperatorSpec kCumSum = OpenVINOCumSum();
  switch (op_type) {
    case OPCTS_OP_DML_CUMULATIVE_SUMMATION: return &kSum;
    case OPCTS_OP_DML_CUMULATIVE_PRODUCT: return &kProduct;
    case OPCTS_OP_DML_SCATTER_ND: return &kScatterND;
    case OPCTS_OP_OPENVINO_CUMSUM_3: return &kCumSum;
    default: return nullptr;
  }
}

}  // namespace opcts::cpu_reference
