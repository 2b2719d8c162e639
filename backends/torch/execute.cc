#include "torch/execute.h"

#include <string>
#include <string_view>

#include <ATen/ATen.h>

#include "common/family_views.h"
#include "torch/scan.h"
#include "torch/scatter_nd.h"
#include "torch/tensor_view.h"

namespace opcts::torch_cpu {
namespace {

Result<void> RunScan(const abi::Operator& info, const void* desc, const opcts_binding* bindings) {
  const plugin::ScanView scan = plugin::ReadScan(info, desc);
  OPCTS_ASSIGN_OR_RETURN(const uint32_t axis, plugin::ResolveScanAxis(scan, bindings));
  OPCTS_ASSIGN_OR_RETURN(const at::Tensor input,
                         TensorView(*scan.input.desc, bindings[scan.input.binding]));
  OPCTS_ASSIGN_OR_RETURN(const at::Tensor output,
                         TensorView(*scan.output.desc, bindings[scan.output.binding]));
  TorchScan(input, output, axis, {scan.product, scan.reverse != 0, scan.exclusive != 0});
  return {};
}

// DirectML's tensors carry leading ones beyond their dimension counts; torch sees only the
// meaningful trailing dimensions (for ONNX the counts are the ranks): input and output r of
// them, indices q, updates (q - 1) + (r - k) for tuples of k.
Result<void> RunScatterND(const abi::Operator& info, const void* desc,
                          const opcts_binding* bindings) {
  const plugin::ScatterView scatter = plugin::ReadScatter(info, desc);
  const opcts_tensor_desc& indices_desc = *scatter.indices.desc;
  const uint32_t tuple_size = indices_desc.sizes[indices_desc.dimension_count - 1];
  const uint32_t updates_dimensions =
      scatter.indices_dimension_count - 1 + scatter.input_dimension_count - tuple_size;
  OPCTS_ASSIGN_OR_RETURN(const at::Tensor input,
                         TensorView(*scatter.input.desc, bindings[scatter.input.binding],
                                    scatter.input_dimension_count));
  OPCTS_ASSIGN_OR_RETURN(
      const at::Tensor indices,
      TensorView(indices_desc, bindings[scatter.indices.binding], scatter.indices_dimension_count));
  OPCTS_ASSIGN_OR_RETURN(
      const at::Tensor updates,
      TensorView(*scatter.updates.desc, bindings[scatter.updates.binding], updates_dimensions));
  OPCTS_ASSIGN_OR_RETURN(const at::Tensor output,
                         TensorView(*scatter.output.desc, bindings[scatter.output.binding],
                                    scatter.input_dimension_count));
  try {
    TorchScatterND(input, indices, updates, output,
                   static_cast<plugin::ScatterReduction>(scatter.reduction));
  } catch (const c10::IndexError& e) {
    return InvalidInput(std::string("torch refuses out-of-range indices: ") +
                        e.what_without_backtrace());
  }
  return {};
}

}  // namespace

Result<void> ExecuteWithTorch(const opcts_op_desc& op, const opcts_binding* bindings) {
  const abi::Operator& info = *abi::FindOperator(op.type);
  if (std::string_view(info.family) == "scatter_nd") return RunScatterND(info, op.desc, bindings);
  return RunScan(info, op.desc, bindings);
}

}  // namespace opcts::torch_cpu
