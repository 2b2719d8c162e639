// The C ABI entry point of the `vulkan` plugin. Every function catches everything: no C++
// exception (std::bad_alloc included) may cross the ABI.
#include <exception>
#include <memory>
#include <string>

#include "common/plugin_support.h"
#include "opcts/backend.h"
#include "vulkan_backend.h"

namespace opcts::vulkan {
namespace {

// Runs `body` and answers the harness with its Result (plugin::ReportResult), turning an escaping
// exception into OPCTS_STATUS_ERROR with a message.
template <typename Body>
int32_t Guarded(char* message, size_t capacity, Body body) {
  try {
    return plugin::ReportResult(body(), message, capacity);
  } catch (const std::exception& e) {
    plugin::WriteMessage(std::string("vulkan backend internal error: ") + e.what(), message,
                         capacity);
  } catch (...) {
    plugin::WriteMessage("vulkan backend internal error: unknown exception", message, capacity);
  }
  return OPCTS_STATUS_ERROR;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  if (instance == nullptr) return OPCTS_STATUS_INVALID;
  *instance = nullptr;
  return Guarded(message, capacity, [&]() -> Result<void> {
    OPCTS_ASSIGN_OR_RETURN(std::unique_ptr<Backend> backend, Backend::Create(options));
    *instance = backend.release();
    return {};
  });
}

void Destroy(void* instance) {
  try {
    delete static_cast<Backend*>(instance);
  } catch (...) {  // nothing can be reported from destroy
  }
}

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  if (instance == nullptr || info == nullptr) return OPCTS_STATUS_INVALID;
  return Guarded(nullptr, 0, [&]() -> Result<void> {
    static_cast<Backend*>(instance)->GetInfo(info);
    return {};
  });
}

int32_t Query(void* instance, const opcts_op_desc* op, char* message, size_t capacity) {
  return Guarded(message, capacity, [&]() -> Result<void> {
    if (instance == nullptr || op == nullptr) return InvalidInput("null instance or operator");
    return static_cast<Backend*>(instance)->Query(*op);
  });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t binding_count, char* message, size_t capacity) {
  return Guarded(message, capacity, [&]() -> Result<void> {
    if (instance == nullptr || op == nullptr) return InvalidInput("null instance or operator");
    return static_cast<Backend*>(instance)->Execute(*op, bindings, binding_count);
  });
}

const opcts_backend_api kApi = {
    OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy, GetInfo, Query, Execute};

}  // namespace
}  // namespace opcts::vulkan

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) {
  return &opcts::vulkan::kApi;
}
