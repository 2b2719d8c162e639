// The operator table: every operator of the C ABI as data, generated from spec/*.yaml at build
// time (spec/abi_codegen.cc), with the descriptor structs of opcts/operators.h. Built-in backends
// and the harness read operators through it, by family role, so an operator of a known family
// works everywhere without a line of code naming it.
//
//   const abi::Operator* op = abi::FindOperator(desc.type);   // nullptr: not an operator we know
//   const abi::Field* axis = op->RoleField("axis");
//   uint32_t value = axis->ReadUInt32(desc.desc);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "opcts/backend.h"

namespace opcts::abi {

struct Field {
  const char* member;  // C member: "input_dimension_count"
  const char* name;    // the spec's tensor or parameter: "InputDimensionCount"
  bool is_tensor;      // a `const opcts_tensor_desc*`; otherwise a uint32_t
  bool optional;       // a tensor that may be NULL
  bool scalar;         // a tensor of rank 0 (a scalar_input)
  // A parameter's valid values: 0 .. value_count-1 (bool 2, an enum its names), 0 for a uint32
  // of any value; their names for messages, bool "0 1", enum "INCREASING DECREASING".
  uint32_t value_count;
  const char* values;
  size_t offset;  // offsetof in the descriptor struct
  int binding;    // tensors: the index in execute's bindings; -1 for a parameter

  const opcts_tensor_desc* ReadTensor(const void* desc) const;
  uint32_t ReadUInt32(const void* desc) const;
  void WriteTensor(void* desc, const opcts_tensor_desc* value) const;
  void WriteUInt32(void* desc, uint32_t value) const;
};

struct Role {
  const char* role;  // the family's: "axis"
  const char* name;  // the spec's tensor or parameter: "Axis"
};

struct TensorSupport {
  const char* tensor;
  uint32_t min_rank, max_rank;
  std::vector<uint32_t> data_types;  // OPCTS_DTYPE_*
};

struct ParamSupport {
  const char* param;
  std::vector<uint32_t> values;  // the enum values allowed at this level
};

// One "this level and above" table of the spec.
struct Level {
  const char* name;        // "4_1", "opset14"
  uint32_t feature_level;  // OPCTS_FEATURE_LEVEL encoding for DirectML levels; 0 otherwise
  std::vector<TensorSupport> tensors;
  std::vector<ParamSupport> params;
};

struct Operator {
  uint32_t type;              // OPCTS_OP_*
  const char* name;           // "DML_SCATTER_ND"
  const char* family;         // "scan", "scatter_nd"
  const char* scheme;         // "directml", "openvino", "onnx"
  const char* combine;        // a scan's operation, "sum" or "product"; "" for other families
  size_t desc_size;           // sizeof the descriptor struct
  std::vector<Field> fields;  // struct order
  std::vector<Role> roles;
  std::vector<Level> support;  // ascending
  // The float types whose subnormal inputs and results the scheme's platform lets arithmetic
  // flush to sign-preserved zero (the spec's float_rules); every other type keeps them (IEEE 754).
  std::vector<uint32_t> flushes_subnormals;  // OPCTS_DTYPE_*
  const char* spec_file;                     // "dml_scatter_nd.yaml"
  const char* spec_text;  // the whole spec, for backends that need more than the table

  size_t TensorCount() const;
  const Field* FindField(const std::string& name) const;
  // The field playing `role`, or nullptr when the operator maps none (an optional role).
  const Field* RoleField(const std::string& role) const;
  bool MayFlushSubnormals(uint32_t data_type) const;
};

const std::vector<Operator>& Operators();
const Operator* FindOperator(uint32_t type);
const Operator* FindOperator(const std::string& name);

}  // namespace opcts::abi
