// Cases for DML_SCATTER_ND: per data dtype x rank, index configurations (tuple size, leading
// ones, slice or element writes) x index classes (unique, boundary, negative, duplicates,
// out-of-range) over every index dtype, a few layouts, and index/data types outside the tables.
#include <algorithm>
#include <set>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"

namespace opcts {
namespace {

struct ScatterConfig {
  unsigned input_dims;    // InputDimensionCount
  unsigned tuple;         // q, coordinates per index tuple
  unsigned indices_dims;  // IndicesDimensionCount (the tuple dimension included)
};

struct IndexClass {
  Values values;
  const char* tag;
};
constexpr IndexClass kIndexClasses[] = {
    {Values::kIndexUnique, "unique"},         {Values::kIndexBoundary, "boundary"},
    {Values::kIndexNegative, "negative"},     {Values::kIndexDuplicates, "duplicates"},
    {Values::kIndexOutOfRange, "out-of-range"},
};

class ScatterCaseBuilder {
 public:
  ScatterCaseBuilder(const OperatorSpec& spec, const GenerateOptions& options, std::vector<CaseRecipe>& out)
      : spec_(spec), options_(options), out_(out) {}

  void Add(DType dtype, DType index_type, unsigned rank, const ScatterConfig& c, const IndexClass& k,
           const std::string& layout) {
    if (k.values == Values::kIndexNegative && !IsSignedInt(index_type)) return;
    // Meaningful input dims 4, 3, 2, ... (2s from rank 5 on, to stay small), right-aligned.
    std::vector<uint32_t> input(rank, 1);
    for (unsigned i = 0; i < c.input_dims; ++i)
      input[rank - c.input_dims + i] = rank >= 5 ? 2 : std::max(2u, 4 - i);
    // Index tuples: a grid of 3 x 2 x ... tuples (2 x 2 x ... from rank 5) of `tuple`
    // coordinates, right-aligned.
    std::vector<uint32_t> indices(rank, 1);
    indices[rank - 1] = c.tuple;
    for (unsigned i = 0; i + 1 < c.indices_dims; ++i)
      indices[rank - c.indices_dims + i] = i % 2 || rank >= 5 ? 2 : 3;
    const auto updates = ScatterNDUpdatesSizes(input, indices, c.input_dims, c.indices_dims);
    if (!updates) return;
    std::vector<uint32_t> index_dims(input.end() - c.input_dims, input.end() - c.input_dims + c.tuple);
    uint64_t positions = 1, tuples = ElementCount(PackedDesc(index_type, indices)) / c.tuple;
    for (uint32_t d : index_dims) positions *= d;
    if (k.values == Values::kIndexUnique && tuples > positions) return;

    CaseRecipe r;
    r.spec = &spec_;
    r.group = "valid";
    r.dtype = dtype;
    r.shape = input;
    r.layout = layout;
    r.value_tag = k.tag;
    r.params = {{"InputDimensionCount", c.input_dims}, {"IndicesDimensionCount", c.indices_dims}};
    const char* const base = layout == "padded" ? "padded" : "packed";
    TensorRecipe in{LayoutDesc(dtype, input, base), Values::kRandomBits, {}, 1, 0};
    TensorRecipe idx{LayoutDesc(index_type, indices, base), k.values, index_dims, 1, 0};
    TensorRecipe upd{LayoutDesc(dtype, *updates, "packed"), Values::kRandomBits, {}, 1, 0};
    if (layout == "transposed") in.desc = LayoutDesc(dtype, input, "transposed");
    if (layout == "broadcast") upd.desc = LayoutDesc(dtype, *updates, "broadcast", rank - 1);
    const TensorRecipe output{LayoutDesc(dtype, input, base), Values::kNone, {}, 1, 0};
    r.in_place = layout == "in-place";
    r.tensors = {{"InputTensor", in}, {"IndicesTensor", idx}, {"UpdatesTensor", upd}, {"OutputTensor", output}};
    const std::string id = OperatorKey(spec_) + "." + std::string(DTypeShortName(dtype)) + ".rank" +
                           std::to_string(rank) + "." + FormatShape(input) + ".in" +
                           std::to_string(c.input_dims) + "-idx" + std::to_string(c.indices_dims) +
                           "-q" + std::to_string(c.tuple) + "-" + std::string(DTypeShortName(index_type)) +
                           "." + layout + "." + k.tag;
    if (!seen_.insert(id).second) return;
    FinishRecipe(r, id, options_.seed);
    out_.push_back(std::move(r));
  }

 private:
  const OperatorSpec& spec_;
  const GenerateOptions& options_;
  std::vector<CaseRecipe>& out_;
  std::set<std::string> seen_;
};

std::vector<ScatterConfig> Configs(unsigned rank) {
  std::vector<ScatterConfig> configs;
  const unsigned k = std::min(rank, 3u);
  configs.push_back({k, 1, std::min(rank, 2u)});                   // rows (slices) by one coordinate
  configs.push_back({std::min(rank, 2u), std::min(rank, 2u), std::min(rank, 3u)});  // single elements
  if (rank >= 3) configs.push_back({rank, 2, 2});                   // every dimension meaningful
  return configs;
}

}  // namespace

void GenerateScatterNDCases(const OperatorSpec& spec, const GenerateOptions& options,
                            std::vector<CaseRecipe>& out) {
  ScatterCaseBuilder b(spec, options, out);
  const SupportLevel& top = TopSupport(spec);
  const TensorSupport& data = top.tensors.at("InputTensor");
  const TensorSupport& index = top.tensors.at("IndicesTensor");
  for (DType dtype : data.dtypes) {
    for (unsigned rank = data.min_rank; rank <= data.max_rank; ++rank) {
      const std::vector<ScatterConfig> configs = Configs(rank);
      // The first configuration with every index dtype x every index class.
      for (DType index_type : index.dtypes)
        for (const IndexClass& k : kIndexClasses) b.Add(dtype, index_type, rank, configs[0], k, "packed");
      // The others with the index dtypes taking turns.
      size_t turn = 0;
      for (size_t c = 1; c < configs.size(); ++c)
        for (const IndexClass& k : kIndexClasses)
          b.Add(dtype, index.dtypes[turn++ % index.dtypes.size()], rank, configs[c], k, "packed");
      for (const char* layout : {"padded", "transposed", "broadcast", "in-place"})
        b.Add(dtype, index.dtypes[turn++ % index.dtypes.size()], rank, configs[0], kIndexClasses[0], layout);
    }
  }
  // Types outside the tables: data BFLOAT16; 8- and 16-bit integer indices.
  const unsigned rank = std::clamp(4u, data.min_rank, data.max_rank);
  for (DType dtype : kAllDTypes)
    if (std::find(data.dtypes.begin(), data.dtypes.end(), dtype) == data.dtypes.end())
      b.Add(dtype, index.dtypes.front(), rank, Configs(rank)[0], kIndexClasses[0], "packed");
  for (DType index_type : {DType::kInt16, DType::kInt8, DType::kUInt16, DType::kUInt8})
    if (std::find(index.dtypes.begin(), index.dtypes.end(), index_type) == index.dtypes.end())
      b.Add(data.dtypes.front(), index_type, rank, Configs(rank)[0], kIndexClasses[0], "packed");
}

}  // namespace opcts
