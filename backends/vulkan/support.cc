#include "support.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "opcts/backend.h"

namespace opcts::vulkan {
namespace {

struct TableRow {
  uint32_t level;
  uint32_t op;
  std::initializer_list<uint32_t> data_types;
};

// The documented support tables, rank aside (every operator here takes ranks 1 to 8).
// CUMULATIVE_SUMMATION at 2_1 lists INT32 in the current revision and UINT16 in 2020's: both.
const TableRow kTables[] = {
    {OPCTS_FEATURE_LEVEL(2, 1),
     OPCTS_OP_DML_CUMULATIVE_SUMMATION,
     {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_INT32, OPCTS_DTYPE_UINT32,
      OPCTS_DTYPE_UINT16}},
    {OPCTS_FEATURE_LEVEL(2, 1),
     OPCTS_OP_DML_SCATTER_ND,
     {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_INT32, OPCTS_DTYPE_INT16,
      OPCTS_DTYPE_INT8, OPCTS_DTYPE_UINT32, OPCTS_DTYPE_UINT16, OPCTS_DTYPE_UINT8}},
    {OPCTS_FEATURE_LEVEL(3, 1),
     OPCTS_OP_DML_CUMULATIVE_PRODUCT,
     {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_UINT32, OPCTS_DTYPE_UINT16}},
    {OPCTS_FEATURE_LEVEL(4, 1),
     OPCTS_OP_DML_SCATTER_ND,
     {OPCTS_DTYPE_FLOAT64, OPCTS_DTYPE_INT64, OPCTS_DTYPE_UINT64}},
    {OPCTS_FEATURE_LEVEL(5, 0),
     OPCTS_OP_DML_CUMULATIVE_SUMMATION,
     {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_INT64, OPCTS_DTYPE_INT32,
      OPCTS_DTYPE_UINT64, OPCTS_DTYPE_UINT32}},
};

const uint32_t kLevels[] = {OPCTS_FEATURE_LEVEL(2, 1), OPCTS_FEATURE_LEVEL(3, 0),
                            OPCTS_FEATURE_LEVEL(3, 1), OPCTS_FEATURE_LEVEL(4, 0),
                            OPCTS_FEATURE_LEVEL(4, 1), OPCTS_FEATURE_LEVEL(5, 0)};

const uint32_t kNumericTypes[] = {OPCTS_DTYPE_FLOAT64,  OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16,
                                  OPCTS_DTYPE_BFLOAT16, OPCTS_DTYPE_INT64,   OPCTS_DTYPE_INT32,
                                  OPCTS_DTYPE_INT16,    OPCTS_DTYPE_INT8,    OPCTS_DTYPE_UINT64,
                                  OPCTS_DTYPE_UINT32,   OPCTS_DTYPE_UINT16,  OPCTS_DTYPE_UINT8};

bool Supports(uint32_t op, uint32_t data_type, const EnabledFeatures& enabled) {
  return op == OPCTS_OP_DML_SCATTER_ND || CheckScanDType(data_type, enabled).ok();
}

}  // namespace

Status CheckScanDType(uint32_t data_type, const EnabledFeatures& enabled) {
  if ((data_type == OPCTS_DTYPE_INT64 || data_type == OPCTS_DTYPE_UINT64) && !enabled.int64) {
    return NotSupportedError("64-bit integer scans need shaderInt64, which this device lacks");
  }
  if (data_type == OPCTS_DTYPE_FLOAT64 && !enabled.float64) {
    return NotSupportedError("float64 scans need shaderFloat64, which this device lacks");
  }
  return OkStatus();
}

uint32_t ClaimedFeatureLevel(const EnabledFeatures& enabled) {
  uint32_t claimed = 0;
  for (uint32_t level : kLevels) {
    for (const TableRow& row : kTables) {
      if (row.level > level) continue;
      for (uint32_t data_type : row.data_types) {
        if (!Supports(row.op, data_type, enabled)) return claimed;
      }
    }
    claimed = level;
  }
  return claimed;
}

const char* ExtraSupport(const EnabledFeatures& enabled) {
  bool all = std::all_of(std::begin(kNumericTypes), std::end(kNumericTypes),
                         [&](uint32_t t) { return CheckScanDType(t, enabled).ok(); });
  return all ? "openvino.opset3" : "";
}

Status CheckBufferFits(const DeviceCaps& caps, std::string_view what, uint64_t bytes) {
  if (bytes > caps.max_storage_buffer_range) {
    return NotSupportedError(std::string(what) + " would need a " + std::to_string(bytes) +
                             "-byte storage buffer; this device's maxStorageBufferRange is " +
                             std::to_string(caps.max_storage_buffer_range));
  }
  if (bytes > caps.max_memory_allocation_size) {
    return NotSupportedError(std::string(what) + " would need a " + std::to_string(bytes) +
                             "-byte buffer; this device's maxMemoryAllocationSize is " +
                             std::to_string(caps.max_memory_allocation_size));
  }
  return OkStatus();
}

Status CheckElementCount(std::string_view what, uint64_t elements) {
  if (elements >= (uint64_t{1} << 31)) {
    return NotSupportedError(std::string(what) + " has " + std::to_string(elements) +
                             " elements; this backend handles fewer than 2^31");
  }
  return OkStatus();
}

}  // namespace opcts::vulkan
