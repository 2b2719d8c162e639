// The mutant backend's C ABI surface: a plain scalar backend for all four operators and every
// dtype, strided and in place, claiming feature level 5_0 plus openvino.opset3. Built once
// correct (opcts-mutant-none) and once per catalogue row with that row's OPCTS_MUTANT_<NAME>
// defined (conformance/mutants/README.md); OPCTS_MUTANT_NAME names the build.
#include <cstring>
#include <exception>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "backend/layout.h"
#include "backend/scan.h"
#include "backend/scatter_nd.h"
#include "common/plugin_support.h"
#include "opcts/backend.h"

namespace opcts::mutant {
namespace {

struct Instance {
  std::string name = std::string("mutant-") + OPCTS_MUTANT_NAME;
  opcts_backend_info info{name.c_str(), "1.0", "scalar CPU", OPCTS_FEATURE_LEVEL(5, 0),
                          "openvino.opset3", ""};
  std::map<std::string, ScanPlan> plans;  // by PlanKey
};

#ifdef OPCTS_MUTANT_CLAIM_NOT_HONOURED
bool IsInt64Scan(const opcts_op_desc& op) {
  if (op.type == OPCTS_OP_DML_SCATTER_ND) return false;
  const opcts_tensor_desc* data = op.type == OPCTS_OP_OPENVINO_CUMSUM_3
                                      ? static_cast<const opcts_openvino_cumsum_desc*>(op.desc)->data
                                      : static_cast<const opcts_dml_cumulative_desc*>(op.desc)->input;
  return data->data_type == OPCTS_DTYPE_INT64 || data->data_type == OPCTS_DTYPE_UINT64;
}
#endif

// The documented rules (the shared checks); every valid descriptor is supported.
int32_t CheckOp(const opcts_op_desc* op, std::string* message) {
  if (op == nullptr) {
    *message = "op is null";
    return OPCTS_STATUS_INVALID;
  }
  const int32_t status = plugin::CheckDescriptor(*op, message);
#ifdef OPCTS_MUTANT_CLAIM_NOT_HONOURED
  // Mutant: claims 5_0 but never implemented its additions, 64-bit integer scans.
  if (status == OPCTS_STATUS_OK && IsInt64Scan(*op)) {
    *message = "mutant: 64-bit integer scans are not implemented";
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
#endif
  return status;
}

// OpenVINO's axis is data: read and checked at execute.
int32_t OpenVINOAxis(const opcts_openvino_cumsum_desc& desc, const opcts_binding& binding,
                     uint32_t* axis, std::string* message) {
#if defined(OPCTS_MUTANT_AXIS_VALUE_WRAPPED)
  // Mutant: any axis value is taken modulo the rank, Python style, instead of rejected.
  const int64_t rank = desc.data->dimension_count;
  int64_t value = 0;
  if (desc.axis != nullptr && desc.axis->data_type == OPCTS_DTYPE_INT32) {
    int32_t v32 = 0;
    std::memcpy(&v32, binding.data, 4);
    value = v32;
  } else if (desc.axis != nullptr) {
    std::memcpy(&value, binding.data, 8);
  }
  *axis = static_cast<uint32_t>((value % rank + rank) % rank);
  (void)message;
  return OPCTS_STATUS_OK;
#else
#if defined(OPCTS_MUTANT_ABSENT_AXIS_LAST)
  // Mutant: without the axis input the last axis is scanned, as several frameworks default.
  if (desc.axis == nullptr) {
    *axis = desc.data->dimension_count - 1;
    return OPCTS_STATUS_OK;
  }
#endif
  return plugin::CheckOpenVINOAxis(desc, binding, axis, message);
#endif
}

// The plan cache key: everything the plan depends on.
std::string PlanKey(const opcts_tensor_desc& in, const opcts_tensor_desc& out,
                    [[maybe_unused]] uint32_t axis) {
  std::string key;
  for (const opcts_tensor_desc* t : {&in, &out}) {
    for (uint32_t d = 0; d < t->dimension_count; ++d)
      key += std::to_string(t->sizes[d]) + "/" + (t->strides ? std::to_string(t->strides[d]) : "-") + ",";
    key += ";";
  }
#ifndef OPCTS_MUTANT_AXIS_MISSING_FROM_CACHE_KEY
  key += "axis" + std::to_string(axis);
#endif
  return key;
}

void Scan(Instance& self, const opcts_tensor_desc& in_desc, const opcts_binding& in,
          const opcts_tensor_desc& out_desc, const opcts_binding& out, uint32_t axis,
          const ScanParams& params) {
  auto [it, added] = self.plans.try_emplace(PlanKey(in_desc, out_desc, axis));
  if (added) it->second = MakeScanPlan(ReadLayout(in_desc), WriteLayout(out_desc), axis);
  // In place, the output would overwrite input elements before they are read: read a copy.
#ifdef OPCTS_MUTANT_EXCLUSIVE_IN_PLACE
  // Mutant: no copy, "every element is read just before it is written" (see scan.cc).
  const bool copy = false;
#else
  const bool copy = in.data == out.data;
#endif
  std::vector<uint8_t> input_copy;
  const auto* source = static_cast<const uint8_t*>(in.data);
  if (copy) {
    input_copy.assign(source, source + in.size_in_bytes);
    source = input_copy.data();
  }
  RunScan(it->second, params, in_desc.data_type, source, static_cast<uint8_t*>(out.data));
}

int32_t ScatterND(const opcts_dml_scatter_nd_desc& desc, const opcts_binding* bindings,
                  std::string* message) {
  const auto* input = static_cast<const uint8_t*>(bindings[0].data);
  auto* output = static_cast<uint8_t*>(bindings[3].data);
  std::vector<uint8_t> input_copy;  // in place, the updates would land in the input being copied
  if (input == output) {
    input_copy.assign(input, input + bindings[0].size_in_bytes);
    input = input_copy.data();
  }
  return RunScatterND(desc, input, static_cast<const uint8_t*>(bindings[1].data),
                      static_cast<const uint8_t*>(bindings[2].data), output, message);
}

int32_t Run(Instance& self, const opcts_op_desc& op, const opcts_binding* bindings, std::string* message) {
  switch (op.type) {
    case OPCTS_OP_DML_CUMULATIVE_SUMMATION:
    case OPCTS_OP_DML_CUMULATIVE_PRODUCT: {
      const auto& d = *static_cast<const opcts_dml_cumulative_desc*>(op.desc);
      const ScanOp scan_op = op.type == OPCTS_OP_DML_CUMULATIVE_SUMMATION ? ScanOp::kSum : ScanOp::kProduct;
      Scan(self, *d.input, bindings[0], *d.output, bindings[1], d.axis,
           {scan_op, d.axis_direction == OPCTS_AXIS_DIRECTION_DECREASING, d.has_exclusive != 0});
      return OPCTS_STATUS_OK;
    }
    case OPCTS_OP_OPENVINO_CUMSUM_3: {
      const auto& d = *static_cast<const opcts_openvino_cumsum_desc*>(op.desc);
      uint32_t axis = 0;
      if (int32_t status = OpenVINOAxis(d, bindings[1], &axis, message); status != OPCTS_STATUS_OK)
        return status;
      Scan(self, *d.data, bindings[0], *d.output, bindings[2], axis,
           {ScanOp::kSum, d.reverse != 0, d.exclusive != 0});
      return OPCTS_STATUS_OK;
    }
    case OPCTS_OP_DML_SCATTER_ND:
      return ScatterND(*static_cast<const opcts_dml_scatter_nd_desc*>(op.desc), bindings, message);
  }
  *message = "mutant: unknown op type " + std::to_string(op.type);
  return OPCTS_STATUS_INVALID;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall("mutant", message, capacity, [&](std::string* text) {
    if (instance == nullptr) {
      *text = "instance is null";
      return OPCTS_STATUS_INVALID;
    }
    if (options != nullptr && options[0] != '\0') {
      *text = "the mutant backends take no options";
      return OPCTS_STATUS_INVALID;
    }
    *instance = new Instance;
    return OPCTS_STATUS_OK;
  });
}

void Destroy(void* instance) { delete static_cast<Instance*>(instance); }

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  if (instance == nullptr || info == nullptr) return OPCTS_STATUS_INVALID;
  *info = static_cast<Instance*>(instance)->info;
  return OPCTS_STATUS_OK;
}

int32_t Query(void* instance, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall("mutant", message, capacity, [&](std::string* text) {
    if (instance == nullptr) {
      *text = "instance is null";
      return OPCTS_STATUS_INVALID;
    }
    return CheckOp(op, text);
  });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t binding_count, char* message, size_t capacity) {
  return plugin::GuardedCall("mutant", message, capacity, [&](std::string* text) {
    if (instance == nullptr) {
      *text = "instance is null";
      return OPCTS_STATUS_INVALID;
    }
    // A harness may execute without querying first: check everything again.
    int32_t status = CheckOp(op, text);
    if (status == OPCTS_STATUS_OK) status = plugin::CheckBindings(*op, bindings, binding_count, text);
    if (status != OPCTS_STATUS_OK) return status;
    return Run(*static_cast<Instance*>(instance), *op, bindings, text);
  });
}

const opcts_backend_api kApi = {OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy,
                                GetInfo, Query, Execute};

}  // namespace
}  // namespace opcts::mutant

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) { return &opcts::mutant::kApi; }
