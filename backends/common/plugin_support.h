// Helpers shared by the built-in backends (cpu-reference, cpu-simd, vulkan). They see only the C
// ABI (backends/include/opcts/backend.h), never the harness's spec model: this is the code a
// vendor would write for their own plugin, kept in one place so the built-ins do not copy it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "opcts/backend.h"

namespace opcts::plugin {

// Copies `text` into a harness-owned message buffer, truncating and always NUL-terminating.
void WriteMessage(const std::string& text, char* buffer, size_t capacity);

// Runs `body(std::string* text)`, which returns an OPCTS_STATUS_* and may fill `text`, and copies
// the text into the harness's buffer. No exception crosses the ABI: one becomes
// OPCTS_STATUS_ERROR with "<backend>: <what>", formatted with snprintf inside the handler
// (building a std::string could throw again, and what() dies with the exception).
template <typename Body>
int32_t GuardedCall(const char* backend, char* message, size_t capacity, Body&& body) noexcept {
  auto report = [&](const char* what) {
    if (message != nullptr && capacity > 0) std::snprintf(message, capacity, "%s: %s", backend, what);
  };
  try {
    std::string text;
    const int32_t status = body(&text);
    WriteMessage(text, message, capacity);
    return status;
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

// The operator's documented rules, checked from the descriptor alone (no tensor data):
// tensor desc well-formedness (non-null sizes, no zero size, strides length, TotalTensorSizeInBytes
// at least the implied minimum roundup((dot(sizes-1, strides)+1)*elemsize, 4), at most 2^32-1
// elements, alignment 0 or a power of two >= element size, rank <= 8, known dtype), and every
// per-operator constraint:
//  - cumulative sum/product: same dtype, rank and sizes for input/output; axis < rank;
//    axis_direction 0 or 1; has_exclusive 0 or 1.
//  - scatter-nd: input/indices/updates/output same rank; input/updates/output same dtype;
//    input and output same sizes; 1 <= input_dimension_count <= rank (the document's half-open
//    range is a known defect); 1 <= indices_dimension_count <= rank; input sizes before the last
//    input_dimension_count dims are 1, likewise indices before its last indices_dimension_count;
//    tuple size q = indices.sizes[rank-1] in [1, input_dimension_count]; updates sizes equal the
//    right-aligned concatenation of indices' meaningful dims without the last and input's
//    meaningful dims after the first q, with leading 1s; indices dtype is an integer type.
//  - openvino cumsum: data/output same dtype, rank and sizes, rank >= 1; axis (when present) a
//    scalar (dimension_count 0) of INT32 or INT64; exclusive/reverse 0 or 1. The axis VALUE is
//    data, checked by CheckOpenVINOAxis at execute.
// Returns OPCTS_STATUS_OK, or OPCTS_STATUS_INVALID with *message saying which field is wrong,
// or OPCTS_STATUS_NOT_SUPPORTED for an operator type this build does not know.
int32_t CheckDescriptor(const opcts_op_desc& op, std::string* message);

// Checks bindings against the descriptor: count, non-null data, size_in_bytes equal to the desc's
// total_tensor_size_in_bytes. OPCTS_STATUS_INVALID with a message otherwise.
int32_t CheckBindings(const opcts_op_desc& op, const opcts_binding* bindings, uint32_t count,
                      std::string* message);

// OpenVINO: reads the axis scalar (INT32 or INT64; absent -> 0), checks -rank <= axis < rank and
// returns the normalized axis in [0, rank) in *axis. OPCTS_STATUS_INVALID with message otherwise.
int32_t CheckOpenVINOAxis(const opcts_openvino_cumsum_desc& desc, const opcts_binding& axis_binding,
                          uint32_t* axis, std::string* message);

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
