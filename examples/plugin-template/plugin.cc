// my-opcts-plugin: a minimal opcts backend, the starting point for a vendor's own.
//
// opcts loads this library with dlopen, calls opcts_backend_entry() for a table of C functions
// and drives it: create -> get_info -> { query -> execute }* -> destroy. Everything crossing the
// boundary is plain C (opcts/backend.h); no C++ exception may escape, so each entry point below
// catches everything and answers OPCTS_STATUS_ERROR.
//
// It implements DML_CUMULATIVE_SUMMATION for FLOAT32. Every other operator or data type is
// NOT_SUPPORTED; a descriptor that breaks the operator's rules is INVALID, with the field named.
#include <cstdio>
#include <string>

#include "cumsum_float32.h"
#include "opcts/backend.h"
#include "validate.h"

namespace my_plugin {
namespace {

constexpr const char* kName = "my-opcts-plugin";

// The DirectML feature level claimed. 1_0 promises nothing, so opcts judges the cumulative
// summation cases this plugin does answer as extra support. Raise it only once every case at the
// new level passes (see README.md).
constexpr uint32_t kFeatureLevel = OPCTS_FEATURE_LEVEL(1, 0);

// Per-instance state: a real plugin keeps its device, queues and compiled kernels here.
struct Instance {};

// Copies `text` into the harness-owned buffer, truncated and always NUL-terminated.
void WriteMessage(const char* text, char* message, size_t capacity) {
  if (message != nullptr && capacity > 0) std::snprintf(message, capacity, "%s", text);
}

// Support, decided from the descriptor alone: INVALID first (a broken descriptor is broken
// whoever runs it), then NOT_SUPPORTED for what this plugin does not implement.
int32_t Check(const opcts_op_desc* op, std::string* message) {
  if (op == nullptr) {
    *message = "op is null";
    return OPCTS_STATUS_INVALID;
  }
  if (op->type != OPCTS_OP_DML_CUMULATIVE_SUMMATION) {
    *message = std::string(kName) + " implements only DML_CUMULATIVE_SUMMATION (op type " +
               std::to_string(op->type) + " asked)";
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
  const auto* desc = static_cast<const opcts_dml_cumulative_desc*>(op->desc);
  if (int32_t status = ValidateCumulativeDesc(desc, message); status != OPCTS_STATUS_OK)
    return status;
  if (desc->input->data_type != OPCTS_DTYPE_FLOAT32) {
    *message = std::string(kName) + " implements DML_CUMULATIVE_SUMMATION for FLOAT32 only (" +
               DTypeName(desc->input->data_type) + " asked)";
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
  return OPCTS_STATUS_OK;
}

int32_t Run(const opcts_op_desc* op, const opcts_binding* bindings, uint32_t binding_count,
            std::string* message) {
  if (int32_t status = Check(op, message); status != OPCTS_STATUS_OK) return status;
  const auto& desc = *static_cast<const opcts_dml_cumulative_desc*>(op->desc);
  if (int32_t status = ValidateBindings(desc, bindings, binding_count, message);
      status != OPCTS_STATUS_OK)
    return status;
  CumulativeSumFloat32(desc, bindings[0].data, bindings[1].data);
  return OPCTS_STATUS_OK;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  if (instance == nullptr) {
    WriteMessage("instance is null", message, capacity);
    return OPCTS_STATUS_INVALID;
  }
  if (options != nullptr && options[0] != '\0') {  // parse "key=value;..." here if you take any
    WriteMessage("my-opcts-plugin takes no options", message, capacity);
    return OPCTS_STATUS_INVALID;
  }
  try {
    *instance = new Instance;
  } catch (...) {
    WriteMessage("out of memory creating the instance", message, capacity);
    return OPCTS_STATUS_ERROR;
  }
  WriteMessage("", message, capacity);
  return OPCTS_STATUS_OK;
}

void Destroy(void* instance) { delete static_cast<Instance*>(instance); }

int32_t GetInfo(void*, opcts_backend_info* info) {
  if (info == nullptr) return OPCTS_STATUS_INVALID;
  info->name = kName;
  info->version = "0.1";
  info->device = "scalar CPU (template)";
  info->feature_level = kFeatureLevel;
  info->extra_support = "";  // e.g. "openvino.opset3" once OpenVINO CumSum-3 is implemented
  info->details = "";
  return OPCTS_STATUS_OK;
}

int32_t Query(void*, const opcts_op_desc* op, char* message, size_t capacity) {
  try {
    std::string text;
    const int32_t status = Check(op, &text);
    WriteMessage(text.c_str(), message, capacity);
    return status;
  } catch (...) {  // std::bad_alloc from building a message
    WriteMessage("query failed: out of memory", message, capacity);
    return OPCTS_STATUS_ERROR;
  }
}

int32_t Execute(void*, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t binding_count, char* message, size_t capacity) {
  try {
    std::string text;
    const int32_t status = Run(op, bindings, binding_count, &text);
    WriteMessage(text.c_str(), message, capacity);
    return status;
  } catch (...) {
    WriteMessage("execute failed: out of memory", message, capacity);
    return OPCTS_STATUS_ERROR;
  }
}

const opcts_backend_api kApi = {
    OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy, GetInfo, Query, Execute,
};

}  // namespace
}  // namespace my_plugin

// The one exported symbol (OPCTS_EXPORT in the header; everything else is hidden).
extern "C" const opcts_backend_api* opcts_backend_entry(void) { return &my_plugin::kApi; }
