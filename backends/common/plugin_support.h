// Helpers shared by the built-in backends (cpu-reference, cpu-simd, vulkan). They see only the C
// ABI (backends/include/opcts/backend.h), never the harness's spec model: this is the code a
// vendor would write for their own plugin, kept in one place so the built-ins do not copy it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "base/result.h"
#include "common/operator_table.h"
#include "opcts/backend.h"

namespace opcts::plugin {

// Copies `text` into a harness-owned message buffer, truncating and always NUL-terminating.
void WriteMessage(const std::string& text, char* buffer, size_t capacity);

// The ABI status of a failure: OPCTS_STATUS_NOT_SUPPORTED for kNotSupported, OPCTS_STATUS_INVALID
// for kInvalidInput, OPCTS_STATUS_ERROR for every other code. The one mapping of every built-in.
int32_t AbiStatus(const Error& error);

// Answers the harness: OPCTS_STATUS_OK with an empty message, or AbiStatus with the message.
int32_t ReportResult(const Result<void>& result, char* message, size_t capacity);

// Runs `body()`, which returns a Result<void>, and answers the harness with it (ReportResult).
// No exception crosses the ABI: one becomes OPCTS_STATUS_ERROR with "<backend>: <what>",
// formatted with snprintf inside the handler (building a std::string could throw again, and
// what() dies with the exception).
template <typename Body>
int32_t GuardedCall(const char* backend, char* message, size_t capacity, Body&& body) noexcept {
  auto report = [&](const char* what) {
    if (message != nullptr && capacity > 0)
      std::snprintf(message, capacity, "%s: %s", backend, what);
  };
  try {
    return ReportResult(body(), message, capacity);
  } catch (const std::bad_alloc&) {
    report("out of memory");
  } catch (const std::exception& e) {
    report(e.what());
  } catch (...) {
    report("unknown exception");
  }
  return OPCTS_STATUS_ERROR;
}

// Size in bytes of an OPCTS_DTYPE_* value; 0 for an unknown value.
size_t DTypeSize(uint32_t data_type);

// "FLOAT16": the ABI's name of an OPCTS_DTYPE_* value, for messages (the number for an unknown
// value). Plugins do not link the spec library; its test checks this against spec/dtype.h.
std::string DTypeName(uint32_t data_type);

// The operator's documented rules, checked from the descriptor alone (no tensor data), for any
// operator of the operator table (common/operator_table.h):
//  - every tensor: well-formed (non-null unless optional, sizes non-null and non-zero, strides
//    length, TotalTensorSizeInBytes at least roundup((dot(sizes-1, strides)+1)*elemsize, 4), at
//    most 2^32-1 elements, alignment 0 or a power of two >= element size, rank <= 8 and 0 only
//    for a scalar input, a known dtype);
//  - every bool and enum field within its values;
//  - the family's rules (family_views.h): a scan's input and output alike and its axis field
//    below the rank or its axis input an INT32/INT64 scalar; a scatter's ranks, dtypes, tuple
//    size and updates sizes, in DirectML's form (dimension counts, leading ones, right-aligned
//    updates) or ONNX's (exact updates shape).
// kInvalidInput with a message saying which field is wrong, or kNotSupported for an operator type
// (or family) this build does not know.
Result<void> CheckDescriptor(const opcts_op_desc& op);

// Checks bindings against the descriptor: count, non-null data, size_in_bytes equal to the desc's
// total_tensor_size_in_bytes. kInvalidInput with a message otherwise.
Result<void> CheckBindings(const opcts_op_desc& op, const opcts_binding* bindings, uint32_t count);

// What a backend claims (opcts_backend_info): feature_level and extra_support.
struct Claims {
  uint32_t feature_level = 0;  // OPCTS_FEATURE_LEVEL encoding; 0 claims no DirectML level
  std::string extra_support;   // "openvino.opset3 onnx.opset18"
};
// The claims of a backend that runs an operator table level when `supports(op, level)` says so:
// the highest DirectML level every DirectML operator supports up to, and per other scheme the
// highest level every operator of it supports up to. The default claims every level of every
// operator (a backend that implements the whole table).
Claims ClaimEveryLevel(
    const std::function<bool(const abi::Operator&, const abi::Level&)>& supports =
        [](const abi::Operator&, const abi::Level&) { return true; });

// A tensor as a backend walks it: sizes and effective strides (packed when the desc has none).
struct TensorLayout {
  uint32_t data_type = 0;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;  // always filled, in elements
  bool packed = true;             // strides equal the row-major ones
  uint64_t element_count = 1;
};
TensorLayout MakeLayout(const opcts_tensor_desc& desc);

}  // namespace opcts::plugin
