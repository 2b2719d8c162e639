#include "common/plugin_support.h"

#include <bit>
#include <cstring>

namespace opcts::plugin {
namespace {

constexpr uint32_t kMaxRank = 8;
constexpr uint64_t kMaxElements = 0xFFFFFFFFull;  // DirectML: at most 2^32 - 1 elements

std::string Str(uint64_t v) { return std::to_string(v); }

bool IsKnownDType(uint32_t data_type) { return DTypeSize(data_type) != 0; }

bool IsIntegerDType(uint32_t t) {
  switch (t) {
    case OPCTS_DTYPE_INT8:
    case OPCTS_DTYPE_INT16:
    case OPCTS_DTYPE_INT32:
    case OPCTS_DTYPE_INT64:
    case OPCTS_DTYPE_UINT8:
    case OPCTS_DTYPE_UINT16:
    case OPCTS_DTYPE_UINT32:
    case OPCTS_DTYPE_UINT64:
      return true;
    default:
      return false;
  }
}

// Collects the first violation; later checks are skipped once one is found so the message
// names the root cause rather than its consequences.
class Checker {
 public:
  explicit Checker(std::string* message) : message_(message) {}
  bool ok() const { return ok_; }
  bool Fail(const std::string& text) {
    if (ok_ && message_ != nullptr) *message_ = text;
    ok_ = false;
    return false;
  }
  int32_t Status() const { return ok_ ? OPCTS_STATUS_OK : OPCTS_STATUS_INVALID; }

 private:
  std::string* message_;
  bool ok_ = true;
};

// Every rule of DML_BUFFER_TENSOR_DESC. `allow_scalar` admits rank 0 (OpenVINO's axis input).
bool CheckTensor(Checker& c, const opcts_tensor_desc* t, const std::string& name,
                 bool allow_scalar) {
  if (t == nullptr) return c.Fail(name + " is null");
  const uint32_t rank = t->dimension_count;
  if (!IsKnownDType(t->data_type))
    return c.Fail(name + ".DataType " + Str(t->data_type) + " is not a known data type");
  if (rank == 0 && !allow_scalar) return c.Fail(name + ".DimensionCount is 0");
  if (rank > kMaxRank)
    return c.Fail(name + ".DimensionCount " + Str(rank) + " exceeds " + Str(kMaxRank));
  if (rank > 0 && t->sizes == nullptr) return c.Fail(name + ".Sizes is null");
  uint64_t elements = 1;
  uint64_t last_index = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint32_t size = t->sizes[d];
    if (size == 0) return c.Fail(name + ".Sizes[" + Str(d) + "] is 0");
    elements *= size;
    if (elements > kMaxElements) return c.Fail(name + " has more than 2^32-1 elements");
    const uint64_t stride = t->strides != nullptr ? t->strides[d] : 0;
    // Each term is below 2^64 - 2^33 and the running sum stays at most 2^32 before the check,
    // so the sum cannot wrap.
    last_index += uint64_t{size - 1} * stride;
    if (last_index >= kMaxElements)
      return c.Fail(name + ".Strides address more than 2^32-1 elements");
  }
  if (t->strides == nullptr) last_index = elements - 1;
  const uint64_t element_size = DTypeSize(t->data_type);
  const uint64_t implied = ((last_index + 1) * element_size + 3) / 4 * 4;
  if (t->total_tensor_size_in_bytes < implied)
    return c.Fail(name + ".TotalTensorSizeInBytes " + Str(t->total_tensor_size_in_bytes) +
                  " is below the implied minimum " + Str(implied));
  const uint32_t alignment = t->guaranteed_base_offset_alignment;
  if (alignment != 0 && (!std::has_single_bit(alignment) || alignment < element_size))
    return c.Fail(name + ".GuaranteedBaseOffsetAlignment " + Str(alignment) +
                  " is not 0 or a power of two at least the element size " + Str(element_size));
  return true;
}

bool CheckBool(Checker& c, uint32_t value, const char* name) {
  return value <= 1 || c.Fail(std::string(name) + " is " + Str(value) + ", not 0 or 1");
}

bool CheckSameDType(Checker& c, const opcts_tensor_desc& a, const char* a_name,
                    const opcts_tensor_desc& b, const char* b_name) {
  return a.data_type == b.data_type ||
         c.Fail(std::string(b_name) + ".DataType " + Str(b.data_type) + " differs from " + a_name +
                ".DataType " + Str(a.data_type));
}

bool CheckSameRank(Checker& c, const opcts_tensor_desc& a, const char* a_name,
                   const opcts_tensor_desc& b, const char* b_name) {
  return a.dimension_count == b.dimension_count ||
         c.Fail(std::string(b_name) + ".DimensionCount " + Str(b.dimension_count) +
                " differs from " + a_name + ".DimensionCount " + Str(a.dimension_count));
}

// Assumes equal ranks (checked first).
bool CheckSameSizes(Checker& c, const opcts_tensor_desc& a, const char* a_name,
                    const opcts_tensor_desc& b, const char* b_name) {
  for (uint32_t d = 0; d < a.dimension_count; ++d)
    if (a.sizes[d] != b.sizes[d])
      return c.Fail(std::string(b_name) + ".Sizes[" + Str(d) + "] is " + Str(b.sizes[d]) + " but " +
                    a_name + ".Sizes[" + Str(d) + "] is " + Str(a.sizes[d]));
  return true;
}

// Input and output: same dtype, rank and sizes.
bool CheckSameShape(Checker& c, const opcts_tensor_desc& in, const char* in_name,
                    const opcts_tensor_desc& out, const char* out_name) {
  return CheckSameDType(c, in, in_name, out, out_name) &&
         CheckSameRank(c, in, in_name, out, out_name) &&
         CheckSameSizes(c, in, in_name, out, out_name);
}

void CheckCumulative(Checker& c, const opcts_dml_cumulative_desc& d) {
  if (!CheckTensor(c, d.input, "InputTensor", false) ||
      !CheckTensor(c, d.output, "OutputTensor", false) ||
      !CheckSameShape(c, *d.input, "InputTensor", *d.output, "OutputTensor"))
    return;
  if (d.axis >= d.input->dimension_count) {
    c.Fail("Axis " + Str(d.axis) + " is not less than InputTensor.DimensionCount " +
           Str(d.input->dimension_count));
    return;
  }
  if (d.axis_direction > OPCTS_AXIS_DIRECTION_DECREASING) {
    c.Fail("AxisDirection " + Str(d.axis_direction) + " is not INCREASING (0) or DECREASING (1)");
    return;
  }
  CheckBool(c, d.has_exclusive, "HasExclusive");
}

// Leading dimensions outside the meaningful trailing `meaningful` ones must be 1.
bool CheckLeadingOnes(Checker& c, const opcts_tensor_desc& t, const char* name, uint32_t meaningful,
                      const char* count_name) {
  const uint32_t rank = t.dimension_count;
  for (uint32_t d = 0; d + meaningful < rank; ++d)
    if (t.sizes[d] != 1)
      return c.Fail(std::string(name) + ".Sizes[" + Str(d) + "] is " + Str(t.sizes[d]) +
                    " but must be 1 outside the last " + count_name + " " + Str(meaningful) +
                    " dimensions");
  return true;
}

void CheckScatterND(Checker& c, const opcts_dml_scatter_nd_desc& d) {
  if (!CheckTensor(c, d.input, "InputTensor", false) ||
      !CheckTensor(c, d.indices, "IndicesTensor", false) ||
      !CheckTensor(c, d.updates, "UpdatesTensor", false) ||
      !CheckTensor(c, d.output, "OutputTensor", false))
    return;
  const opcts_tensor_desc& in = *d.input;
  const opcts_tensor_desc& idx = *d.indices;
  const opcts_tensor_desc& upd = *d.updates;
  if (!CheckSameRank(c, in, "InputTensor", idx, "IndicesTensor") ||
      !CheckSameRank(c, in, "InputTensor", upd, "UpdatesTensor") ||
      !CheckSameShape(c, in, "InputTensor", *d.output, "OutputTensor") ||
      !CheckSameDType(c, in, "InputTensor", upd, "UpdatesTensor"))
    return;
  if (!IsIntegerDType(idx.data_type)) {
    c.Fail("IndicesTensor.DataType " + Str(idx.data_type) + " is not an integer type");
    return;
  }
  const uint32_t rank = in.dimension_count;
  const uint32_t k_in = d.input_dimension_count;
  const uint32_t k_idx = d.indices_dimension_count;
  // The document's half-open [1, DimensionCount) is a known defect: its examples use k == rank.
  if (k_in < 1 || k_in > rank) {
    c.Fail("InputDimensionCount " + Str(k_in) + " is outside [1, InputTensor.DimensionCount " +
           Str(rank) + "]");
    return;
  }
  if (k_idx < 1 || k_idx > rank) {
    c.Fail("IndicesDimensionCount " + Str(k_idx) + " is outside [1, IndicesTensor.DimensionCount " +
           Str(rank) + "]");
    return;
  }
  if (!CheckLeadingOnes(c, in, "InputTensor", k_in, "InputDimensionCount") ||
      !CheckLeadingOnes(c, idx, "IndicesTensor", k_idx, "IndicesDimensionCount"))
    return;
  const uint32_t q = idx.sizes[rank - 1];
  if (q > k_in) {
    c.Fail("IndicesTensor.Sizes[" + Str(rank - 1) + "] (index tuple size) " + Str(q) +
           " exceeds InputDimensionCount " + Str(k_in));
    return;
  }
  // The document's printed formula takes input sizes from [rank - q ..], which contradicts its
  // own example; the example's reading (skip the first q meaningful input dims) is used here.
  std::vector<uint32_t> expected(idx.sizes + (rank - k_idx), idx.sizes + (rank - 1));
  expected.insert(expected.end(), in.sizes + (rank - k_in + q), in.sizes + rank);
  if (expected.size() > rank) {
    c.Fail("UpdatesTensor would need " + Str(expected.size()) +
           " dimensions (IndicesDimensionCount - 1 + InputDimensionCount - tuple size) but "
           "DimensionCount is " +
           Str(rank));
    return;
  }
  expected.insert(expected.begin(), rank - expected.size(), 1u);
  for (uint32_t i = 0; i < rank; ++i)
    if (upd.sizes[i] != expected[i]) {
      c.Fail("UpdatesTensor.Sizes[" + Str(i) + "] is " + Str(upd.sizes[i]) + " but " +
             Str(expected[i]) + " is expected from the indices and input sizes");
      return;
    }
}

void CheckOpenVINOCumSum(Checker& c, const opcts_openvino_cumsum_desc& d) {
  if (!CheckTensor(c, d.data, "data", false) || !CheckTensor(c, d.output, "output", false) ||
      !CheckSameShape(c, *d.data, "data", *d.output, "output"))
    return;
  if (d.axis != nullptr) {
    if (!CheckTensor(c, d.axis, "axis", true)) return;
    if (d.axis->dimension_count != 0) {
      c.Fail("axis.DimensionCount " + Str(d.axis->dimension_count) + " is not 0 (a scalar)");
      return;
    }
    if (d.axis->data_type != OPCTS_DTYPE_INT32 && d.axis->data_type != OPCTS_DTYPE_INT64) {
      c.Fail("axis.DataType " + Str(d.axis->data_type) + " is not INT32 or INT64");
      return;
    }
  }
  if (!CheckBool(c, d.exclusive, "exclusive")) return;
  CheckBool(c, d.reverse, "reverse");
}

// The tensors of an operator in binding order, nullptr where an optional one is absent.
std::vector<std::pair<const opcts_tensor_desc*, const char*>> BoundTensors(
    const opcts_op_desc& op) {
  switch (op.type) {
    case OPCTS_OP_DML_CUMULATIVE_SUMMATION:
    case OPCTS_OP_DML_CUMULATIVE_PRODUCT: {
      const auto& d = *static_cast<const opcts_dml_cumulative_desc*>(op.desc);
      return {{d.input, "InputTensor"}, {d.output, "OutputTensor"}};
    }
    case OPCTS_OP_DML_SCATTER_ND: {
      const auto& d = *static_cast<const opcts_dml_scatter_nd_desc*>(op.desc);
      return {{d.input, "InputTensor"},
              {d.indices, "IndicesTensor"},
              {d.updates, "UpdatesTensor"},
              {d.output, "OutputTensor"}};
    }
    case OPCTS_OP_OPENVINO_CUMSUM_3: {
      const auto& d = *static_cast<const opcts_openvino_cumsum_desc*>(op.desc);
      return {{d.data, "data"}, {d.axis, "axis"}, {d.output, "output"}};
    }
    default:
      return {};
  }
}

}  // namespace

void WriteMessage(const std::string& text, char* buffer, size_t capacity) {
  if (buffer == nullptr || capacity == 0) return;
  const size_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

size_t DTypeSize(uint32_t data_type) {
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

int32_t CheckDescriptor(const opcts_op_desc& op, std::string* message) {
  Checker c(message);
  if (op.desc == nullptr) {
    c.Fail("opcts_op_desc.desc is null");
    return c.Status();
  }
  switch (op.type) {
    case OPCTS_OP_DML_CUMULATIVE_SUMMATION:
    case OPCTS_OP_DML_CUMULATIVE_PRODUCT:
      CheckCumulative(c, *static_cast<const opcts_dml_cumulative_desc*>(op.desc));
      break;
    case OPCTS_OP_DML_SCATTER_ND:
      CheckScatterND(c, *static_cast<const opcts_dml_scatter_nd_desc*>(op.desc));
      break;
    case OPCTS_OP_OPENVINO_CUMSUM_3:
      CheckOpenVINOCumSum(c, *static_cast<const opcts_openvino_cumsum_desc*>(op.desc));
      break;
    default:
      // An operator this plugin does not know may be one the ABI gained after it was built:
      // not supported, rather than invalid (backend.h's version policy).
      if (message != nullptr)
        *message = "operator type " + Str(op.type) + " is not one this backend knows";
      return OPCTS_STATUS_NOT_SUPPORTED;
  }
  return c.Status();
}

int32_t CheckBindings(const opcts_op_desc& op, const opcts_binding* bindings, uint32_t count,
                      std::string* message) {
  Checker c(message);
  if (op.desc == nullptr) {
    c.Fail("opcts_op_desc.desc is null");
    return c.Status();
  }
  const auto tensors = BoundTensors(op);
  if (tensors.empty()) {
    c.Fail("opcts_op_desc.type " + Str(op.type) + " is not a known operator");
  } else if (count != tensors.size()) {
    c.Fail("binding_count " + Str(count) + " is not " + Str(tensors.size()));
  } else if (bindings == nullptr) {
    c.Fail("bindings is null");
  } else {
    for (uint32_t i = 0; i < count && c.ok(); ++i) {
      const auto [desc, name] = tensors[i];
      if (desc == nullptr) continue;  // an absent optional input: its binding is ignored
      const std::string where = "bindings[" + Str(i) + "] (" + name + ")";
      if (bindings[i].data == nullptr) {
        c.Fail(where + ".data is null");
      } else if (bindings[i].size_in_bytes != desc->total_tensor_size_in_bytes) {
        c.Fail(where + ".size_in_bytes " + Str(bindings[i].size_in_bytes) + " differs from " +
               name + ".TotalTensorSizeInBytes " + Str(desc->total_tensor_size_in_bytes));
      }
    }
  }
  return c.Status();
}

int32_t CheckOpenVINOAxis(const opcts_openvino_cumsum_desc& desc, const opcts_binding& axis_binding,
                          uint32_t* axis, std::string* message) {
  Checker c(message);
  if (desc.data == nullptr) {
    c.Fail("data is null");
    return c.Status();
  }
  const int64_t rank = desc.data->dimension_count;
  int64_t value = 0;
  if (desc.axis != nullptr) {
    const uint32_t type = desc.axis->data_type;
    const size_t size = type == OPCTS_DTYPE_INT32 ? 4 : type == OPCTS_DTYPE_INT64 ? 8 : 0;
    if (size == 0) {
      c.Fail("axis.DataType " + Str(type) + " is not INT32 or INT64");
      return c.Status();
    }
    if (axis_binding.data == nullptr || axis_binding.size_in_bytes < size) {
      c.Fail("the axis binding holds no " + Str(size) + "-byte scalar");
      return c.Status();
    }
    if (size == 4) {
      int32_t v32 = 0;
      std::memcpy(&v32, axis_binding.data, 4);
      value = v32;
    } else {
      std::memcpy(&value, axis_binding.data, 8);
    }
  }
  if (value < -rank || value >= rank) {
    c.Fail("axis value " + std::to_string(value) + " is outside [-" + Str(rank) + ", " + Str(rank) +
           ") for data.DimensionCount " + Str(rank));
    return c.Status();
  }
  if (axis != nullptr) *axis = static_cast<uint32_t>(value < 0 ? value + rank : value);
  return c.Status();
}

TensorLayout MakeLayout(const opcts_tensor_desc& desc) {
  TensorLayout layout;
  layout.data_type = desc.data_type;
  const uint32_t rank = desc.sizes != nullptr ? desc.dimension_count : 0;
  layout.sizes.assign(desc.sizes, desc.sizes + rank);
  layout.strides.resize(rank);
  uint64_t packed_stride = 1;
  for (uint32_t d = rank; d-- > 0;) {
    const uint32_t stride =
        desc.strides != nullptr ? desc.strides[d] : static_cast<uint32_t>(packed_stride);
    layout.strides[d] = stride;
    // A size-1 dimension never steps, so its stride does not affect the layout.
    if (layout.sizes[d] != 1 && stride != packed_stride) layout.packed = false;
    packed_stride *= layout.sizes[d];
  }
  layout.element_count = packed_stride;
  return layout;
}

}  // namespace opcts::plugin
