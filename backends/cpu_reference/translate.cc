#include "cpu_reference/translate.h"

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
  switch (op.type) {
    case OPCTS_OP_DML_CUMULATIVE_SUMMATION:
    case OPCTS_OP_DML_CUMULATIVE_PRODUCT: {
      const auto& d = *static_cast<const opcts_dml_cumulative_desc*>(op.desc);
      o.params["Axis"] = d.axis;
      o.params["AxisDirection"] = d.axis_direction;
      o.params[op.type == OPCTS_OP_DML_CUMULATIVE_SUMMATION ? "HasExclusiveSum"
                                                            : "HasExclusiveProduct"] =
          d.has_exclusive;
      o.tensors["InputTensor"] = Input(*d.input, bindings[0]);
      o.tensors["OutputTensor"] = Output(*d.output);
      t.output_name = "OutputTensor";
      t.output = bindings[1];
      break;
    }
    case OPCTS_OP_DML_SCATTER_ND: {
      const auto& d = *static_cast<const opcts_dml_scatter_nd_desc*>(op.desc);
      o.params["InputDimensionCount"] = d.input_dimension_count;
      o.params["IndicesDimensionCount"] = d.indices_dimension_count;
      o.tensors["InputTensor"] = Input(*d.input, bindings[0]);
      o.tensors["IndicesTensor"] = Input(*d.indices, bindings[1]);
      o.tensors["UpdatesTensor"] = Input(*d.updates, bindings[2]);
      o.tensors["OutputTensor"] = Output(*d.output);
      t.output_name = "OutputTensor";
      t.output = bindings[3];
      break;
    }
    case OPCTS_OP_OPENVINO_CUMSUM_3: {
      const auto& d = *static_cast<const opcts_openvino_cumsum_desc*>(op.desc);
      o.params["exclusive"] = d.exclusive;
      o.params["reverse"] = d.reverse;
      o.tensors["data"] = Input(*d.data, bindings[0]);
      if (d.axis != nullptr) o.tensors["axis"] = Input(*d.axis, bindings[1]);
      o.tensors["output"] = Output(*d.output);
      t.output_name = "output";
      t.output = bindings[2];
      break;
    }
  }
  o.in_place = t.output.data == bindings[0].data;
  return t;
}

}  // namespace opcts::cpu_reference
