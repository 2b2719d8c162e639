#include "strided_copy.h"

namespace opcts::vulkan {
namespace {

constexpr size_t kMaxRank = 8;

// Mirrors the push constants of strided_copy.comp.
struct CopyParams {
  uint32_t count;
  uint32_t rank;
  uint32_t src_bytes;
  uint32_t dst_bytes;
  uint32_t convert;
  uint32_t sizes[kMaxRank];
  uint32_t src_strides[kMaxRank];
  uint32_t dst_strides[kMaxRank];
};

// Drops size-1 dimensions and merges neighbours that are contiguous in both layouts, so the
// kernel's per-element index arithmetic runs over as few dimensions as possible.
void Simplify(std::span<const uint32_t> sizes, const StridedTensor& source,
              const StridedTensor& destination, CopyParams* params) {
  uint32_t rank = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    if (rank > 0 && params->src_strides[rank - 1] == source.strides[d] * sizes[d] &&
        params->dst_strides[rank - 1] == destination.strides[d] * sizes[d]) {
      params->sizes[rank - 1] *= sizes[d];
    } else {
      params->sizes[rank] = sizes[d];
      ++rank;
    }
    params->src_strides[rank - 1] = source.strides[d];
    params->dst_strides[rank - 1] = destination.strides[d];
  }
  params->rank = rank;
}

}  // namespace

std::vector<uint32_t> PackedStrides(std::span<const uint32_t> sizes) {
  std::vector<uint32_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

Result<void> RecordStridedCopy(Gpu& gpu, std::span<const uint32_t> sizes,
                               const StridedTensor& source, const StridedTensor& destination,
                               Convert convert) {
  if (sizes.size() > kMaxRank || source.strides.size() != sizes.size() ||
      destination.strides.size() != sizes.size()) {
    return InternalError("strided copy: rank above 8 or strides of the wrong length");
  }
  CopyParams params{};
  params.count = 1;
  for (uint32_t size : sizes) params.count *= size;
  params.src_bytes = source.element_bytes;
  params.dst_bytes = destination.element_bytes;
  params.convert = static_cast<uint32_t>(convert);
  Simplify(sizes, source, destination, &params);

  OPCTS_ASSIGN_OR_RETURN(const VkPipeline pipeline, gpu.kernels.Get("strided_copy"));
  return gpu.commands.Dispatch(pipeline, {source.buffer, destination.buffer}, params,
                               gpu.device.GroupsFor(params.count));
}

}  // namespace opcts::vulkan
