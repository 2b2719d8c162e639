// What a plugin must check before it touches memory. opcts sends deliberately broken descriptors
// and expects OPCTS_STATUS_INVALID with a message naming the broken field; a plugin that
// accepts one (or crashes on it) is reported as InvalidAccepted or Crash.
#pragma once

#include <cstdint>
#include <string>

#include "opcts/backend.h"

namespace my_plugin {

// DML_CUMULATIVE_SUMMATION's documented rules: each tensor well-formed (a mirror of
// DML_BUFFER_TENSOR_DESC), InputTensor and OutputTensor with the same DataType, DimensionCount
// and Sizes, Axis < DimensionCount, AxisDirection and HasExclusiveSum in range.
// OPCTS_STATUS_OK, or OPCTS_STATUS_INVALID with *message naming the field.
int32_t ValidateCumulativeDesc(const opcts_dml_cumulative_desc* desc, std::string* message);

// The bindings execute receives: one per tensor (input, output), non-null, each exactly the
// TotalTensorSizeInBytes of its desc.
int32_t ValidateBindings(const opcts_dml_cumulative_desc& desc, const opcts_binding* bindings,
                         uint32_t binding_count, std::string* message);

// "FLOAT32", ... for messages; "unknown" for a value outside OPCTS_DTYPE_*.
const char* DTypeName(uint32_t data_type);

}  // namespace my_plugin
