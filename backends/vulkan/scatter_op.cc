#include "scatter_op.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/plugin_support.h"
#include "strided_copy.h"
#include "support.h"

namespace opcts::vulkan {
namespace {

constexpr size_t kMaxRank = 8;

// Mirrors the push constants of scatter_nd.comp.
struct ScatterParams {
  uint32_t count;
  uint32_t slice;
  uint32_t tuple;
  uint32_t first_dim;
  uint32_t rank;
  uint32_t index_words;
  uint32_t index_bits;
  uint32_t index_signed;
  uint32_t data_bytes;
  uint32_t sizes[kMaxRank];
  uint32_t strides[kMaxRank];
};

// Mirrors the push constants of scatter_reduce.comp: ScatterParams, then four words.
struct ReduceParams {
  ScatterParams scatter;
  uint32_t reduction;
  uint32_t kind;
  uint32_t elements;
  uint32_t in_float64;
};

// scatter_reduce.comp's data kinds.
uint32_t ReduceKind(uint32_t data_type) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT32:
      return 0;
    case OPCTS_DTYPE_FLOAT64:
      return 1;
    case OPCTS_DTYPE_FLOAT16:
      return 2;
    case OPCTS_DTYPE_BFLOAT16:
      return 3;
    case OPCTS_DTYPE_INT8:
    case OPCTS_DTYPE_INT16:
    case OPCTS_DTYPE_INT32:
    case OPCTS_DTYPE_INT64:
      return 4;
  }
  return 5;  // unsigned integers
}

bool IsSigned(uint32_t data_type) {
  return data_type == OPCTS_DTYPE_INT8 || data_type == OPCTS_DTYPE_INT16 ||
         data_type == OPCTS_DTYPE_INT32 || data_type == OPCTS_DTYPE_INT64;
}

// Byte sizes of everything the scatter keeps on the device.
struct Footprint {
  uint32_t data_bytes;
  uint32_t index_bytes;
  uint32_t update_word_bytes;  // a packed update: 4 bytes, or 8 for 64-bit data
  uint32_t index_word_bytes;   // a packed index: 4 bytes, or 8 for 64-bit index types
  uint64_t index_words;
  uint64_t update_words;
  uint64_t elements;  // the output's
  uint64_t winners;   // duplicate resolution (one word per output element); with a reduction,
                      // a flag word and the float16/bfloat16 accumulator: float32 (one word) or,
                      // computing in float64, two words
  uint64_t work;      // the packed input, for in-place runs whose layouts differ
};

Footprint Measure(const plugin::ScatterView& view, bool in_float64) {
  Footprint f;
  f.data_bytes = static_cast<uint32_t>(plugin::DTypeSize(view.input.desc->data_type));
  f.index_bytes = static_cast<uint32_t>(plugin::DTypeSize(view.indices.desc->data_type));
  f.update_word_bytes = f.data_bytes == 8 ? 8 : 4;
  f.index_word_bytes = f.index_bytes == 8 ? 8 : 4;
  f.index_words = plugin::MakeLayout(*view.indices.desc).element_count * f.index_word_bytes;
  f.update_words = plugin::MakeLayout(*view.updates.desc).element_count * f.update_word_bytes;
  f.elements = std::max<uint64_t>(view.output.desc->total_tensor_size_in_bytes / f.data_bytes, 1);
  f.winners = f.elements * (view.reduction == 0 ? 4 : in_float64 ? 12 : 8);
  f.work = RoundToWords(plugin::MakeLayout(*view.input.desc).element_count * f.data_bytes);
  return f;
}

// Whether the reduction computes in float64 (support.h).
bool ReducesInFloat64(const Device& device, const abi::Operator& op,
                      const plugin::ScatterView& view) {
  return view.reduction != 0 && ComputesInFloat64(op, view.input.desc->data_type, device.enabled());
}

}  // namespace

Result<void> CheckScatterSupport(const Device& device, const abi::Operator& op,
                                 const plugin::ScatterView& view) {
  if (view.reduction != 0)
    OPCTS_TRY(CheckReductionDType(op, view.input.desc->data_type, device.enabled()));
  const DeviceCaps& caps = device.caps();
  const Footprint f = Measure(view, ReducesInFloat64(device, op, view));
  OPCTS_TRY(CheckElementCount("the input", plugin::MakeLayout(*view.input.desc).element_count));
  OPCTS_TRY(CheckElementCount("the updates", plugin::MakeLayout(*view.updates.desc).element_count));
  OPCTS_TRY(CheckBufferFits(caps, "the input",
                            RoundToWords(view.input.desc->total_tensor_size_in_bytes)));
  OPCTS_TRY(CheckBufferFits(caps, "the indices",
                            RoundToWords(view.indices.desc->total_tensor_size_in_bytes)));
  OPCTS_TRY(CheckBufferFits(caps, "the updates",
                            RoundToWords(view.updates.desc->total_tensor_size_in_bytes)));
  OPCTS_TRY(CheckBufferFits(caps, "the output",
                            RoundToWords(view.output.desc->total_tensor_size_in_bytes)));
  OPCTS_TRY(CheckBufferFits(caps, "the packed indices", f.index_words));
  OPCTS_TRY(CheckBufferFits(caps, "the packed updates", f.update_words));
  OPCTS_TRY(CheckBufferFits(caps, "the duplicate-resolution table", f.winners));
  return CheckBufferFits(caps, "the packed input", f.work);
}

Result<void> RunScatter(Gpu& gpu, const abi::Operator& op, const plugin::ScatterView& view,
                        const opcts_binding* bindings) {
  const plugin::TensorLayout in = plugin::MakeLayout(*view.input.desc);
  const plugin::TensorLayout indices = plugin::MakeLayout(*view.indices.desc);
  const plugin::TensorLayout updates = plugin::MakeLayout(*view.updates.desc);
  const plugin::TensorLayout out = plugin::MakeLayout(*view.output.desc);
  const bool in_float64 = ReducesInFloat64(gpu.device, op, view);
  const Footprint f = Measure(view, in_float64);
  const opcts_binding& input = bindings[view.input.binding];
  const opcts_binding& indices_binding = bindings[view.indices.binding];
  const opcts_binding& updates_binding = bindings[view.updates.binding];
  const opcts_binding& output = bindings[view.output.binding];

  ScatterParams params{};
  params.rank = static_cast<uint32_t>(out.sizes.size());
  params.tuple = indices.sizes.back();
  params.first_dim = params.rank - view.input_dimension_count;
  params.count = static_cast<uint32_t>(updates.element_count);
  params.slice = 1;
  for (uint32_t d = params.first_dim + params.tuple; d < params.rank; ++d) {
    params.slice *= out.sizes[d];
  }
  if (uint64_t{params.slice} * (indices.element_count / params.tuple) != updates.element_count) {
    return InternalError("scatter-nd: updates element count does not match indices x slice");
  }
  params.index_words = f.index_word_bytes / 4;
  params.index_bits = f.index_bytes * 8;
  params.index_signed = IsSigned(view.indices.desc->data_type) ? 1 : 0;
  params.data_bytes = f.data_bytes;
  std::copy(out.sizes.begin(), out.sizes.end(), params.sizes);
  std::copy(out.strides.begin(), out.strides.end(), params.strides);

  // In place, the output slot holds the input too; when both views share a layout there is
  // nothing to copy, otherwise the input goes through a packed buffer (read all, then write).
  const bool in_place = input.data == output.data;
  const bool same_layout = in.sizes == out.sizes && in.strides == out.strides;
  const uint64_t out_bytes =
      in_place ? std::max(input.size_in_bytes, output.size_in_bytes) : output.size_in_bytes;
  // Staging regions, word-aligned: output (or both), input, indices, updates.
  const uint64_t input_at = RoundToWords(out_bytes);
  const uint64_t indices_at = input_at + (in_place ? 0 : RoundToWords(input.size_in_bytes));
  const uint64_t updates_at = indices_at + RoundToWords(indices_binding.size_in_bytes);
  const uint64_t staging_bytes = updates_at + RoundToWords(updates_binding.size_in_bytes);

  BufferPool& pool = gpu.buffers;
  OPCTS_TRY(pool.Ensure(Slot::kOutput, RoundToWords(out_bytes)));
  if (!in_place) OPCTS_TRY(pool.Ensure(Slot::kInput, RoundToWords(input.size_in_bytes)));
  OPCTS_TRY(pool.Ensure(Slot::kIndices, RoundToWords(indices_binding.size_in_bytes)));
  OPCTS_TRY(pool.Ensure(Slot::kUpdates, RoundToWords(updates_binding.size_in_bytes)));
  OPCTS_TRY(pool.Ensure(Slot::kIndexWords, f.index_words));
  OPCTS_TRY(pool.Ensure(Slot::kUpdateWords, f.update_words));
  OPCTS_TRY(pool.Ensure(Slot::kWinners, f.winners));
  if (in_place && !same_layout) OPCTS_TRY(pool.Ensure(Slot::kWork, f.work));
  OPCTS_TRY(pool.Ensure(Slot::kStaging, staging_bytes));
  const VkBuffer staging = pool.buffer(Slot::kStaging);
  const BufferRange output_buffer{pool.buffer(Slot::kOutput), RoundToWords(out_bytes)};
  const BufferRange input_buffer =
      in_place ? output_buffer
               : BufferRange{pool.buffer(Slot::kInput), RoundToWords(input.size_in_bytes)};
  const BufferRange index_source{pool.buffer(Slot::kIndices),
                                 RoundToWords(indices_binding.size_in_bytes)};
  const BufferRange update_source{pool.buffer(Slot::kUpdates),
                                  RoundToWords(updates_binding.size_in_bytes)};
  const BufferRange index_words{pool.buffer(Slot::kIndexWords), f.index_words};
  const BufferRange update_words{pool.buffer(Slot::kUpdateWords), f.update_words};
  const BufferRange winners{pool.buffer(Slot::kWinners), f.winners};

  // The output is uploaded too: bytes the kernels do not write (padding) keep their values.
  std::byte* host = pool.staging();
  std::memcpy(host, output.data, out_bytes);
  if (!in_place) std::memcpy(host + input_at, input.data, input.size_in_bytes);
  std::memcpy(host + indices_at, indices_binding.data, indices_binding.size_in_bytes);
  std::memcpy(host + updates_at, updates_binding.data, updates_binding.size_in_bytes);

  CommandStream& commands = gpu.commands;
  OPCTS_TRY(commands.Begin());
  commands.Copy(staging, 0, output_buffer.buffer, 0, out_bytes);
  if (!in_place) commands.Copy(staging, input_at, input_buffer.buffer, 0, input.size_in_bytes);
  commands.Copy(staging, indices_at, index_source.buffer, 0, indices_binding.size_in_bytes);
  commands.Copy(staging, updates_at, update_source.buffer, 0, updates_binding.size_in_bytes);
  commands.Fill(winners.buffer, winners.bytes, 0);
  commands.Barrier();

  const std::vector<uint32_t> packed_input = PackedStrides(in.sizes);
  const StridedTensor packed_copy{{pool.buffer(Slot::kWork), f.work}, packed_input, f.data_bytes};
  if (!in_place) {
    OPCTS_TRY(RecordStridedCopy(gpu, in.sizes, {input_buffer, in.strides, f.data_bytes},
                                {output_buffer, out.strides, f.data_bytes}, Convert::kNone));
  } else if (!same_layout) {
    OPCTS_TRY(RecordStridedCopy(gpu, in.sizes, {input_buffer, in.strides, f.data_bytes},
                                packed_copy, Convert::kNone));
  }
  const std::vector<uint32_t> packed_indices = PackedStrides(indices.sizes);
  OPCTS_TRY(RecordStridedCopy(gpu, indices.sizes, {index_source, indices.strides, f.index_bytes},
                              {index_words, packed_indices, f.index_word_bytes}, Convert::kNone));
  const std::vector<uint32_t> packed_updates = PackedStrides(updates.sizes);
  OPCTS_TRY(RecordStridedCopy(gpu, updates.sizes, {update_source, updates.strides, f.data_bytes},
                              {update_words, packed_updates, f.update_word_bytes}, Convert::kNone));
  commands.Barrier();
  if (in_place && !same_layout) {
    OPCTS_TRY(RecordStridedCopy(gpu, in.sizes, packed_copy,
                                {output_buffer, out.strides, f.data_bytes}, Convert::kNone));
  }
  // Plain writes: one invocation per update element. Reductions: one per slice element.
  const ReduceParams reduce{params, view.reduction, ReduceKind(view.input.desc->data_type),
                            static_cast<uint32_t>(f.elements), in_float64 ? 1u : 0u};
  const std::string kernel = view.reduction == 0 ? "scatter_nd"
                             : view.input.desc->data_type == OPCTS_DTYPE_FLOAT64 || in_float64
                                 ? "scatter_reduce.f64"
                                 : "scatter_reduce";
  for (uint32_t phase : {0u, 1u}) {
    OPCTS_ASSIGN_OR_RETURN(const VkPipeline scatter, gpu.kernels.Get(kernel, phase));
    if (view.reduction == 0) {
      OPCTS_TRY(commands.Dispatch(scatter, {output_buffer, index_words, update_words, winners},
                                  params, gpu.device.GroupsFor(params.count)));
    } else {
      OPCTS_TRY(commands.Dispatch(scatter, {output_buffer, index_words, update_words, winners},
                                  reduce, gpu.device.GroupsFor(params.slice)));
    }
    commands.Barrier();
  }
  commands.Copy(output_buffer.buffer, 0, staging, 0, output.size_in_bytes);
  commands.Barrier();
  OPCTS_TRY(commands.SubmitAndWait());
  std::memcpy(output.data, host, output.size_in_bytes);
  return {};
}

}  // namespace opcts::vulkan
