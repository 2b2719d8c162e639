// The mutant backend's C ABI surface: a plain scalar backend for every operator of the scan and
// scatter families and every dtype, strided and in place, claiming every level. Built once
// correct (opcts-mutant-none) and once per catalogue row with that row's OPCTS_MUTANT_<NAME>
// defined (conformance/mutants/README.md); OPCTS_MUTANT_NAME names the build.
#include <cstring>
#include <exception>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "backend/layout.h"
#include "backend/scan.h"
#include "backend/scatter_nd.h"
#include "common/family_views.h"
#include "common/plugin_support.h"
#include "opcts/backend.h"

namespace opcts::mutant {
namespace {

struct Instance {
  std::string name = std::string("mutant-") + OPCTS_MUTANT_NAME;
  plugin::Claims claims = plugin::ClaimEveryLevel();
  opcts_backend_info info{
      name.c_str(), "1.0", "scalar CPU", claims.feature_level, claims.extra_support.c_str(), ""};
  std::map<std::string, ScanPlan> plans;  // by PlanKey
};

#ifdef OPCTS_MUTANT_CLAIM_NOT_HONOURED
bool IsInt64Scan(const abi::Operator& info, const opcts_op_desc& op) {
  if (std::string_view(info.family) != "scan") return false;
  const opcts_tensor_desc* data = plugin::ReadScan(info, op.desc).input.desc;
  return data->data_type == OPCTS_DTYPE_INT64 || data->data_type == OPCTS_DTYPE_UINT64;
}
#endif

// The documented rules (the shared checks); every valid descriptor is supported.
Result<void> CheckOp(const opcts_op_desc* op) {
  if (op == nullptr) return InvalidInput("op is null");
  OPCTS_TRY(plugin::CheckDescriptor(*op));
#ifdef OPCTS_MUTANT_OPSET14_TYPE_REFUSED
  // Mutant: ONNX CumSum's float16 and bfloat16 (opset 14's additions) taken for optional.
  const abi::Operator& onnx = *abi::FindOperator(op->type);
  if (std::string_view(onnx.scheme) == "onnx" && std::string_view(onnx.family) == "scan") {
    const uint32_t t = plugin::ReadScan(onnx, op->desc).input.desc->data_type;
    if (t == OPCTS_DTYPE_FLOAT16 || t == OPCTS_DTYPE_BFLOAT16)
      return NotSupported("mutant: float16 and bfloat16 are not implemented for ONNX");
  }
#endif
#ifdef OPCTS_MUTANT_CLAIM_NOT_HONOURED
  const abi::Operator& info = *abi::FindOperator(op->type);
  // Mutant: claims 5_0 but never implemented its additions, 64-bit integer scans.
  if (IsInt64Scan(info, *op))
    return NotSupported("mutant: 64-bit integer scans are not implemented");
#endif
  return {};
}

// A scan's axis, where it is an input, is data: read and checked at execute.
Result<uint32_t> ScanAxis(const plugin::ScanView& scan, const opcts_binding* bindings) {
#if defined(OPCTS_MUTANT_AXIS_VALUE_WRAPPED)
  // Mutant: any axis value is taken modulo the rank, Python style, instead of rejected.
  const int64_t rank = scan.input.desc->dimension_count;
  const opcts_tensor_desc* axis_desc = scan.axis_tensor.desc;
  const void* data = axis_desc ? bindings[scan.axis_tensor.binding].data : nullptr;
  int64_t value = scan.axis_field;
  if (axis_desc != nullptr && axis_desc->data_type == OPCTS_DTYPE_INT32) {
    int32_t v32 = 0;
    std::memcpy(&v32, data, 4);
    value = v32;
  } else if (axis_desc != nullptr) {
    std::memcpy(&value, data, 8);
  }
  return static_cast<uint32_t>((value % rank + rank) % rank);
#else
#if defined(OPCTS_MUTANT_ABSENT_AXIS_LAST)
  // Mutant: without the axis input the last axis is scanned, as several frameworks default.
  if (scan.axis_is_tensor && scan.axis_tensor.desc == nullptr)
    return scan.input.desc->dimension_count - 1;
#endif
  return plugin::ResolveScanAxis(scan, bindings);
#endif
}

// The plan cache key: everything the plan depends on.
std::string PlanKey(const opcts_tensor_desc& in, const opcts_tensor_desc& out,
                    [[maybe_unused]] uint32_t axis) {
  std::string key;
  for (const opcts_tensor_desc* t : {&in, &out}) {
    for (uint32_t d = 0; d < t->dimension_count; ++d)
      key += std::to_string(t->sizes[d]) + "/" +
             (t->strides ? std::to_string(t->strides[d]) : "-") + ",";
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

Result<void> ScatterND(const plugin::ScatterView& v, const opcts_binding* bindings) {
  const ScatterArgs args{
      v.input.desc,
      v.indices.desc,
      v.updates.desc,
      v.output.desc,
      v.has_dimension_counts ? v.input_dimension_count : v.input.desc->dimension_count,
      v.has_dimension_counts ? v.indices_dimension_count : v.indices.desc->dimension_count,
      static_cast<plugin::ScatterReduction>(v.reduction)};
  const auto* input = static_cast<const uint8_t*>(bindings[v.input.binding].data);
  auto* output = static_cast<uint8_t*>(bindings[v.output.binding].data);
  std::vector<uint8_t> input_copy;  // in place, the updates would land in the input being copied
  if (input == output) {
    input_copy.assign(input, input + bindings[v.input.binding].size_in_bytes);
    input = input_copy.data();
  }
  return RunScatterND(args, input, static_cast<const uint8_t*>(bindings[v.indices.binding].data),
                      static_cast<const uint8_t*>(bindings[v.updates.binding].data), output);
}

Result<void> Run(Instance& self, const opcts_op_desc& op, const opcts_binding* bindings) {
  const abi::Operator& info = *abi::FindOperator(op.type);
  if (std::string_view(info.family) == "scatter_nd")
    return ScatterND(plugin::ReadScatter(info, op.desc), bindings);
  const plugin::ScanView scan = plugin::ReadScan(info, op.desc);
  OPCTS_ASSIGN_OR_RETURN(const uint32_t axis, ScanAxis(scan, bindings));
  Scan(self, *scan.input.desc, bindings[scan.input.binding], *scan.output.desc,
       bindings[scan.output.binding], axis,
       {scan.product ? ScanOp::kProduct : ScanOp::kSum, scan.reverse != 0, scan.exclusive != 0});
  return {};
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall("mutant", message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    if (options != nullptr && options[0] != '\0')
      return InvalidInput("the mutant backends take no options");
    *instance = new Instance;
    return {};
  });
}

void Destroy(void* instance) { delete static_cast<Instance*>(instance); }

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  if (instance == nullptr || info == nullptr) return OPCTS_STATUS_INVALID;
  *info = static_cast<Instance*>(instance)->info;
  return OPCTS_STATUS_OK;
}

int32_t Query(void* instance, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall("mutant", message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    return CheckOp(op);
  });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t binding_count, char* message, size_t capacity) {
  return plugin::GuardedCall("mutant", message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    // A harness may execute without querying first: check everything again.
    OPCTS_TRY(CheckOp(op));
    OPCTS_TRY(plugin::CheckBindings(*op, bindings, binding_count));
    return Run(*static_cast<Instance*>(instance), *op, bindings);
  });
}

const opcts_backend_api kApi = {
    OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy, GetInfo, Query, Execute};

}  // namespace
}  // namespace opcts::mutant

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) {
  return &opcts::mutant::kApi;
}
