#include "scan_op.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/plugin_support.h"
#include "strided_copy.h"
#include "support.h"

namespace opcts::vulkan {
namespace {

constexpr uint32_t kItemsPerInvocation = 4;  // kItems in scan_blocks.comp
constexpr uint32_t kShortLine = 64;          // innermost lines up to this length scan serially
constexpr uint64_t kFewLines = 4096;         // fewer lines than this get workgroup scans

// Mirrors the push constants in shaders/scan_ops.glsl.
struct ScanParams {
  uint32_t lines;
  uint32_t len;
  uint32_t inner;
  uint32_t reverse;
  uint32_t exclusive;
  uint32_t blocks;
};

struct Accumulator {
  const char* name;  // the ACC_* variant suffix
  uint32_t bytes;
  Convert widen;
  Convert narrow;
};

// What `op`'s scans of `data_type` accumulate in on this device, and the conversions to and from.
Accumulator AccumulatorFor(const abi::Operator& op, uint32_t data_type,
                           const EnabledFeatures& enabled) {
  if (ComputesInFloat64(op, data_type, enabled)) {
    return data_type == OPCTS_DTYPE_BFLOAT16
               ? Accumulator{"f64", 8, Convert::kBFloat16ToDouble, Convert::kDoubleToBFloat16}
               : Accumulator{"f64", 8, Convert::kFloatToDouble, Convert::kDoubleToFloat};
  }
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT32:
      return {"f32", 4, Convert::kNone, Convert::kNone};
    case OPCTS_DTYPE_FLOAT16:
      return {"f32", 4, Convert::kHalfToFloat, Convert::kFloatToHalf};
    case OPCTS_DTYPE_BFLOAT16:
      return {"f32", 4, Convert::kBFloat16ToFloat, Convert::kFloatToBFloat16};
    case OPCTS_DTYPE_FLOAT64:
      return {"f64", 8, Convert::kNone, Convert::kNone};
    case OPCTS_DTYPE_INT64:
    case OPCTS_DTYPE_UINT64:
      return {"u64", 8, Convert::kNone, Convert::kNone};
    default:
      return {"u32", 4, Convert::kNone, Convert::kNone};
  }
}

struct Geometry {
  uint32_t lines = 1;  // outer * inner
  uint32_t len = 1;
  uint32_t inner = 1;
  uint32_t blocks = 0;  // 0: one invocation per line (scan_lines); else blocks per line
};

Geometry PlanGeometry(const plugin::TensorLayout& layout, uint32_t axis, uint32_t block_elements) {
  Geometry g;
  g.len = layout.sizes[axis];
  for (size_t d = axis + 1; d < layout.sizes.size(); ++d) g.inner *= layout.sizes[d];
  g.lines = static_cast<uint32_t>(layout.element_count / g.len);
  const bool innermost = g.inner == 1 && g.len > kShortLine;
  const bool long_and_few = g.len > block_elements && g.lines < kFewLines;
  if (innermost || long_and_few) g.blocks = (g.len + block_elements - 1) / block_elements;
  return g;
}

Result<void> RecordScan(Gpu& gpu, const Accumulator& acc, bool product, const Geometry& g,
                        const ScanParams& params, BufferRange work, BufferRange sums) {
  const std::string op = product ? "prod" : "sum";
  const std::string suffix = std::string(acc.name) + "." + op;
  const Device& device = gpu.device;
  if (g.blocks == 0) {
    OPCTS_ASSIGN_OR_RETURN(const VkPipeline lines, gpu.kernels.Get("scan_lines." + suffix));
    return gpu.commands.Dispatch(lines, {work}, params, device.GroupsFor(g.lines));
  }
  const bool subgroups = device.enabled().subgroups &&
                         (std::string_view(acc.name) != "u64" || device.enabled().subgroup_int64);
  const std::string variant = "scan_blocks." + suffix + (subgroups ? ".subgroup" : ".shared");
  const uint64_t block_count = uint64_t{g.lines} * g.blocks;
  const uint32_t block_groups =
      static_cast<uint32_t>(std::min<uint64_t>(block_count, device.max_groups()));
  if (g.blocks > 1) {
    OPCTS_ASSIGN_OR_RETURN(const VkPipeline reduce, gpu.kernels.Get(variant, 0));
    OPCTS_TRY(gpu.commands.Dispatch(reduce, {work, sums}, params, block_groups));
    gpu.commands.Barrier();
    OPCTS_ASSIGN_OR_RETURN(const VkPipeline scan_sums, gpu.kernels.Get(variant, 1));
    OPCTS_TRY(gpu.commands.Dispatch(scan_sums, {work, sums}, params,
                                    std::min(g.lines, device.max_groups())));
    gpu.commands.Barrier();
  }
  OPCTS_ASSIGN_OR_RETURN(const VkPipeline downsweep, gpu.kernels.Get(variant, 2));
  return gpu.commands.Dispatch(downsweep, {work, sums}, params, block_groups);
}

}  // namespace

Result<void> CheckScanSupport(const Device& device, const abi::Operator& op,
                              const opcts_tensor_desc& input, const opcts_tensor_desc& output) {
  OPCTS_TRY(CheckScanDType(op, input.data_type, device.enabled()));
  const plugin::TensorLayout layout = plugin::MakeLayout(input);
  OPCTS_TRY(CheckElementCount("the input", layout.element_count));
  const DeviceCaps& caps = device.caps();
  OPCTS_TRY(CheckBufferFits(caps, "the input", RoundToWords(input.total_tensor_size_in_bytes)));
  OPCTS_TRY(CheckBufferFits(caps, "the output", RoundToWords(output.total_tensor_size_in_bytes)));
  const uint64_t work =
      layout.element_count * AccumulatorFor(op, input.data_type, device.enabled()).bytes;
  return CheckBufferFits(caps, "the packed accumulators", work);
}

Result<void> RunScan(Gpu& gpu, const ScanProblem& problem, const opcts_binding& input,
                     const opcts_binding& output) {
  const plugin::TensorLayout in = plugin::MakeLayout(*problem.input);
  const plugin::TensorLayout out = plugin::MakeLayout(*problem.output);
  const uint32_t element_bytes = static_cast<uint32_t>(plugin::DTypeSize(in.data_type));
  const Accumulator acc = AccumulatorFor(*problem.op, in.data_type, gpu.device.enabled());
  const Geometry g =
      PlanGeometry(in, problem.axis, gpu.device.workgroup_size() * kItemsPerInvocation);
  const ScanParams params{g.lines,
                          g.len,
                          g.inner,
                          problem.reverse ? 1u : 0u,
                          problem.exclusive ? 1u : 0u,
                          std::max(g.blocks, 1u)};

  // In place, one device buffer holds both tensors; the host region then spans both bindings.
  const bool in_place = input.data == output.data;
  const uint64_t in_bytes =
      in_place ? std::max(input.size_in_bytes, output.size_in_bytes) : input.size_in_bytes;
  const uint64_t out_bytes = output.size_in_bytes;
  const uint64_t out_offset = in_place ? 0 : RoundToWords(in_bytes);  // in staging
  const uint64_t work_bytes = in.element_count * acc.bytes;
  const uint64_t sums_bytes = std::max<uint64_t>(uint64_t{g.lines} * g.blocks * acc.bytes, 8);

  BufferPool& pool = gpu.buffers;
  OPCTS_TRY(pool.Ensure(Slot::kInput, RoundToWords(in_bytes)));
  if (!in_place) OPCTS_TRY(pool.Ensure(Slot::kOutput, RoundToWords(out_bytes)));
  OPCTS_TRY(pool.Ensure(Slot::kWork, work_bytes));
  OPCTS_TRY(pool.Ensure(Slot::kBlockSums, sums_bytes));
  OPCTS_TRY(
      pool.Ensure(Slot::kStaging, out_offset + RoundToWords(in_place ? in_bytes : out_bytes)));
  const VkBuffer staging = pool.buffer(Slot::kStaging);
  const BufferRange input_buffer{pool.buffer(Slot::kInput), RoundToWords(in_bytes)};
  const BufferRange output_buffer =
      in_place ? input_buffer : BufferRange{pool.buffer(Slot::kOutput), RoundToWords(out_bytes)};
  const BufferRange work{pool.buffer(Slot::kWork), work_bytes};
  const BufferRange sums{pool.buffer(Slot::kBlockSums), sums_bytes};

  // The output is uploaded too: bytes the kernels do not write (padding) keep their values.
  std::memcpy(pool.staging(), input.data, in_bytes);
  if (!in_place) std::memcpy(pool.staging() + out_offset, output.data, out_bytes);

  CommandStream& commands = gpu.commands;
  OPCTS_TRY(commands.Begin());
  commands.Copy(staging, 0, input_buffer.buffer, 0, in_bytes);
  if (!in_place) commands.Copy(staging, out_offset, output_buffer.buffer, 0, out_bytes);
  commands.Barrier();
  const std::vector<uint32_t> packed = PackedStrides(in.sizes);
  const StridedTensor work_tensor{work, packed, acc.bytes};
  OPCTS_TRY(RecordStridedCopy(gpu, in.sizes, {input_buffer, in.strides, element_bytes}, work_tensor,
                              acc.widen));
  commands.Barrier();
  OPCTS_TRY(RecordScan(gpu, acc, problem.product, g, params, work, sums));
  commands.Barrier();
  OPCTS_TRY(RecordStridedCopy(gpu, in.sizes, work_tensor,
                              {output_buffer, out.strides, element_bytes}, acc.narrow));
  commands.Barrier();
  commands.Copy(output_buffer.buffer, 0, staging, out_offset, out_bytes);
  commands.Barrier();
  OPCTS_TRY(commands.SubmitAndWait());
  std::memcpy(output.data, pool.staging() + out_offset, out_bytes);
  return {};
}

}  // namespace opcts::vulkan
