/* opcts backend plugin ABI.
 *
 * A backend is a shared library exporting one symbol, `opcts_backend_entry`, which returns a
 * table of function pointers. Only C types cross this boundary; the harness owns every buffer
 * (tensor memory and message buffers) and the plugin must not keep pointers into them after a
 * call returns. A function must never let a C++ exception or a longjmp escape.
 *
 * Lifecycle:  entry() -> create(options) -> get_info -> { query -> execute }* -> destroy
 *
 * Operators mirror DirectML's DML_OPERATOR_DESC: `opcts_op_desc.type` says which struct
 * `opcts_op_desc.desc` points to (opcts/operators.h). Bindings passed to execute follow the order
 * of the tensor pointers in that struct. The output binding may alias the input binding (same
 * `data`) when the operator allows in-place execution.
 */
#ifndef OPCTS_BACKEND_H_
#define OPCTS_BACKEND_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change; the loader refuses a plugin built for another value.
 * The ABI also grows compatibly, without a bump: new operator codes and new descriptor structs
 * are added, never changed. A plugin built before an operator existed must answer
 * OPCTS_STATUS_NOT_SUPPORTED at query for an operator type it does not know (never OK). */
#define OPCTS_ABI_VERSION 1u

#if defined(_WIN32)
#define OPCTS_EXPORT __declspec(dllexport)
#else
#define OPCTS_EXPORT __attribute__((visibility("default")))
#endif

/* Data types: the values of DML_TENSOR_DATA_TYPE, plus BFLOAT16 (OpenVINO). */
#define OPCTS_DTYPE_FLOAT32 1u
#define OPCTS_DTYPE_FLOAT16 2u
#define OPCTS_DTYPE_UINT32 3u
#define OPCTS_DTYPE_UINT16 4u
#define OPCTS_DTYPE_UINT8 5u
#define OPCTS_DTYPE_INT32 6u
#define OPCTS_DTYPE_INT16 7u
#define OPCTS_DTYPE_INT8 8u
#define OPCTS_DTYPE_FLOAT64 9u
#define OPCTS_DTYPE_UINT64 10u
#define OPCTS_DTYPE_INT64 11u
#define OPCTS_DTYPE_BFLOAT16 12u

/* DirectML feature levels use DML_FEATURE_LEVEL's encoding: 0xMm00 for level M_m. */
#define OPCTS_FEATURE_LEVEL(major, minor) ((uint32_t)(((major) << 12) | ((minor) << 8)))

/* Status codes returned by create, query and execute. Any other value is no answer: opcts
 * fails the case (status Fail, naming the code) whatever the case was.
 *
 * `query` decides support: a backend that answers OK there promises that `execute` runs the
 * case, so execute answering NOT_SUPPORTED or ERROR after a query OK fails the case, claimed or
 * not. The one refusal allowed after a query OK is INVALID for *data* the spec lets a backend
 * refuse: out-of-range ScatterND index values (the spec leaves their effect to the
 * implementation; refusing them, as PyTorch and ONNX Runtime do, is conformant, and so is
 * skipping them or writing their slices' values anywhere inside the output; every element still
 * holds what the in-range tuples give it or one of those values). */
#define OPCTS_STATUS_OK 0            /* supported / executed */
#define OPCTS_STATUS_NOT_SUPPORTED 1 /* valid, but this backend does not implement it (query) */
#define OPCTS_STATUS_INVALID 2       /* the descriptor or data violates the operator's rules */
#define OPCTS_STATUS_ERROR 3         /* the backend failed (device lost, out of memory, ...) */

/* DML_BUFFER_TENSOR_DESC. Sizes and strides are in elements; strides == NULL means packed. */
typedef struct opcts_tensor_desc {
  uint32_t data_type;       /* OPCTS_DTYPE_* */
  uint32_t flags;           /* DML_TENSOR_FLAGS; always 0 today */
  uint32_t dimension_count; /* 0 only for an OpenVINO scalar */
  const uint32_t* sizes;
  const uint32_t* strides;
  uint64_t total_tensor_size_in_bytes;
  uint32_t guaranteed_base_offset_alignment;
} opcts_tensor_desc;

/* The operators: codes (OPCTS_OP_*), descriptor structs and enum values, generated from
 * the operator specs (spec/NAME.yaml). A new operator adds a code and a struct there; existing ones
 * never change. */
#include "opcts/operators.h"

typedef struct opcts_op_desc {
  uint32_t type;    /* OPCTS_OP_* */
  const void* desc; /* the struct named by type */
} opcts_op_desc;

/* One tensor's memory, owned by the harness. */
typedef struct opcts_binding {
  void* data;
  uint64_t size_in_bytes; /* equals the desc's total_tensor_size_in_bytes */
} opcts_binding;

/* What a backend instance says about itself. Strings are owned by the instance and stay valid
 * until destroy. */
typedef struct opcts_backend_info {
  const char* name;       /* "cpu-simd" */
  const char* version;    /* the backend's own version */
  const char* device;     /* "AMD EPYC (AVX2)", "llvmpipe (LLVM 15, 256 bits)" */
  uint32_t feature_level; /* the DirectML feature level claimed: OPCTS_FEATURE_LEVEL(5, 0) */
  /* Space-separated claims for operators of other level schemes, "<scheme>.<level>", e.g.
   * "openvino.opset3 onnx.opset18"; "" if none. A claim covers that level and every lower one of
   * its scheme, as feature_level does for DirectML. */
  const char* extra_support;
  const char* details; /* free text: features found, driver, SIMD target; "" if none */
} opcts_backend_info;

/* `message` buffers are harness-owned, `message_capacity` bytes, to be NUL-terminated. */
typedef struct opcts_backend_api {
  uint32_t abi_version; /* OPCTS_ABI_VERSION */
  uint32_t struct_size; /* sizeof(opcts_backend_api) */
  /* options: "key=value;key=value" or "" (e.g. "device=1"). */
  int32_t (*create)(const char* options, void** instance, char* message, size_t message_capacity);
  void (*destroy)(void* instance);
  int32_t (*get_info)(void* instance, opcts_backend_info* info);
  /* Supported (OK), NOT_SUPPORTED or INVALID, decided from descriptors alone. */
  int32_t (*query)(void* instance, const opcts_op_desc* op, char* message, size_t message_capacity);
  int32_t (*execute)(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                     uint32_t binding_count, char* message, size_t message_capacity);
} opcts_backend_api;

#define OPCTS_BACKEND_ENTRY_SYMBOL "opcts_backend_entry"
typedef const opcts_backend_api* (*opcts_backend_entry_fn)(void);

/* Every plugin defines this. */
OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* OPCTS_BACKEND_H_ */
