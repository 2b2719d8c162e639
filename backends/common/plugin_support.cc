#include "common/plugin_support.h"

#include <bit>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <sstream>

#include "common/family_views.h"

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

// Each check returns the first violation it finds; callers stop there (OPCTS_TRY), so the
// message names the root cause rather than its consequences.

// Every rule of DML_BUFFER_TENSOR_DESC. `allow_scalar` admits rank 0 (OpenVINO's axis input).
Result<void> CheckTensor(const opcts_tensor_desc* t, const std::string& name, bool allow_scalar) {
  if (t == nullptr) return InvalidInput(name + " is null");
  const uint32_t rank = t->dimension_count;
  if (!IsKnownDType(t->data_type))
    return InvalidInput(name + ".DataType " + Str(t->data_type) + " is not a known data type");
  if (rank == 0 && !allow_scalar) return InvalidInput(name + ".DimensionCount is 0");
  if (rank > kMaxRank)
    return InvalidInput(name + ".DimensionCount " + Str(rank) + " exceeds " + Str(kMaxRank));
  if (rank > 0 && t->sizes == nullptr) return InvalidInput(name + ".Sizes is null");
  uint64_t elements = 1;
  uint64_t last_index = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint32_t size = t->sizes[d];
    if (size == 0) return InvalidInput(name + ".Sizes[" + Str(d) + "] is 0");
    elements *= size;
    if (elements > kMaxElements) return InvalidInput(name + " has more than 2^32-1 elements");
    const uint64_t stride = t->strides != nullptr ? t->strides[d] : 0;
    // Each term is below 2^64 - 2^33 and the running sum stays at most 2^32 before the check,
    // so the sum cannot wrap.
    last_index += uint64_t{size - 1} * stride;
    if (last_index >= kMaxElements)
      return InvalidInput(name + ".Strides address more than 2^32-1 elements");
  }
  if (t->strides == nullptr) last_index = elements - 1;
  const uint64_t element_size = DTypeSize(t->data_type);
  const uint64_t implied = ((last_index + 1) * element_size + 3) / 4 * 4;
  if (t->total_tensor_size_in_bytes < implied)
    return InvalidInput(name + ".TotalTensorSizeInBytes " + Str(t->total_tensor_size_in_bytes) +
                        " is below the implied minimum " + Str(implied));
  const uint32_t alignment = t->guaranteed_base_offset_alignment;
  if (alignment != 0 && (!std::has_single_bit(alignment) || alignment < element_size))
    return InvalidInput(name + ".GuaranteedBaseOffsetAlignment " + Str(alignment) +
                        " is not 0 or a power of two at least the element size " +
                        Str(element_size));
  return {};
}

Result<void> CheckSameDType(const opcts_tensor_desc& a, const char* a_name,
                            const opcts_tensor_desc& b, const char* b_name) {
  if (a.data_type == b.data_type) return {};
  return InvalidInput(std::string(b_name) + ".DataType " + Str(b.data_type) + " differs from " +
                      a_name + ".DataType " + Str(a.data_type));
}

Result<void> CheckSameRank(const opcts_tensor_desc& a, const char* a_name,
                           const opcts_tensor_desc& b, const char* b_name) {
  if (a.dimension_count == b.dimension_count) return {};
  return InvalidInput(std::string(b_name) + ".DimensionCount " + Str(b.dimension_count) +
                      " differs from " + a_name + ".DimensionCount " + Str(a.dimension_count));
}

// Assumes equal ranks (checked first).
Result<void> CheckSameSizes(const opcts_tensor_desc& a, const char* a_name,
                            const opcts_tensor_desc& b, const char* b_name) {
  for (uint32_t d = 0; d < a.dimension_count; ++d)
    if (a.sizes[d] != b.sizes[d])
      return InvalidInput(std::string(b_name) + ".Sizes[" + Str(d) + "] is " + Str(b.sizes[d]) +
                          " but " + a_name + ".Sizes[" + Str(d) + "] is " + Str(a.sizes[d]));
  return {};
}

// Input and output: same dtype, rank and sizes.
Result<void> CheckSameShape(const opcts_tensor_desc& in, const char* in_name,
                            const opcts_tensor_desc& out, const char* out_name) {
  OPCTS_TRY(CheckSameDType(in, in_name, out, out_name));
  OPCTS_TRY(CheckSameRank(in, in_name, out, out_name));
  return CheckSameSizes(in, in_name, out, out_name);
}

// A scan: input and output alike; the axis a field below the rank, or an INT32/INT64 scalar
// input (its value is data: ResolveScanAxis checks it at execute).
Result<void> CheckScan(const ScanView& v) {
  OPCTS_TRY(CheckSameShape(*v.input.desc, v.input.name, *v.output.desc, v.output.name));
  if (!v.axis_is_tensor) {
    if (v.axis_field >= v.input.desc->dimension_count)
      return InvalidInput(std::string(v.axis_name) + " " + Str(v.axis_field) +
                          " is not less than " + v.input.name + ".DimensionCount " +
                          Str(v.input.desc->dimension_count));
    return {};
  }
  const opcts_tensor_desc* axis = v.axis_tensor.desc;
  if (axis != nullptr && axis->data_type != OPCTS_DTYPE_INT32 &&
      axis->data_type != OPCTS_DTYPE_INT64)
    return InvalidInput(std::string(v.axis_name) + ".DataType " + Str(axis->data_type) +
                        " is not INT32 or INT64");
  return {};
}

// Leading dimensions outside the meaningful trailing `meaningful` ones must be 1.
Result<void> CheckLeadingOnes(const opcts_tensor_desc& t, const char* name, uint32_t meaningful,
                              const char* count_name) {
  const uint32_t rank = t.dimension_count;
  for (uint32_t d = 0; d + meaningful < rank; ++d)
    if (t.sizes[d] != 1)
      return InvalidInput(std::string(name) + ".Sizes[" + Str(d) + "] is " + Str(t.sizes[d]) +
                          " but must be 1 outside the last " + count_name + " " + Str(meaningful) +
                          " dimensions");
  return {};
}

// A scatter. DirectML's form: one rank for all four tensors, meaningful trailing dimension counts
// in [1, rank] with leading ones before them, updates right-aligned with leading ones. ONNX's:
// every dimension meaningful, updates exactly indices.sizes[:-1] ++ input.sizes[q:].
Result<void> CheckScatter(const ScatterView& v) {
  const opcts_tensor_desc& in = *v.input.desc;
  const opcts_tensor_desc& idx = *v.indices.desc;
  const opcts_tensor_desc& upd = *v.updates.desc;
  if (v.has_dimension_counts) {
    OPCTS_TRY(CheckSameRank(in, v.input.name, idx, v.indices.name));
    OPCTS_TRY(CheckSameRank(in, v.input.name, upd, v.updates.name));
  }
  OPCTS_TRY(CheckSameShape(in, v.input.name, *v.output.desc, v.output.name));
  OPCTS_TRY(CheckSameDType(in, v.input.name, upd, v.updates.name));
  if (!IsIntegerDType(idx.data_type))
    return InvalidInput(std::string(v.indices.name) + ".DataType " + Str(idx.data_type) +
                        " is not an integer type");
  const uint32_t in_rank = in.dimension_count, idx_rank = idx.dimension_count;
  const uint32_t k_in = v.input_dimension_count;
  const uint32_t k_idx = v.indices_dimension_count;
  if (v.has_dimension_counts) {
    // The document's half-open [1, DimensionCount) is a known defect: its examples use k == rank.
    if (k_in < 1 || k_in > in_rank)
      return InvalidInput("InputDimensionCount " + Str(k_in) + " is outside [1, " + v.input.name +
                          ".DimensionCount " + Str(in_rank) + "]");
    if (k_idx < 1 || k_idx > idx_rank)
      return InvalidInput("IndicesDimensionCount " + Str(k_idx) + " is outside [1, " +
                          v.indices.name + ".DimensionCount " + Str(idx_rank) + "]");
    OPCTS_TRY(CheckLeadingOnes(in, v.input.name, k_in, "InputDimensionCount"));
    OPCTS_TRY(CheckLeadingOnes(idx, v.indices.name, k_idx, "IndicesDimensionCount"));
  }
  const uint32_t q = idx.sizes[idx_rank - 1];
  if (q > k_in)
    return InvalidInput(std::string(v.indices.name) + ".Sizes[" + Str(idx_rank - 1) +
                        "] (index tuple size) " + Str(q) + " exceeds the " + Str(k_in) +
                        " meaningful dimensions of " + v.input.name);
  // DirectML's printed formula takes input sizes from [rank - q ..], which contradicts its own
  // example; the example's reading (skip the first q meaningful input dims) is used here.
  std::vector<uint32_t> expected(idx.sizes + (idx_rank - k_idx), idx.sizes + (idx_rank - 1));
  expected.insert(expected.end(), in.sizes + (in_rank - k_in + q), in.sizes + in_rank);
  const uint32_t upd_rank = upd.dimension_count;
  if (v.has_dimension_counts ? expected.size() > upd_rank : expected.size() != upd_rank)
    return InvalidInput(
        std::string(v.updates.name) + " needs " + Str(expected.size()) +
        " dimensions (indices' meaningful ones but the last, then input's after the "
        "tuple) but its DimensionCount is " +
        Str(upd_rank));
  expected.insert(expected.begin(), upd_rank - expected.size(), 1u);
  for (uint32_t i = 0; i < upd_rank; ++i)
    if (upd.sizes[i] != expected[i])
      return InvalidInput(std::string(v.updates.name) + ".Sizes[" + Str(i) + "] is " +
                          Str(upd.sizes[i]) + " but " + Str(expected[i]) +
                          " is expected from the indices and input sizes");
  return {};
}

// A parameter's value against its value count; the names are read only for the message.
Result<void> CheckValue(const abi::Field& f, uint32_t value) {
  if (f.value_count == 0 || value < f.value_count) return {};
  std::vector<std::string> names;
  std::istringstream words(f.values);
  for (std::string w; words >> w;) names.push_back(w);
  std::string allowed;
  for (size_t i = 0; i < names.size(); ++i)
    allowed += (i ? ", " : "") + (names[i] == Str(i) ? names[i] : names[i] + " (" + Str(i) + ")");
  return InvalidInput(std::string(f.name) + " is " + Str(value) + ", not one of " + allowed);
}

}  // namespace

int32_t AbiStatus(const Error& error) {
  switch (error.code) {
    case ErrorCode::kNotSupported:
      return OPCTS_STATUS_NOT_SUPPORTED;
    case ErrorCode::kInvalidInput:
      return OPCTS_STATUS_INVALID;
    default:
      return OPCTS_STATUS_ERROR;
  }
}

int32_t ReportResult(const Result<void>& result, char* message, size_t capacity) {
  if (result.ok()) {
    WriteMessage("", message, capacity);
    return OPCTS_STATUS_OK;
  }
  WriteMessage(result.error().message, message, capacity);
  return AbiStatus(result.error());
}

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

std::string DTypeName(uint32_t data_type) {
  static constexpr const char* kNames[] = {"",       "FLOAT32", "FLOAT16", "UINT32", "UINT16",
                                           "UINT8",  "INT32",   "INT16",   "INT8",   "FLOAT64",
                                           "UINT64", "INT64",   "BFLOAT16"};
  return data_type != 0 && data_type < std::size(kNames) ? kNames[data_type]
                                                         : std::to_string(data_type);
}

Result<void> CheckDescriptor(const opcts_op_desc& op) {
  if (op.desc == nullptr) return InvalidInput("opcts_op_desc.desc is null");
  const abi::Operator* info = abi::FindOperator(op.type);
  if (info == nullptr) {
    // An operator this plugin does not know may be one the ABI gained after it was built:
    // not supported, rather than invalid (backend.h's version policy).
    return NotSupported("operator type " + Str(op.type) + " is not one this backend knows");
  }
  for (const abi::Field& f : info->fields) {
    if (!f.is_tensor) {
      OPCTS_TRY(CheckValue(f, f.ReadUInt32(op.desc)));
      continue;
    }
    const opcts_tensor_desc* t = f.ReadTensor(op.desc);
    if (t == nullptr && f.optional) continue;
    OPCTS_TRY(CheckTensor(t, f.name, f.scalar));
    if (f.scalar && t->dimension_count != 0)
      return InvalidInput(std::string(f.name) + ".DimensionCount " + Str(t->dimension_count) +
                          " is not 0 (a scalar)");
  }
  const std::string family = info->family;
  if (family == "scan") return CheckScan(ReadScan(*info, op.desc));
  if (family == "scatter_nd") return CheckScatter(ReadScatter(*info, op.desc));
  return NotSupported("operator family " + family + " is not one this backend implements");
}

Result<void> CheckBindings(const opcts_op_desc& op, const opcts_binding* bindings, uint32_t count) {
  if (op.desc == nullptr) return InvalidInput("opcts_op_desc.desc is null");
  const abi::Operator* info = abi::FindOperator(op.type);
  if (info == nullptr)
    return InvalidInput("opcts_op_desc.type " + Str(op.type) + " is not a known operator");
  if (count != info->TensorCount())
    return InvalidInput("binding_count " + Str(count) + " is not " + Str(info->TensorCount()));
  if (bindings == nullptr) return InvalidInput("bindings is null");
  for (const abi::Field& f : info->fields) {
    const opcts_tensor_desc* desc = f.is_tensor ? f.ReadTensor(op.desc) : nullptr;
    if (desc == nullptr) continue;  // a parameter, or an absent optional input (binding ignored)
    const opcts_binding& b = bindings[f.binding];
    const std::string where = "bindings[" + Str(f.binding) + "] (" + f.name + ")";
    if (b.data == nullptr) return InvalidInput(where + ".data is null");
    if (b.size_in_bytes != desc->total_tensor_size_in_bytes)
      return InvalidInput(where + ".size_in_bytes " + Str(b.size_in_bytes) + " differs from " +
                          f.name + ".TotalTensorSizeInBytes " +
                          Str(desc->total_tensor_size_in_bytes));
  }
  return {};
}

namespace {

// Orders the levels of one scheme: DirectML by encoding, opset levels by version.
uint32_t LevelRank(const abi::Level& level) {
  if (level.feature_level != 0) return level.feature_level;
  return static_cast<uint32_t>(std::strtoul(
      level.name + std::strspn(level.name, "abcdefghijklmnopqrstuvwxyz"), nullptr, 10));
}

}  // namespace

Claims ClaimEveryLevel(
    const std::function<bool(const abi::Operator&, const abi::Level&)>& supports) {
  std::map<std::string, std::map<uint32_t, std::string>> candidates;  // scheme -> rank -> level
  for (const abi::Operator& op : abi::Operators())
    for (const abi::Level& level : op.support) candidates[op.scheme][LevelRank(level)] = level.name;
  Claims claims;
  for (const auto& [scheme, levels] : candidates) {
    std::string claimed;
    uint32_t claimed_rank = 0;
    for (const auto& [rank, name] : levels) {
      bool all = true;
      for (const abi::Operator& op : abi::Operators())
        for (const abi::Level& level : op.support)
          all = all && (op.scheme != scheme || LevelRank(level) > rank || supports(op, level));
      if (!all) break;
      claimed = name;
      claimed_rank = rank;
    }
    if (claimed.empty()) continue;
    if (scheme == "directml")
      claims.feature_level = claimed_rank;
    else
      claims.extra_support += (claims.extra_support.empty() ? "" : " ") + scheme + "." + claimed;
  }
  return claims;
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
