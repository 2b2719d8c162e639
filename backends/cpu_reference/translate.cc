#include "cpu_reference/translate.h"

#include "common/operator_table.h"
#include "cpu_reference/operator_specs.h"

namespace opcts::cpu_reference {
namespace {

TensorDesc ToTensorDesc(const opcts_tensor_desc& d) {
  TensorDesc t;
  t.dtype = static_cast<DType>(d.data_type);
  if (d.dimension_count > 0) {  // a scalar may leave sizes NULL
    t.sizes.assign(d.sizes, d.sizes + d.dimension_count);
    if (d.strides != nullptr) t.strides.assign(d.strides, d.strides + d.dimension_count);
  }
  t.total_bytes = d.total_tensor_size_in_bytes;
  t.alignment = d.guaranteed_base_offset_alignment;
  return t;
}

TensorData Input(const opcts_tensor_desc& d, const opcts_binding& binding) {
  const auto* bytes = static_cast<const uint8_t*>(binding.data);
  return {ToTensorDesc(d), std::vector<uint8_t>(bytes, bytes + d.total_tensor_size_in_bytes)};
}

// The oracle reads only an output's desc.
TensorData Output(const opcts_tensor_desc& d) { return {ToTensorDesc(d), {}}; }

}  // namespace

Translation Translate(const opcts_op_desc& op, const opcts_binding* bindings) {
  Translation t;
  Operation& o = t.operation;
  o.spec = SpecFor(op.type);
  const void* aliased_input = nullptr;
  for (const abi::Field& f : abi::FindOperator(op.type)->fields) {
    if (!f.is_tensor) {
      o.params[f.name] = f.ReadUInt32(op.desc);
      continue;
    }
    const opcts_tensor_desc* desc = f.ReadTensor(op.desc);
    if (desc == nullptr) continue;  // an absent optional input
    const TensorSpec& spec = *o.spec->FindTensor(f.name);
    if (spec.role != TensorRole::kOutput) {
      o.tensors[f.name] = Input(*desc, bindings[f.binding]);
      continue;
    }
    o.tensors[f.name] = Output(*desc);
    t.output_name = f.name;
    t.output = bindings[f.binding];
    if (!spec.may_alias.empty())
      aliased_input = bindings[abi::FindOperator(op.type)->FindField(spec.may_alias)->binding].data;
  }
  o.in_place = aliased_input != nullptr && t.output.data == aliased_input;
  return t;
}

}  // namespace opcts::cpu_reference
