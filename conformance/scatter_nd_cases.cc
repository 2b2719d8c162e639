// Cases for the scatter family, in either form (conformance/scatter_form.h): per data dtype x
// rank, index configurations (tuple size, leading ones, slice or element writes) x index classes
// (unique, boundary, negative, duplicates, out-of-range, the index dtype's extremes) over every
// index dtype, a few layouts, each reduction's float data drawn from the specials, and
// index/data types outside the tables.
#include <algorithm>
#include <set>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/scatter_form.h"

namespace opcts {
namespace {

struct ScatterConfig {
  unsigned input_dims;  // meaningful input dimensions (InputDimensionCount)
  unsigned tuple;       // coordinates per index tuple
  unsigned
      indices_dims;  // meaningful indices dimensions, the tuple's included (IndicesDimensionCount)
};

struct IndexClass {
  Values values;
  const char* tag;
};
// "extremes" (Values::kExtremes): each coordinate one of the index dtype's 0, 1, maximum,
// maximum - 1, and for signed types minimum, -1 and -2: tuples in range beside huge ones
// (0xFFFFFFFF, 2^64 - 1; 2^31 and 2^63 as the bits of INT32_MIN and INT64_MIN). They catch bounds
// checks done in a narrower or signed type, and offsets that overflow.
constexpr IndexClass kIndexClasses[] = {
    {Values::kIndexUnique, "unique"},           {Values::kIndexBoundary, "boundary"},
    {Values::kIndexNegative, "negative"},       {Values::kIndexDuplicates, "duplicates"},
    {Values::kIndexOutOfRange, "out-of-range"}, {Values::kExtremes, "extremes"},
};

class ScatterCaseBuilder {
 public:
  ScatterCaseBuilder(const OperatorSpec& spec, const GenerateOptions& options,
                     std::vector<CaseRecipe>& out)
      : spec_(spec), form_(ScatterFormOf(spec)), options_(options), out_(out) {}

  const ScatterForm& form() const { return form_; }

  // `reduction`: a value of the reduction role's enum, or -1 to leave the parameter at its default.
  // `specials`: input and updates drawn from the float specials (Values::kExtremes) instead of
  // the reduction's usual values.
  void Add(DType dtype, DType index_type, unsigned rank, const ScatterConfig& c,
           const IndexClass& k, Layout layout, int64_t reduction = -1, bool specials = false) {
    if (k.values == Values::kIndexNegative && !IsSignedInt(index_type)) return;
    // Meaningful input dims 4, 3, 2, ... (2s from rank 5 on, to stay small); index tuples in a
    // grid of 3 x 2 x ... (2 x 2 x ... from rank 5).
    std::vector<uint32_t> data(c.input_dims), grid(c.indices_dims - 1);
    for (unsigned i = 0; i < data.size(); ++i) data[i] = rank >= 5 ? 2 : std::max(2u, 4 - i);
    for (unsigned i = 0; i < grid.size(); ++i) grid[i] = i % 2 || rank >= 5 ? 2 : 3;
    const auto shapes = ShapeScatter(form_, data, grid, c.tuple, rank);
    if (!shapes) return;
    uint64_t positions = 1, tuples = 1;
    for (uint32_t d : shapes->index_dims) positions *= d;
    for (uint32_t d : grid) tuples *= d;
    if (k.values == Values::kIndexUnique && tuples > positions) return;

    CaseRecipe r;
    r.spec = &spec_;
    r.group = CaseGroup::kValid;
    r.dtype = dtype;
    r.shape = shapes->input;
    r.layout = layout;
    r.value_tag = specials ? std::string(k.tag) + "-specials" : k.tag;
    r.params = shapes->params;
    const std::string reduction_name = reduction >= 0 ? ReductionName(spec_, form_, reduction) : "";
    if (reduction >= 0) r.params[form_.reduction_param] = reduction;
    const Values values = specials ? Values::kExtremes : ScatterDataValues(reduction_name);
    const Layout base = layout == Layout::kPadded ? Layout::kPadded : Layout::kPacked;
    TensorRecipe in{LayoutDesc(dtype, shapes->input, base), values, {}, tuples + 1, 0};
    TensorRecipe idx{LayoutDesc(index_type, shapes->indices, base), k.values, shapes->index_dims, 1,
                     0};
    TensorRecipe upd{
        LayoutDesc(dtype, shapes->updates, Layout::kPacked), values, {}, tuples + 1, 0};
    if (layout == Layout::kTransposed)
      in.desc = LayoutDesc(dtype, shapes->input, Layout::kTransposed);
    if (layout == Layout::kBroadcast)
      upd.desc = LayoutDesc(dtype, shapes->updates, Layout::kBroadcast,
                            static_cast<unsigned>(shapes->updates.size() - 1));
    const TensorRecipe output{LayoutDesc(dtype, shapes->input, base), Values::kNone, {}, 1, 0};
    r.in_place = layout == Layout::kInPlace;
    r.tensors = {
        {form_.input, in}, {form_.indices, idx}, {form_.updates, upd}, {form_.output, output}};
    // DirectML ids keep their dimension counts; ONNX ids name the indices' shape instead.
    const std::string config =
        form_.HasDimensionCounts()
            ? "in" + std::to_string(c.input_dims) + "-idx" + std::to_string(c.indices_dims)
            : "idx" + FormatShape(shapes->indices);
    CaseId id{
        OperatorKey(spec_),
        false,
        dtype,
        rank,
        {FormatShape(shapes->input),
         config + "-q" + std::to_string(c.tuple) + "-" + std::string(DTypeShortName(index_type)),
         std::string(LayoutName(layout)), k.tag},
        options_.seed};
    if (!reduction_name.empty()) id.variant.push_back(reduction_name);
    if (specials) id.variant.push_back("specials");
    if (!seen_.insert(id.Stem()).second) return;
    FinishRecipe(r, id);
    out_.push_back(std::move(r));
  }

 private:
  const OperatorSpec& spec_;
  const ScatterForm form_;
  const GenerateOptions& options_;
  std::vector<CaseRecipe>& out_;
  std::set<std::string> seen_;
};

// `rank`: the common rank (DirectML form) or the input's (ONNX form, where every input dimension
// is meaningful).
std::vector<ScatterConfig> Configs(const ScatterForm& form, unsigned rank) {
  std::vector<ScatterConfig> configs;
  if (!form.HasDimensionCounts()) {
    configs.push_back({rank, 1, 2});                          // rows (slices) by one coordinate
    configs.push_back({rank, rank, std::min(rank + 1, 3u)});  // single elements
    if (rank >= 2) configs.push_back({rank, 2, 3});           // a grid of tuples of two
    return configs;
  }
  const unsigned k = std::min(rank, 3u);
  configs.push_back({k, 1, std::min(rank, 2u)});  // rows (slices) by one coordinate
  configs.push_back(
      {std::min(rank, 2u), std::min(rank, 2u), std::min(rank, 3u)});  // single elements
  if (rank >= 3) configs.push_back({rank, 2, 2});                     // every dimension meaningful
  return configs;
}

}  // namespace

void GenerateScatterNDCases(const OperatorSpec& spec, const GenerateOptions& options,
                            std::vector<CaseRecipe>& out) {
  ScatterCaseBuilder b(spec, options, out);
  const SupportLevel& top = TopSupport(spec);
  const TensorSupport& data = top.tensors.at(b.form().input);
  const TensorSupport& index = top.tensors.at(b.form().indices);
  for (DType dtype : data.dtypes) {
    for (unsigned rank = data.min_rank; rank <= data.max_rank; ++rank) {
      const std::vector<ScatterConfig> configs = Configs(b.form(), rank);
      // The first configuration with every index dtype x every index class.
      for (DType index_type : index.dtypes)
        for (const IndexClass& k : kIndexClasses)
          b.Add(dtype, index_type, rank, configs[0], k, Layout::kPacked);
      // The others with the index dtypes taking turns.
      size_t turn = 0;
      for (size_t c = 1; c < configs.size(); ++c)
        for (const IndexClass& k : kIndexClasses)
          b.Add(dtype, index.dtypes[turn++ % index.dtypes.size()], rank, configs[c], k,
                Layout::kPacked);
      for (Layout layout :
           {Layout::kPadded, Layout::kTransposed, Layout::kBroadcast, Layout::kInPlace})
        b.Add(dtype, index.dtypes[turn++ % index.dtypes.size()], rank, configs[0], kIndexClasses[0],
              layout);
      // Each reduction the tables allow but none (the default, above), every index class, on
      // the first two configurations.
      if (b.form().reduction_param.empty()) continue;
      const ParamSpec& reduction = *spec.FindParam(b.form().reduction_param);
      for (int64_t value = 1; value < static_cast<int64_t>(reduction.enum_values.size()); ++value) {
        for (size_t c = 0; c < std::min<size_t>(2, configs.size()); ++c)
          for (const IndexClass& k : kIndexClasses)
            b.Add(dtype, index.dtypes[turn++ % index.dtypes.size()], rank, configs[c], k,
                  Layout::kPacked, value);
        // Floats: ±0, ±infinity, NaN, the largest finite and the smallest subnormal values among
        // ordinary ones, so each reduction meets signed zeros, overflow, NaN and subnormal
        // results (a device that flushes them), alone and in repeated tuples.
        if (IsFloat(dtype))
          for (const IndexClass& k : {kIndexClasses[0], kIndexClasses[3]})  // unique, duplicates
            b.Add(dtype, index.dtypes[turn++ % index.dtypes.size()], rank, configs[0], k,
                  Layout::kPacked, value, /*specials=*/true);
      }
    }
  }
  // Types outside the tables: data BFLOAT16; 8- and 16-bit integer indices.
  const unsigned rank = std::clamp(4u, data.min_rank, data.max_rank);
  for (DType dtype : kAllDTypes)
    if (std::find(data.dtypes.begin(), data.dtypes.end(), dtype) == data.dtypes.end())
      b.Add(dtype, index.dtypes.front(), rank, Configs(b.form(), rank)[0], kIndexClasses[0],
            Layout::kPacked);
  for (DType index_type : {DType::kInt16, DType::kInt8, DType::kUInt16, DType::kUInt8})
    if (std::find(index.dtypes.begin(), index.dtypes.end(), index_type) == index.dtypes.end())
      b.Add(data.dtypes.front(), index_type, rank, Configs(b.form(), rank)[0], kIndexClasses[0],
            Layout::kPacked);
}

}  // namespace opcts
