/* Generated from the operator specs (spec/NAME.yaml) by spec/abi_codegen.cc: do not edit. The build regenerates it
 * and fails while this copy differs; the failure prints the command that refreshes it.
 *
 * The operators of the backend ABI: included by opcts/backend.h, after opcts_tensor_desc.
 * `opcts_op_desc.type` is an OPCTS_OP_* code and `desc` points to that operator's struct.
 * Bindings passed to execute follow the order of the struct's tensor members; an optional
 * tensor that is absent is NULL in the struct and bound as {NULL, 0}. */
#ifndef OPCTS_OPERATORS_H_
#define OPCTS_OPERATORS_H_

#define OPCTS_OP_DML_CUMULATIVE_SUMMATION 1u /* spec/dml_cumulative_summation.yaml */
#define OPCTS_OP_DML_CUMULATIVE_PRODUCT 2u /* spec/dml_cumulative_product.yaml */
#define OPCTS_OP_DML_SCATTER_ND 3u /* spec/dml_scatter_nd.yaml */
#define OPCTS_OP_OPENVINO_CUMSUM_3 4u /* spec/openvino_cumsum_3.yaml */
#define OPCTS_OP_ONNX_CUMSUM 5u /* spec/onnx_cumsum.yaml */
#define OPCTS_OP_ONNX_SCATTER_ND 6u /* spec/onnx_scatter_nd.yaml */

/* DML_CUMULATIVE_SUMMATION.AxisDirection */
#define OPCTS_AXIS_DIRECTION_INCREASING 0u
#define OPCTS_AXIS_DIRECTION_DECREASING 1u

/* ONNX_SCATTER_ND.reduction */
#define OPCTS_SCATTER_REDUCTION_NONE 0u
#define OPCTS_SCATTER_REDUCTION_ADD 1u
#define OPCTS_SCATTER_REDUCTION_MUL 2u
#define OPCTS_SCATTER_REDUCTION_MAX 3u
#define OPCTS_SCATTER_REDUCTION_MIN 4u

/* DML_CUMULATIVE_SUMMATION, DML_CUMULATIVE_PRODUCT. */
typedef struct opcts_dml_cumulative_desc {
  const opcts_tensor_desc* input; /* InputTensor: The input tensor containing elements to be summed. */
  const opcts_tensor_desc* output; /* OutputTensor: The output tensor to write the resulting cumulative summations to. */
  uint32_t axis; /* Axis: The index of the dimension to sum elements over. */
  uint32_t axis_direction; /* AxisDirection: OPCTS_AXIS_DIRECTION_*. DML_AXIS_DIRECTION; DECREASING traverses elements by descending index. */
  uint32_t has_exclusive; /* HasExclusiveSum / HasExclusiveProduct: bool. If TRUE the current element is excluded from the running tally it is written with. */
} opcts_dml_cumulative_desc;

/* DML_SCATTER_ND. */
typedef struct opcts_dml_scatter_nd_desc {
  const opcts_tensor_desc* input; /* InputTensor: The tensor to read from. */
  const opcts_tensor_desc* indices; /* IndicesTensor: Index tuples; the last dimension is the tuple size. */
  const opcts_tensor_desc* updates; /* UpdatesTensor: The values written at the indexed positions. */
  const opcts_tensor_desc* output; /* OutputTensor: The tensor to write the results to. */
  uint32_t input_dimension_count; /* InputDimensionCount: Meaningful (trailing) dimensions of InputTensor after ignoring leading ones. */
  uint32_t indices_dimension_count; /* IndicesDimensionCount: Meaningful (trailing) dimensions of IndicesTensor after ignoring leading ones. */
} opcts_dml_scatter_nd_desc;

/* OPENVINO_CUMSUM_3. */
typedef struct opcts_openvino_cumsum_desc {
  const opcts_tensor_desc* data; /* data: 1: a tensor of type T and rank >= 1. */
  const opcts_tensor_desc* axis; /* axis (optional: NULL when absent): 2: a scalar of type T_AXIS; negative counts from the back; default 0. */
  const opcts_tensor_desc* output; /* output: 1: cumulative sums, type T, the same shape as the first input. */
  uint32_t exclusive; /* exclusive: bool. If true the j-th element is not included in the j-th sum. */
  uint32_t reverse; /* reverse: bool. If true the sums run in the reverse direction. */
} opcts_openvino_cumsum_desc;

/* ONNX_CUMSUM. */
typedef struct opcts_onnx_cumsum_desc {
  const opcts_tensor_desc* x; /* x: x (T): an input tensor that is to be processed. */
  const opcts_tensor_desc* axis; /* axis: axis (T2): a 0-D tensor in [-rank(x), rank(x)-1]; negative counts dimensions from the back. Required. */
  const opcts_tensor_desc* y; /* y: y (T): output tensor of the same type as x with cumulative sums of x's elements. */
  uint32_t exclusive; /* exclusive: bool. If 1 the j-th output element is the sum of the first j-1 elements (INT attribute, default 0). */
  uint32_t reverse; /* reverse: bool. If 1 the sums run in the reverse direction of the axis (INT attribute, default 0). */
} opcts_onnx_cumsum_desc;

/* ONNX_SCATTER_ND. */
typedef struct opcts_onnx_scatter_nd_desc {
  const opcts_tensor_desc* data; /* data: data (T): tensor of rank r >= 1. */
  const opcts_tensor_desc* indices; /* indices: indices (tensor(int64)): tensor of rank q >= 1; the last dimension k <= r is the index tuple size. */
  const opcts_tensor_desc* updates; /* updates: updates (T): tensor of rank q + r - k - 1, shape indices.shape[0:q-1] ++ data.shape[k:r]. */
  const opcts_tensor_desc* output; /* output: output (T): tensor of rank r >= 1, a copy of data with the slices updated. */
  uint32_t reduction; /* reduction: OPCTS_SCATTER_REDUCTION_*. Type of reduction to apply (from version 16): none (default), add, mul; max and min from version 18. With a reduction f, output[indices[idx]] = f(output[indices[idx]], updates[idx]). */
} opcts_onnx_scatter_nd_desc;

#endif /* OPCTS_OPERATORS_H_ */
