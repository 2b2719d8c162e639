#include "cpu_simd/scatter_nd.h"

#include <cstring>
#include <vector>

#include "common/plugin_support.h"
#include "cpu_simd/strided.h"

namespace opcts::cpu_simd {
namespace {

template <class T>
T ReadAs(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Reads one index and resolves it against a dimension of `size`: negative values of signed types
// count from the end. False when the result is outside [0, size).
bool ResolveIndex(uint32_t data_type, const unsigned char* p, uint32_t size, uint64_t* index) {
  int64_t value;
  switch (data_type) {
    case OPCTS_DTYPE_INT32:
      value = ReadAs<int32_t>(p);
      break;
    case OPCTS_DTYPE_INT64:
      value = ReadAs<int64_t>(p);
      break;
    case OPCTS_DTYPE_UINT32:
      value = ReadAs<uint32_t>(p);
      break;
    case OPCTS_DTYPE_UINT64: {
      const uint64_t u = ReadAs<uint64_t>(p);
      if (u >= size) return false;
      value = static_cast<int64_t>(u);
      break;
    }
    default:
      return false;
  }
  if (value < 0) value += size;  // no overflow: |value| <= 2^63 and size < 2^32
  if (value < 0 || value >= int64_t{size}) return false;
  *index = static_cast<uint64_t>(value);
  return true;
}

std::vector<uint32_t> Slice(const std::vector<uint32_t>& v, size_t begin, size_t end) {
  return std::vector<uint32_t>(v.begin() + static_cast<ptrdiff_t>(begin),
                               v.begin() + static_cast<ptrdiff_t>(end));
}

// Copies every element of `from` (layout `from_layout`) to `to` (layout `to_layout`).
void CopyTensor(const plugin::TensorLayout& from_layout, const unsigned char* from,
                const plugin::TensorLayout& to_layout, unsigned char* to, size_t es) {
  if (from_layout.packed && to_layout.packed) {
    std::memmove(to, from, from_layout.element_count * es);
    return;
  }
  OffsetWalker walker(from_layout.sizes, from_layout.strides, to_layout.strides);
  for (uint64_t i = 0; i < from_layout.element_count; ++i, walker.Next())
    std::memcpy(to + walker.b() * es, from + walker.a() * es, es);
}

}  // namespace

bool IsSupportedIndexType(uint32_t data_type) {
  return data_type == OPCTS_DTYPE_INT32 || data_type == OPCTS_DTYPE_INT64 ||
         data_type == OPCTS_DTYPE_UINT32 || data_type == OPCTS_DTYPE_UINT64;
}

void RunScatterND(const opcts_dml_scatter_nd_desc& desc, const opcts_binding* bindings) {
  const plugin::TensorLayout in = plugin::MakeLayout(*desc.input);
  const plugin::TensorLayout idx = plugin::MakeLayout(*desc.indices);
  const plugin::TensorLayout upd = plugin::MakeLayout(*desc.updates);
  const plugin::TensorLayout out = plugin::MakeLayout(*desc.output);
  const auto* in_data = static_cast<const unsigned char*>(bindings[0].data);
  const auto* idx_data = static_cast<const unsigned char*>(bindings[1].data);
  const auto* upd_data = static_cast<const unsigned char*>(bindings[2].data);
  auto* out_data = static_cast<unsigned char*>(bindings[3].data);
  const size_t es = plugin::DTypeSize(in.data_type);
  const size_t is = plugin::DTypeSize(idx.data_type);

  // output = input, skipped when they are the same elements (in place).
  if (in_data != out_data || in.strides != out.strides) {
    const uint64_t in_bytes = SpanElements(in.sizes, in.strides) * es;
    const uint64_t out_bytes = SpanElements(out.sizes, out.strides) * es;
    std::vector<unsigned char> input_copy;
    if (in_data < out_data + out_bytes && out_data < in_data + in_bytes) {
      input_copy.assign(in_data, in_data + in_bytes);
      in_data = input_copy.data();
    }
    CopyTensor(in, in_data, out, out_data, es);
  }

  const size_t rank = in.sizes.size();
  const size_t k_in = desc.input_dimension_count, k_idx = desc.indices_dimension_count;
  const size_t q = idx.sizes[rank - 1];      // index tuple size
  const size_t first_indexed = rank - k_in;  // output dim the tuple's first index addresses
  const size_t first_slice = first_indexed + q;
  const size_t tuple_dims = k_idx - 1;
  const size_t first_update_tuple_dim = first_slice - tuple_dims;  // updates are right-aligned

  // Tuples: the meaningful indices dims except the last; their offsets in indices and updates.
  OffsetWalker tuples(Slice(idx.sizes, rank - k_idx, rank - 1),
                      Slice(idx.strides, rank - k_idx, rank - 1),
                      Slice(upd.strides, first_update_tuple_dim, first_slice));
  // One slice: the output dims after the indexed ones, in updates and output.
  const std::vector<uint32_t> slice_sizes = Slice(in.sizes, first_slice, rank);
  const std::vector<uint32_t> slice_upd_strides = Slice(upd.strides, first_slice, rank);
  const std::vector<uint32_t> slice_out_strides = Slice(out.strides, first_slice, rank);
  uint64_t slice_elements = 1;
  for (uint32_t s : slice_sizes) slice_elements *= s;
  // Packed tensors hold a slice as one run of bytes.
  const bool slice_contiguous = upd.packed && out.packed;
  const uint32_t index_stride = idx.strides[rank - 1];

  for (uint64_t t = 0; t < tuples.count(); ++t, tuples.Next()) {
    uint64_t out_offset = 0;
    bool in_range = true;
    for (size_t j = 0; j < q && in_range; ++j) {
      uint64_t index = 0;
      in_range = ResolveIndex(idx.data_type, idx_data + (tuples.a() + j * index_stride) * is,
                              in.sizes[first_indexed + j], &index);
      out_offset += index * out.strides[first_indexed + j];
    }
    if (!in_range) continue;
    const unsigned char* src = upd_data + tuples.b() * es;
    unsigned char* dst = out_data + out_offset * es;
    if (slice_contiguous) {
      std::memcpy(dst, src, slice_elements * es);
      continue;
    }
    OffsetWalker slice(slice_sizes, slice_upd_strides, slice_out_strides);
    for (uint64_t i = 0; i < slice_elements; ++i, slice.Next())
      std::memcpy(dst + slice.b() * es, src + slice.a() * es, es);
  }
}

}  // namespace opcts::cpu_simd
