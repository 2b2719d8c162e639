// The torch-cpu backend's C ABI surface (backends/include/opcts/backend.h): PyTorch's CPU
// kernels (libtorch) behind the plugin ABI. create() asks torch what it runs (support.h); query
// checks the descriptor's rules (plugin::CheckDescriptor), then torch's support; execute maps
// the bindings onto torch tensors (execute.h). No exception crosses the ABI, and torch's
// c10::Error reaches the harness as torch's message without the C++ backtrace what() appends.
#include <memory>
#include <string>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include "common/plugin_support.h"
#include "opcts/backend.h"
#include "opcts/version.h"
#include "torch/execute.h"
#include "torch/support.h"
#include "torch/torch_types.h"

namespace opcts::torch_cpu {
namespace {

constexpr const char* kName = "torch-cpu";

struct Instance {
  TorchSupport support;
  plugin::Claims claims;
  std::string device, details;
  opcts_backend_info info{};
};

// The ATen kernels torch dispatches on this CPU: the "CPU capability usage" line of its build
// summary ("AVX2").
std::string CpuCapability() {
  const std::string config = at::show_config();
  const std::string key = "CPU capability usage: ";
  const size_t begin = config.find(key);
  if (begin == std::string::npos) return "unknown";
  const size_t end = config.find('\n', begin);
  return config.substr(begin + key.size(), end - begin - key.size());
}

// A c10::Error torch throws as ERROR with torch's message: what() would append a C++ backtrace.
template <typename Body>
Result<void> WithTorchErrors(Body&& body) {
  try {
    return body();
  } catch (const c10::Error& e) {
    return InternalError(std::string("torch: ") + e.what_without_backtrace());
  }
}

Result<void> CreateChecked(const char* options, void** instance) {
  if (instance == nullptr) return InvalidInput("instance is null");
  *instance = nullptr;
  if (options != nullptr && *options != '\0')
    return InvalidInput(std::string(kName) + " takes no options, got \"" + options +
                        "\" (OMP_NUM_THREADS sets torch's threads)");
  auto created = std::make_unique<Instance>();
  created->support = TorchSupport::Probe();
  created->claims = created->support.Claims();
  created->device = "CPU, ATen kernels for " + CpuCapability();
  created->details = TorchVersion() + " (libtorch headers built against); intra-op threads " +
                     std::to_string(at::get_num_threads()) + " (OMP_NUM_THREADS)";
  created->info = {kName,
                   OPCTS_VERSION_STRING,
                   created->device.c_str(),
                   created->claims.feature_level,
                   created->claims.extra_support.c_str(),
                   created->details.c_str()};
  *instance = created.release();
  return {};
}

Result<void> CheckOp(const Instance& self, const opcts_op_desc* op) {
  if (op == nullptr) return InvalidInput("op is null");
  OPCTS_TRY(plugin::CheckDescriptor(*op));
  return self.support.Check(*op);
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall(kName, message, capacity, [&] {
    return WithTorchErrors([&] { return CreateChecked(options, instance); });
  });
}

void Destroy(void* instance) { delete static_cast<Instance*>(instance); }

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  if (instance == nullptr || info == nullptr) return OPCTS_STATUS_INVALID;
  *info = static_cast<const Instance*>(instance)->info;
  return OPCTS_STATUS_OK;
}

int32_t Query(void* instance, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall(kName, message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    return CheckOp(*static_cast<const Instance*>(instance), op);
  });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t binding_count, char* message, size_t capacity) {
  return plugin::GuardedCall(kName, message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    // A harness may execute without querying first: check everything again.
    OPCTS_TRY(CheckOp(*static_cast<const Instance*>(instance), op));
    OPCTS_TRY(plugin::CheckBindings(*op, bindings, binding_count));
    return WithTorchErrors([&] { return ExecuteWithTorch(*op, bindings); });
  });
}

constexpr opcts_backend_api kApi = {
    OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy, GetInfo, Query, Execute};

}  // namespace
}  // namespace opcts::torch_cpu

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) {
  return &opcts::torch_cpu::kApi;
}
