// The ScatterND walk: which update values each output element receives, then what it may hold
// (reference/scatter_reduction.h).
//
// Data movement is bit-exact. The specs are silent on out-of-range tuples, but whatever a backend
// does with one (skip it, wrap or clamp its coordinates, write past a dimension into the next)
// moves values of its slice of updates: so each element holds what the in-range tuples give, or
// one of those values, never anything else. A backend may also refuse such data at execute; the
// runner checks memory safety either way.
#include "reference/scatter_nd.h"

#include <algorithm>
#include <optional>
#include <string>

#include "spec/element.h"

namespace opcts {

ReferenceResult ReferenceScatterND(const ScatterNDOperands& in, const Semantics& semantics) {
  const DType dtype = in.data.desc.dtype;
  const DType index_type = in.indices.desc.dtype;
  const std::vector<uint32_t>& dims = in.dims;
  const unsigned tuple_size = in.indices.desc.sizes.back();

  // A tuple addresses the first `tuple_size` dims and the slice it writes spans the rest,
  // contiguously in row-major order.
  uint64_t slice = 1;
  for (size_t d = tuple_size; d < dims.size(); ++d) slice *= dims[d];
  const uint64_t tuples = ElementCount(in.indices.desc) / tuple_size;
  // The constraints reject such shapes before the reference runs; checked again here so that
  // no caller makes this walk read past the updates.
  if (ElementCount(in.updates.desc) != tuples * slice)
    return {{},
            "the updates hold " + std::to_string(ElementCount(in.updates.desc)) +
                " elements but the " + std::to_string(tuples) + " index tuples' slices need " +
                std::to_string(tuples * slice),
            std::nullopt};
  // Signed index types exist only at levels that allow negatives (DirectML 3_0, every ONNX
  // opset), so the level needs no separate check here.
  const bool wrap_negative =
      IsSignedInt(index_type) && !semantics.negative_indices_from_level.empty();

  std::vector<std::vector<uint64_t>> written(ElementCount(in.data.desc));
  const StridedIndexer data_index(in.data.desc), idx_index(in.indices.desc),
      upd_index(in.updates.desc);
  std::optional<uint64_t> first_out_of_range;  // the first tuple outside the data
  std::vector<uint64_t> stray;                 // the values of out-of-range tuples' slices
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t base = 0;
    bool in_range = true;
    for (unsigned c = 0; c < tuple_size && in_range; ++c) {
      const uint64_t bits =
          LoadBits(index_type, in.indices.Element(idx_index.BufferIndex(t * tuple_size + c)));
      int64_t coordinate = IsSignedInt(index_type) ? BitsToInt64(index_type, bits) : 0;
      const bool negative = IsSignedInt(index_type) && coordinate < 0;
      if (negative && wrap_negative) coordinate += dims[c];
      const uint64_t value = IsSignedInt(index_type) ? static_cast<uint64_t>(coordinate) : bits;
      in_range = !(negative && coordinate < 0) && value < dims[c];
      base = base * dims[c] + value;
    }
    auto update = [&](uint64_t s) {
      return LoadBits(dtype, in.updates.Element(upd_index.BufferIndex(t * slice + s)));
    };
    if (!in_range) {
      if (!first_out_of_range) first_out_of_range = t;
      for (uint64_t s = 0; s < slice; ++s) stray.push_back(update(s));
      continue;
    }
    for (size_t d = tuple_size; d < dims.size(); ++d) base *= dims[d];
    for (uint64_t s = 0; s < slice; ++s) written[base + s].push_back(update(s));
  }

  ExpectedTensor result{in.output_name, in.output_desc, {}, {}};
  result.elements.resize(written.size());
  for (uint64_t e = 0; e < written.size(); ++e) {
    const uint64_t original = LoadBits(dtype, in.data.Element(data_index.BufferIndex(e)));
    result.elements[e] =
        ScatteredElement(dtype, in.reduction, original, written[e], result.candidates);
  }
  if (!first_out_of_range) return {{result}, std::nullopt, std::nullopt};
  // With a reduction too: the pages combine nothing with a tuple outside the data, so its
  // values count as they are.
  std::sort(stray.begin(), stray.end());
  stray.erase(std::unique(stray.begin(), stray.end()), stray.end());
  result.alternatives = std::move(stray);
  if (!semantics.out_of_range_indices_memory_safe_only)
    return {{result}, std::nullopt, std::nullopt};
  // Refusing the data is one of the freedoms the spec's memory_safe_only grants.
  return {{result},
          std::nullopt,
          "index tuple " + std::to_string(*first_out_of_range) +
              " is out of range; the spec leaves such data to the implementation "
              "(out_of_range_indices: memory_safe_only), so a backend may refuse it at execute "
              "with INVALID, skip it, or write the values of its slice anywhere inside the output"};
}

}  // namespace opcts
