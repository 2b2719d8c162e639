#include "validate.h"

namespace my_plugin {
namespace {

constexpr uint32_t kMaxRank = 8;
constexpr uint64_t kMaxElements = 0xFFFFFFFFull;  // DirectML: at most 2^32 - 1 elements

uint64_t ElementSize(uint32_t data_type) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64:
    case OPCTS_DTYPE_INT64:
    case OPCTS_DTYPE_UINT64:
      return 8;
    case OPCTS_DTYPE_FLOAT32:
    case OPCTS_DTYPE_INT32:
    case OPCTS_DTYPE_UINT32:
      return 4;
    case OPCTS_DTYPE_FLOAT16:
    case OPCTS_DTYPE_BFLOAT16:
    case OPCTS_DTYPE_INT16:
    case OPCTS_DTYPE_UINT16:
      return 2;
    case OPCTS_DTYPE_INT8:
    case OPCTS_DTYPE_UINT8:
      return 1;
    default:
      return 0;
  }
}

std::string Str(uint64_t v) { return std::to_string(v); }

int32_t Invalid(std::string* message, const std::string& text) {
  *message = text;
  return OPCTS_STATUS_INVALID;
}

// The rules of DML_BUFFER_TENSOR_DESC, for one tensor called `name` in messages.
int32_t ValidateTensor(const opcts_tensor_desc* t, const std::string& name, std::string* message) {
  if (t == nullptr) return Invalid(message, name + " is null");
  const uint64_t element_size = ElementSize(t->data_type);
  if (element_size == 0)
    return Invalid(message, name + ".DataType " + Str(t->data_type) + " is not a known data type");
  if (t->dimension_count < 1 || t->dimension_count > kMaxRank)
    return Invalid(message, name + ".DimensionCount " + Str(t->dimension_count) +
                                " is outside [1, " + Str(kMaxRank) + "]");
  if (t->sizes == nullptr) return Invalid(message, name + ".Sizes is null");

  // Strides are optional (NULL = packed, row-major). The last element sits at
  // dot(Sizes - 1, Strides); the buffer must reach past it, rounded up to 4 bytes.
  uint64_t elements = 1;
  uint64_t last_index = 0;
  uint64_t packed_stride = 1;
  for (uint32_t d = t->dimension_count; d-- > 0;) {
    const uint32_t size = t->sizes[d];
    if (size == 0) return Invalid(message, name + ".Sizes[" + Str(d) + "] is 0");
    elements *= size;
    if (elements > kMaxElements)
      return Invalid(message, name + ".Sizes describe more than 2^32-1 elements");
    const uint64_t stride = t->strides != nullptr ? t->strides[d] : packed_stride;
    // A term is below 2^64 - 2^33 and last_index below 2^32 here, so the sum cannot wrap.
    last_index += (size - 1) * stride;
    if (last_index >= kMaxElements)
      return Invalid(message, name + ".Strides address more than 2^32-1 elements");
    packed_stride *= size;
  }
  const uint64_t implied_bytes = ((last_index + 1) * element_size + 3) / 4 * 4;
  if (t->total_tensor_size_in_bytes < implied_bytes)
    return Invalid(message, name + ".TotalTensorSizeInBytes " + Str(t->total_tensor_size_in_bytes) +
                                " is below the implied minimum " + Str(implied_bytes));

  const uint32_t alignment = t->guaranteed_base_offset_alignment;
  const bool power_of_two = (alignment & (alignment - 1)) == 0;
  if (alignment != 0 && (!power_of_two || alignment < element_size))
    return Invalid(message, name + ".GuaranteedBaseOffsetAlignment " + Str(alignment) +
                                " is not 0 or a power of two at least the element size");
  return OPCTS_STATUS_OK;
}

}  // namespace

int32_t ValidateCumulativeDesc(const opcts_dml_cumulative_desc* desc, std::string* message) {
  if (desc == nullptr) return Invalid(message, "opcts_op_desc.desc is null");
  if (ValidateTensor(desc->input, "InputTensor", message) != OPCTS_STATUS_OK ||
      ValidateTensor(desc->output, "OutputTensor", message) != OPCTS_STATUS_OK)
    return OPCTS_STATUS_INVALID;

  const opcts_tensor_desc& in = *desc->input;
  const opcts_tensor_desc& out = *desc->output;
  if (out.data_type != in.data_type)
    return Invalid(message, std::string("OutputTensor.DataType ") + DTypeName(out.data_type) +
                                " differs from InputTensor.DataType " + DTypeName(in.data_type));
  if (out.dimension_count != in.dimension_count)
    return Invalid(message, "OutputTensor.DimensionCount " + Str(out.dimension_count) +
                                " differs from InputTensor.DimensionCount " +
                                Str(in.dimension_count));
  for (uint32_t d = 0; d < in.dimension_count; ++d)
    if (out.sizes[d] != in.sizes[d])
      return Invalid(message, "OutputTensor.Sizes[" + Str(d) + "] is " + Str(out.sizes[d]) +
                                  " but InputTensor.Sizes[" + Str(d) + "] is " + Str(in.sizes[d]));

  if (desc->axis >= in.dimension_count)
    return Invalid(message, "Axis " + Str(desc->axis) +
                                " is not less than InputTensor.DimensionCount " +
                                Str(in.dimension_count));
  if (desc->axis_direction != OPCTS_AXIS_DIRECTION_INCREASING &&
      desc->axis_direction != OPCTS_AXIS_DIRECTION_DECREASING)
    return Invalid(message, "AxisDirection " + Str(desc->axis_direction) +
                                " is not INCREASING (0) or DECREASING (1)");
  if (desc->has_exclusive > 1)
    return Invalid(message, "HasExclusiveSum " + Str(desc->has_exclusive) + " is not 0 or 1");
  return OPCTS_STATUS_OK;
}

int32_t ValidateBindings(const opcts_dml_cumulative_desc& desc, const opcts_binding* bindings,
                         uint32_t binding_count, std::string* message) {
  if (binding_count != 2)
    return Invalid(message, "binding_count " + Str(binding_count) + " is not 2");
  if (bindings == nullptr) return Invalid(message, "bindings is null");
  const opcts_tensor_desc* tensors[2] = {desc.input, desc.output};
  const char* names[2] = {"InputTensor", "OutputTensor"};
  for (uint32_t i = 0; i < 2; ++i) {
    const std::string where = "bindings[" + Str(i) + "] (" + names[i] + ")";
    if (bindings[i].data == nullptr) return Invalid(message, where + ".data is null");
    if (bindings[i].size_in_bytes != tensors[i]->total_tensor_size_in_bytes)
      return Invalid(message, where + ".size_in_bytes " + Str(bindings[i].size_in_bytes) +
                                  " differs from " + names[i] + ".TotalTensorSizeInBytes " +
                                  Str(tensors[i]->total_tensor_size_in_bytes));
  }
  return OPCTS_STATUS_OK;
}

const char* DTypeName(uint32_t data_type) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT32:
      return "FLOAT32";
    case OPCTS_DTYPE_FLOAT16:
      return "FLOAT16";
    case OPCTS_DTYPE_UINT32:
      return "UINT32";
    case OPCTS_DTYPE_UINT16:
      return "UINT16";
    case OPCTS_DTYPE_UINT8:
      return "UINT8";
    case OPCTS_DTYPE_INT32:
      return "INT32";
    case OPCTS_DTYPE_INT16:
      return "INT16";
    case OPCTS_DTYPE_INT8:
      return "INT8";
    case OPCTS_DTYPE_FLOAT64:
      return "FLOAT64";
    case OPCTS_DTYPE_UINT64:
      return "UINT64";
    case OPCTS_DTYPE_INT64:
      return "INT64";
    case OPCTS_DTYPE_BFLOAT16:
      return "BFLOAT16";
    default:
      return "unknown";
  }
}

}  // namespace my_plugin
