// Malformed plugins for the loader's tests, one per OPCTS_BAD_PLUGIN value:
//   missing-symbol  exports no opcts_backend_entry
//   null-table      opcts_backend_entry returns NULL
//   abi-version     built for ABI version 999
//   short-table     struct_size smaller than the table
//   null-function   execute is NULL
//   create-fails    create returns ERROR with a message
//   unavailable     create returns NOT_SUPPORTED (no device)
//   bad-level       get_info claims feature level 0xFFFFFFFF
//   huge-string     get_info's device is 100 000 bytes long
//   crash-on-create create dereferences NULL (only ever loaded in a worker)
//   hang-on-create  create never returns (only ever loaded in a worker)
#include <cstdio>
#include <cstring>
#include <string>

#include "opcts/backend.h"

namespace {

#define BAD_IS(name) (std::strcmp(OPCTS_BAD_PLUGIN, name) == 0)

int32_t Create(const char*, void** instance, char* message, size_t capacity) {
  if (BAD_IS("create-fails")) {
    std::snprintf(message, capacity, "device initialisation failed");
    return OPCTS_STATUS_ERROR;
  }
  if (BAD_IS("unavailable")) {
    std::snprintf(message, capacity, "no device found");
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
  if (BAD_IS("crash-on-create")) {
    volatile int* null = nullptr;
    *null = 1;
  }
  if (BAD_IS("hang-on-create"))
    for (volatile bool forever = true; forever;) {
    }
  static int dummy;
  *instance = &dummy;
  return OPCTS_STATUS_OK;
}
void Destroy(void*) {}
int32_t GetInfo(void*, opcts_backend_info* info) {
  static const std::string huge(100000, 'x');
  *info = {"bad",
           "0",
           BAD_IS("huge-string") ? huge.c_str() : "none",
           BAD_IS("bad-level") ? 0xFFFFFFFFu : OPCTS_FEATURE_LEVEL(1, 0),
           "",
           ""};
  return OPCTS_STATUS_OK;
}
int32_t Query(void*, const opcts_op_desc*, char*, size_t) { return OPCTS_STATUS_NOT_SUPPORTED; }
int32_t Execute(void*, const opcts_op_desc*, const opcts_binding*, uint32_t, char*, size_t) {
  return OPCTS_STATUS_NOT_SUPPORTED;
}

const opcts_backend_api kApi = {
    BAD_IS("abi-version") ? 999u : OPCTS_ABI_VERSION,
    BAD_IS("short-table") ? 8u : static_cast<uint32_t>(sizeof(opcts_backend_api)),
    Create,
    Destroy,
    GetInfo,
    Query,
    BAD_IS("null-function") ? nullptr : Execute};

}  // namespace

extern "C" OPCTS_EXPORT const opcts_backend_api* OPCTS_ENTRY_NAME(void) {
  return BAD_IS("null-table") ? nullptr : &kApi;
}
