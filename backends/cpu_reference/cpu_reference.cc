// The cpu-reference backend: the oracle behind the C ABI. It answers every valid descriptor by
// running the reference kernel and writing one permitted value per element, so a harness run
// against it must come out all Pass; anything else is a harness bug.
#include <cstdio>
#include <exception>
#include <string>

#include "common/plugin_support.h"
#include "cpu_reference/operator_specs.h"
#include "cpu_reference/output_writer.h"
#include "cpu_reference/translate.h"
#include "opcts/backend.h"
#include "opcts/version.h"
#include "reference/reference.h"

namespace opcts::cpu_reference {
namespace {

struct Instance {
  // Out-of-range ScatterND tuples: the spec lets a backend refuse such data at execute or
  // leave their effect free. By default this backend skips them; `out_of_range=refuse`
  // answers INVALID instead, the other conformant choice.
  bool refuse_out_of_range = false;
};

int32_t CreateChecked(const char* options, void** instance, std::string* message) {
  if (instance == nullptr) {
    *message = "instance is null";
    return OPCTS_STATUS_INVALID;
  }
  const std::string text = options ? options : "";
  if (!text.empty() && text != "out_of_range=refuse" && text != "out_of_range=skip") {
    *message = "cpu-reference takes only out_of_range=refuse or out_of_range=skip, got \"" + text + "\"";
    return OPCTS_STATUS_INVALID;
  }
  *instance = new Instance{text == "out_of_range=refuse"};
  return OPCTS_STATUS_OK;
}

void Destroy(void* instance) { delete static_cast<Instance*>(instance); }

int32_t GetInfo(void*, opcts_backend_info* info) {
  if (info == nullptr) return OPCTS_STATUS_INVALID;
  static const plugin::Claims claims = plugin::ClaimEveryLevel();
  *info = {.name = "cpu-reference",
           .version = OPCTS_VERSION_STRING,
           .device = "scalar CPU (the opcts oracle)",
           .feature_level = claims.feature_level,
           .extra_support = claims.extra_support.c_str(),
           .details = ""};
  return OPCTS_STATUS_OK;
}

// Every valid descriptor of every operator in the table is supported: all twelve dtypes, ranks
// 1..8, any integer index type.
int32_t QueryChecked(const opcts_op_desc* op, std::string* message) {
  if (op == nullptr) {
    *message = "op is null";
    return OPCTS_STATUS_INVALID;
  }
  return plugin::CheckDescriptor(*op, message);
}

int32_t ExecuteChecked(const Instance& instance, const opcts_op_desc* op, const opcts_binding* bindings,
                       uint32_t count, std::string* message) {
  if (int32_t status = QueryChecked(op, message); status != OPCTS_STATUS_OK) return status;
  if (int32_t status = plugin::CheckBindings(*op, bindings, count, message);
      status != OPCTS_STATUS_OK)
    return status;
  if (SpecFor(op->type) == nullptr) {  // the generator loaded it; a mismatch is a build bug
    *message = "the spec embedded for operator type " + std::to_string(op->type) + " does not load";
    return OPCTS_STATUS_ERROR;
  }
  const Translation t = Translate(*op, bindings);
  const ReferenceKernel* kernel = FindReferenceKernel(t.operation.spec->reference);
  if (kernel == nullptr) {
    *message = "no reference kernel \"" + t.operation.spec->reference + "\" is linked in";
    return OPCTS_STATUS_ERROR;
  }
  const ReferenceResult result = (*kernel)(t.operation);
  if (result.invalid) {
    *message = *result.invalid;
    return OPCTS_STATUS_INVALID;
  }
  if (result.refusable && instance.refuse_out_of_range) {
    *message = "refused (out_of_range=refuse): " + *result.refusable;
    return OPCTS_STATUS_INVALID;
  }
  if (result.outputs.size() != 1 || result.outputs[0].name != t.output_name) {
    *message = "the reference kernel did not produce exactly the output " + t.output_name;
    return OPCTS_STATUS_ERROR;
  }
  return WriteExpected(result.outputs[0], t.output, message) ? OPCTS_STATUS_OK
                                                             : OPCTS_STATUS_ERROR;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-reference", message, capacity,
                 [&](std::string* text) { return CreateChecked(options, instance, text); });
}

int32_t Query(void*, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-reference", message, capacity, [&](std::string* text) { return QueryChecked(op, text); });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings, uint32_t count,
                char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-reference", message, capacity, [&](std::string* text) {
    return ExecuteChecked(*static_cast<const Instance*>(instance), op, bindings, count, text);
  });
}

constexpr opcts_backend_api kApi = {
    .abi_version = OPCTS_ABI_VERSION,
    .struct_size = sizeof(opcts_backend_api),
    .create = Create,
    .destroy = Destroy,
    .get_info = GetInfo,
    .query = Query,
    .execute = Execute,
};

}  // namespace
}  // namespace opcts::cpu_reference

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) {
  return &opcts::cpu_reference::kApi;
}
