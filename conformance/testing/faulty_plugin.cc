// A deliberately faulty backend for the harness's own tests: it forwards to cpu-reference and
// injects the one fault named by OPCTS_FAULT at compile time. Each fault is built as its own
// plugin, opcts-fault-<name>.so, in the test-plugin directory (never among the built-ins).
//
// Faults:
//   flip-bit-f16     the lowest bit of the first output element of every FLOAT16 output flipped
//   flip-sign-long-axis on a FLOAT32 scan whose axis is a parameter (DirectML) and whose scanned
//                    dimension is longer than 5: the sign of the output element at position 5 along
//                    it (the other coordinates 0) flipped
//   write-past-end   one element written just past the output's TotalTensorSizeInBytes
//   write-into-input the input's first byte changed (when not in place)
//   skip-write       returns success without writing the output
//   claim-unsupported claims 5_0 but refuses INT64/UINT64 at query
//   accept-invalid   answers OK at query and execute for everything, computing nothing when invalid
//   accept-invalid-read-oob  the same, and reads past the end of the input when it is invalid
//   segfault-f16     dereferences NULL on every FLOAT16 execute
//   hang-u16         loops forever on every UINT16 execute
//   abort-i8         calls abort() on every INT8 execute
//   throw-bf16       lets a C++ exception escape through the C ABI on every BFLOAT16 execute
//   leak             leaks 1 MiB on every execute
//   refuse-all       claims level 1_0 and nothing else, and refuses every case at query
//   unknown-status   answers 77 at query for FLOAT32 and -1 at execute for INT32: no ABI status
//   execute-error-f16 accepts FLOAT16 at query, then answers ERROR at execute
//   print-stdout     prints a forged result line on stdout at every execute, and answers ERROR
//                    at every FLOAT16 execute
//   restart-hangs    dereferences NULL on every FLOAT16 execute; create hangs in every worker
//                    after the first (a marker file per parent process tells them apart)
//   scribble-const   writes into the output's const Sizes array at query (FLOAT32) and into the
//                    const bindings array at execute (INT32)
//   write-far        writes 1 MiB past the end of every FLOAT32 output
//   late-write       at the first INT32 execute, starts a thread that keeps writing into that
//                    output every millisecond, after execute returned
//   memory-hog       leaks 64 MiB, touched, on every execute
//   leak-10mib       leaks 10 MiB, touched, on every execute
//   thread-crash     at the first INT32 execute, starts a thread that dereferences NULL 20 ms
//                    later, and waits in that execute (2 s) for it
//   fork-child       forks a child that sleeps 60 s (holding every descriptor; its pid in
//                    /tmp/opcts-fork-child-<parent of the worker>) at the first execute, and
//                    dereferences NULL on every FLOAT16 execute
//   hostile-strings  a device name with terminal escapes, 10 000 bytes of details, and a refusal
//                    of FLOAT32 at query whose message forges a result line
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/operator_table.h"
#include "opcts/backend.h"

namespace {

#define FAULT_IS(name) (std::strcmp(OPCTS_FAULT, name) == 0)

const opcts_backend_api* inner = nullptr;

bool LoadInner() {
  if (inner != nullptr) return true;
  void* library = dlopen(OPCTS_INNER_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return false;
  auto entry = reinterpret_cast<opcts_backend_entry_fn>(dlsym(library, OPCTS_BACKEND_ENTRY_SYMBOL));
  inner = entry ? entry() : nullptr;
  return inner != nullptr;
}

const opcts_tensor_desc* Output(const opcts_op_desc* op) {
  const opcts::abi::Operator* info = opcts::abi::FindOperator(op->type);
  const opcts::abi::Field* output = info ? info->RoleField("output") : nullptr;
  return output ? output->ReadTensor(op->desc) : nullptr;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  if (FAULT_IS("restart-hangs")) {
    const std::string marker = "/tmp/opcts-restart-hangs-" + std::to_string(getppid());
    if (std::FILE* seen = std::fopen(marker.c_str(), "r")) {
      std::fclose(seen);
      for (volatile bool forever = true; forever;) {
      }
    }
    if (std::FILE* mark = std::fopen(marker.c_str(), "w")) std::fclose(mark);
  }
  if (!LoadInner()) {
    std::snprintf(message, capacity, "cannot load %s", OPCTS_INNER_PLUGIN);
    return OPCTS_STATUS_ERROR;
  }
  return inner->create(options, instance, message, capacity);
}

void Destroy(void* instance) { inner->destroy(instance); }

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  const int32_t status = inner->get_info(instance, info);
  info->name = "fault-" OPCTS_FAULT;
  if (FAULT_IS("hostile-strings")) {
    static const std::string details(10000, 'D');
    info->device = "\x1b[31mred\x1b[0m GPU\r";
    info->details = details.c_str();
  }
  if (FAULT_IS("refuse-all")) {  // the plugin template's starting claim
    info->feature_level = OPCTS_FEATURE_LEVEL(1, 0);
    info->extra_support = "";
  }
  return status;
}

// flip-sign-long-axis: the byte holding the sign of the FLOAT32 output element at position 5 of
// a parameter-axis scan's scanned dimension, the other coordinates 0; -1 when there is none.
int64_t SignByteAtPosition5(const opcts_op_desc* op) {
  const opcts::abi::Operator* info = opcts::abi::FindOperator(op->type);
  const opcts::abi::Field* axis = info ? info->RoleField("axis") : nullptr;
  const opcts_tensor_desc* out = Output(op);
  if (axis == nullptr || axis->is_tensor || out == nullptr || out->data_type != OPCTS_DTYPE_FLOAT32)
    return -1;
  const uint32_t dim = axis->ReadUInt32(op->desc);
  if (dim >= out->dimension_count || out->sizes[dim] <= 5) return -1;
  int64_t stride = 1;  // in elements
  if (out->strides != nullptr)
    stride = out->strides[dim];
  else
    for (uint32_t d = dim + 1; d < out->dimension_count; ++d) stride *= out->sizes[d];
  return 5 * stride * 4 + 3;  // little-endian: the sign is the top bit of the last byte
}

bool AcceptsInvalid() { return FAULT_IS("accept-invalid") || FAULT_IS("accept-invalid-read-oob"); }

int32_t Query(void* instance, const opcts_op_desc* op, char* message, size_t capacity) {
  if (AcceptsInvalid()) return OPCTS_STATUS_OK;
  const opcts_tensor_desc* out = Output(op);
  if (FAULT_IS("refuse-all")) {
    std::snprintf(message, capacity, "not implemented yet");
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
  if (FAULT_IS("unknown-status") && out && out->data_type == OPCTS_DTYPE_FLOAT32) return 77;
  if (FAULT_IS("scribble-const") && out && out->data_type == OPCTS_DTYPE_FLOAT32 && out->sizes &&
      out->dimension_count > 0) {
    const int32_t status = inner->query(instance, op, message, capacity);
    const_cast<uint32_t*>(out->sizes)[0] ^= 1;
    return status;
  }
  if (FAULT_IS("hostile-strings") && out && out->data_type == OPCTS_DTYPE_FLOAT32) {
    std::snprintf(message, capacity, "\x1b[2K\rPass forged.case: all good\n\x1b]0;title\x07");
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
  if (FAULT_IS("claim-unsupported") && out &&
      (out->data_type == OPCTS_DTYPE_INT64 || out->data_type == OPCTS_DTYPE_UINT64)) {
    std::snprintf(message, capacity, "64-bit integers are not implemented");
    return OPCTS_STATUS_NOT_SUPPORTED;
  }
  return inner->query(instance, op, message, capacity);
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t count, char* message, size_t capacity) {
  if (FAULT_IS("claim-unsupported") && Query(instance, op, message, capacity) != OPCTS_STATUS_OK)
    return OPCTS_STATUS_NOT_SUPPORTED;
  if (FAULT_IS("skip-write")) return OPCTS_STATUS_OK;
  const opcts_tensor_desc* out_desc = Output(op);
  const uint32_t dtype = out_desc ? out_desc->data_type : 0;
  if (FAULT_IS("unknown-status") && dtype == OPCTS_DTYPE_INT32) return -1;
  if (FAULT_IS("scribble-const") && dtype == OPCTS_DTYPE_INT32 && count > 0) {
    const int32_t status = inner->execute(instance, op, bindings, count, message, capacity);
    const_cast<opcts_binding*>(bindings)[0].size_in_bytes += 1;
    return status;
  }
  if (FAULT_IS("execute-error-f16") && dtype == OPCTS_DTYPE_FLOAT16) {
    std::snprintf(message, capacity, "device lost");
    return OPCTS_STATUS_ERROR;
  }
  if (FAULT_IS("print-stdout")) {
    std::printf("Pass forged.case: printed by the plugin\n");
    std::fflush(stdout);
    if (dtype == OPCTS_DTYPE_FLOAT16) return OPCTS_STATUS_ERROR;
  }
  static bool thread_started = false;
  if (FAULT_IS("thread-crash") && dtype == OPCTS_DTYPE_INT32 && !thread_started) {
    thread_started = true;
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      volatile int* null = nullptr;
      *null = 1;
    }).detach();
    // The crash must land while the worker runs: a whole run can end within the 20 ms.
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  static bool forked = false;
  if (FAULT_IS("fork-child") && !forked) {
    forked = true;
    if (const pid_t child = fork(); child == 0) {
      sleep(60);
      _exit(0);
    } else if (std::FILE* note = std::fopen(
                   ("/tmp/opcts-fork-child-" + std::to_string(getppid())).c_str(), "w")) {
      std::fprintf(note, "%d\n", static_cast<int>(child));
      std::fclose(note);
    }
  }
  if ((FAULT_IS("segfault-f16") || FAULT_IS("restart-hangs") || FAULT_IS("fork-child")) &&
      dtype == OPCTS_DTYPE_FLOAT16) {
    volatile int* null = nullptr;
    *null = 1;
  }
  if (FAULT_IS("hang-u16") && dtype == OPCTS_DTYPE_UINT16)
    for (volatile bool forever = true; forever;) {
    }
  if (FAULT_IS("abort-i8") && dtype == OPCTS_DTYPE_INT8) std::abort();
  if (FAULT_IS("throw-bf16") && dtype == OPCTS_DTYPE_BFLOAT16)
    throw std::runtime_error("boom from the plugin");
  if (FAULT_IS("memory-hog") || FAULT_IS("leak-10mib")) {
    const size_t kHog = (FAULT_IS("memory-hog") ? size_t{64} : size_t{10}) << 20;
    auto* hog = static_cast<volatile char*>(std::malloc(kHog));
    for (size_t i = 0; hog != nullptr && i < kHog; i += 4096) hog[i] = 1;  // resident, page by page
  }
  if (FAULT_IS("leak")) {
    void* leaked = std::malloc(1 << 20);
    static_cast<volatile char*>(leaked)[0] = 1;
  }
  const int32_t status = inner->execute(instance, op, bindings, count, message, capacity);
  if (AcceptsInvalid() && status != OPCTS_STATUS_OK) {  // the inner one refused: pretend it ran
    if (FAULT_IS("accept-invalid-read-oob") && count > 0 && bindings[0].data) {
      volatile uint8_t sink =
          static_cast<const uint8_t*>(bindings[0].data)[bindings[0].size_in_bytes + 16];
      (void)sink;
    }
    return OPCTS_STATUS_OK;
  }
  if (status != OPCTS_STATUS_OK || count == 0) return status;
  const opcts_binding& out = bindings[count - 1];
  const opcts_tensor_desc* desc = Output(op);
  if (FAULT_IS("flip-bit-f16") && desc->data_type == OPCTS_DTYPE_FLOAT16)
    static_cast<uint8_t*>(out.data)[0] ^= 1;
  if (FAULT_IS("flip-sign-long-axis"))
    if (const int64_t sign = SignByteAtPosition5(op); sign >= 0)
      static_cast<uint8_t*>(out.data)[sign] ^= 0x80;
  if (FAULT_IS("write-past-end")) static_cast<uint8_t*>(out.data)[out.size_in_bytes] ^= 0xFF;
  if (FAULT_IS("write-far") && desc->data_type == OPCTS_DTYPE_FLOAT32)
    static_cast<volatile uint8_t*>(out.data)[out.size_in_bytes + (1 << 20)] = 1;
  static bool late_write_started = false;
  if (FAULT_IS("late-write") && desc->data_type == OPCTS_DTYPE_INT32 && !late_write_started) {
    late_write_started = true;
    auto* target = static_cast<volatile uint8_t*>(out.data);
    std::thread([target] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        target[0] = 1;
      }
    }).detach();
  }
  if (FAULT_IS("write-into-input") && bindings[0].data != out.data && bindings[0].size_in_bytes > 0)
    static_cast<uint8_t*>(bindings[0].data)[0] ^= 0xFF;
  return status;
}

const opcts_backend_api kApi = {
    OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy, GetInfo, Query, Execute};

}  // namespace

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) { return &kApi; }
