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

Result<void> CreateChecked(const char* options, void** instance) {
  if (instance == nullptr) return InvalidInput("instance is null");
  const std::string text = options ? options : "";
  if (!text.empty() && text != "out_of_range=refuse" && text != "out_of_range=skip")
    return InvalidInput(
        "cpu-reference takes only out_of_range=refuse or out_of_range=skip, got \"" + text + "\"");
  *instance = new Instance{text == "out_of_range=refuse"};
  return {};
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
Result<void> QueryChecked(const opcts_op_desc* op) {
  if (op == nullptr) return InvalidInput("op is null");
  return plugin::CheckDescriptor(*op);
}

Result<void> ExecuteChecked(const Instance& instance, const opcts_op_desc* op,
                            const opcts_binding* bindings, uint32_t count) {
  OPCTS_TRY(QueryChecked(op));
  OPCTS_TRY(plugin::CheckBindings(*op, bindings, count));
  if (SpecFor(op->type) == nullptr)  // the generator loaded it; a mismatch is a build bug
    return InternalError("the spec embedded for operator type " + std::to_string(op->type) +
                         " does not load");
  const Translation t = Translate(*op, bindings);
  const ReferenceKernel* kernel = FindReferenceKernel(t.operation.spec->reference);
  if (kernel == nullptr)
    return InternalError("no reference kernel \"" + t.operation.spec->reference +
                         "\" is linked in");
  const ReferenceResult result = (*kernel)(t.operation);
  if (result.invalid) return InvalidInput(*result.invalid);
  if (result.refusable && instance.refuse_out_of_range)
    return InvalidInput("refused (out_of_range=refuse): " + *result.refusable);
  if (result.outputs.size() != 1 || result.outputs[0].name != t.output_name)
    return InternalError("the reference kernel did not produce exactly the output " +
                         t.output_name);
  return WriteExpected(result.outputs[0], t.output);
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-reference", message, capacity,
                             [&] { return CreateChecked(options, instance); });
}

int32_t Query(void*, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-reference", message, capacity, [&] { return QueryChecked(op); });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t count, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-reference", message, capacity, [&] {
    return ExecuteChecked(*static_cast<const Instance*>(instance), op, bindings, count);
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
