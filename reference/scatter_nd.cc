// DML_SCATTER_ND: output = input, then output[indices[t]] = updates[t] slice by slice.
//
// Data movement is bit-exact. Where index tuples overlap the spec promises no winner, so each
// element may hold any of the values written to it. An out-of-range tuple leaves every value
// unconstrained (the spec is silent), and a backend may refuse such data at execute; the runner
// still checks memory safety.
#include <algorithm>
#include <optional>
#include <string>

#include "spec/element.h"
#include "reference/reference.h"

namespace opcts {
namespace {

ReferenceResult ScatterND(const Operation& op) {
  const TensorData& input = *op.Tensor("InputTensor");
  const TensorData& indices = *op.Tensor("IndicesTensor");
  const TensorData& updates = *op.Tensor("UpdatesTensor");
  const TensorDesc& output_desc = op.Tensor("OutputTensor")->desc;
  const DType dtype = input.desc.dtype;
  const DType index_type = indices.desc.dtype;
  const unsigned rank = input.desc.rank();
  const unsigned input_dims = static_cast<unsigned>(op.Param("InputDimensionCount").value_or(rank));
  const unsigned tuple_size = indices.desc.sizes[rank - 1];

  // The meaningful input dims are the last `input_dims`; a tuple addresses the first
  // `tuple_size` of them and the slice it writes spans the rest, contiguously in row-major order.
  const std::vector<uint32_t> dims(input.desc.sizes.end() - input_dims, input.desc.sizes.end());
  uint64_t slice = 1;
  for (unsigned d = tuple_size; d < input_dims; ++d) slice *= dims[d];
  const uint64_t tuples = ElementCount(indices.desc) / tuple_size;
  const bool wrap_negative = IsSignedInt(index_type) &&
                             !op.spec->semantics.negative_indices_from_level.empty();

  std::vector<std::vector<uint64_t>> written(ElementCount(input.desc));
  const StridedIndexer in_index(input.desc), idx_index(indices.desc), upd_index(updates.desc);
  std::optional<uint64_t> first_out_of_range;  // the first tuple outside the input
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t base = 0;
    bool in_range = true;
    for (unsigned c = 0; c < tuple_size && in_range; ++c) {
      const uint64_t bits = LoadBits(index_type, indices.Element(idx_index.BufferIndex(t * tuple_size + c)));
      // Signed index types exist only from the level that allows negatives (3_0), so the
      // level needs no separate check here.
      int64_t coordinate = IsSignedInt(index_type) ? BitsToInt64(index_type, bits) : 0;
      const bool negative = IsSignedInt(index_type) && coordinate < 0;
      if (negative && wrap_negative) coordinate += dims[c];
      const uint64_t value = IsSignedInt(index_type) ? static_cast<uint64_t>(coordinate) : bits;
      in_range = !(negative && coordinate < 0) && value < dims[c];
      base = base * dims[c] + value;
    }
    if (!in_range) {
      if (!first_out_of_range) first_out_of_range = t;
      continue;
    }
    for (unsigned d = tuple_size; d < input_dims; ++d) base *= dims[d];
    for (uint64_t s = 0; s < slice; ++s)
      written[base + s].push_back(LoadBits(dtype, updates.Element(upd_index.BufferIndex(t * slice + s))));
  }

  ExpectedTensor result{"OutputTensor", output_desc, {}, {}};
  result.elements.resize(written.size());
  if (first_out_of_range) {
    // Every element kAny; `bits` is what skipping the out-of-range tuples leaves (the last
    // in-range writer, as a sequential loop would).
    for (uint64_t e = 0; e < written.size(); ++e)
      result.elements[e].bits = written[e].empty() ? LoadBits(dtype, input.Element(in_index.BufferIndex(e)))
                                                   : written[e].back();
    // Refusing the data is one of the freedoms the spec's memory_safe_only grants.
    if (!op.spec->semantics.out_of_range_indices_memory_safe_only) return {{result}, std::nullopt, std::nullopt};
    return {{result}, std::nullopt,
            "index tuple " + std::to_string(*first_out_of_range) +
                " is out of range; the spec leaves such data to the implementation "
                "(out_of_range_indices: memory_safe_only), so a backend may refuse it at execute "
                "with INVALID, skip it, or write anywhere inside the output"};
  }
  for (uint64_t e = 0; e < written.size(); ++e) {
    std::vector<uint64_t>& values = written[e];
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    ExpectedElement& out = result.elements[e];
    if (values.empty()) {
      out.kind = Expect::kBits;
      out.bits = LoadBits(dtype, input.Element(in_index.BufferIndex(e)));
    } else if (values.size() == 1) {
      out.kind = Expect::kBits;
      out.bits = values[0];
    } else {
      out.kind = Expect::kAnyOf;
      out.bits = result.candidates.size();
      result.candidates.push_back(std::move(values));
    }
  }
  return {{result}, std::nullopt, std::nullopt};
}

const ReferenceRegistration kScatterND("scatter_nd", ScatterND);

}  // namespace
}  // namespace opcts
