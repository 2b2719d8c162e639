#include "bench/bench_cases.h"

#include <algorithm>
#include <optional>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"

namespace opcts::bench {
namespace {

// Scans: rows of this many elements for the 2-D layouts (4096 x 4096 float32 at 64 MiB, the
// shape the numpy figures in README.md were taken on).
constexpr uint32_t kRowLength = 4096;
// The middle-axis layout: {kMiddleOuter, n / (kMiddleOuter * kMiddleInner), kMiddleInner}.
constexpr uint32_t kMiddleOuter = 64, kMiddleInner = 64;
constexpr const char* kScanLayouts[] = {"1d", "inner", "outer", "middle", "strided", "in-place"};

// ScatterND: slice sizes in bytes; "sparse" cases update one slice in 16.
constexpr uint64_t kSliceBytes[] = {64, 1024, 16384};
constexpr uint32_t kSparseEvery = 16;

std::string ByteLabel(uint64_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes) + "B";
}

uint64_t ElementsFor(const SizeClass& size, DType dtype) {
  const uint64_t n = size.tensor_bytes / DTypeSize(dtype);
  return size.tensor_bytes == kSizeClasses[std::size(kSizeClasses) - 1].tensor_bytes
             ? std::max(n, kDramMinElements)
             : n;
}

// The representative dtypes every support table of the operator's `tensor` admits at its top.
std::vector<DType> AllowedDTypes(const OperatorSpec& spec, const std::string& tensor) {
  const TensorSupport& support = TopSupport(spec).tensors.at(tensor);
  std::vector<DType> allowed;
  for (DType t : kRepresentativeDTypes)
    if (std::find(support.dtypes.begin(), support.dtypes.end(), t) != support.dtypes.end())
      allowed.push_back(t);
  return allowed;
}

bool RankAllowed(const OperatorSpec& spec, const std::string& tensor, size_t rank) {
  const TensorSupport& support = TopSupport(spec).tensors.at(tensor);
  return rank >= support.min_rank && rank <= support.max_rank;
}

const TensorSpec* FirstTensor(const OperatorSpec& spec, TensorRole role) {
  for (const TensorSpec& t : spec.tensors)
    if (t.role == role) return &t;
  return nullptr;
}

BenchCase NewCase(const OperatorSpec& spec, DType dtype, const std::string& layout,
                  const SizeClass& size) {
  BenchCase c;
  c.op = OperatorKey(spec);
  c.dtype = DTypeShortName(dtype);
  c.layout = layout;
  c.size = size.name;
  c.elements = ElementsFor(size, dtype);
  return c;
}

void Finish(BenchCase& c, const OperatorSpec& spec, CaseRecipe recipe) {
  recipe.spec = &spec;
  recipe.group = "valid";
  recipe.value_tag = "random";
  FinishRecipe(recipe, "bench." + c.Name("any"), 1);
  c.recipe = std::move(recipe);
}

// ---- scans ------------------------------------------------------------------------------------

// Where the scan axis goes: a parameter bounded by the data tensor's rank (DirectML's Axis) or a
// scalar input whose value is bounded the same way (OpenVINO's axis).
struct AxisBinding {
  std::string param;
  std::string tensor;
  DType tensor_dtype = DType::kInt64;
};

std::optional<AxisBinding> FindAxis(const OperatorSpec& spec) {
  for (const Constraint& c : spec.constraints) {
    if (c.kind == ConstraintKind::kParamRange && c.max && c.max->kind == Bound::Kind::kRankOf)
      return AxisBinding{c.param, "", DType::kInt64};
    if (c.kind == ConstraintKind::kScalarValueRange && !c.tensors.empty())
      return AxisBinding{"", c.tensors[0], TopSupport(spec).tensors.at(c.tensors[0]).dtypes.at(0)};
  }
  return std::nullopt;
}

void ScanShape(const std::string& layout, uint64_t n, std::vector<uint32_t>* shape,
               unsigned* axis) {
  const auto rows = static_cast<uint32_t>(n / kRowLength);
  if (layout == "1d") {
    *shape = {static_cast<uint32_t>(n)};
    *axis = 0;
  } else if (layout == "middle") {
    *shape = {kMiddleOuter, static_cast<uint32_t>(n / (kMiddleOuter * kMiddleInner)), kMiddleInner};
    *axis = 1;
  } else {
    *shape = {rows, kRowLength};
    *axis = layout == "outer" ? 0 : 1;
  }
}

void AddScanCases(const OperatorSpec& spec, std::vector<BenchCase>& out) {
  const std::optional<AxisBinding> axis_binding = FindAxis(spec);
  const TensorSpec* data = FirstTensor(spec, TensorRole::kInput);
  const TensorSpec* output = FirstTensor(spec, TensorRole::kOutput);
  if (!axis_binding || data == nullptr || output == nullptr) return;
  const Values values = spec.accuracy.model == AccuracyModel::kRunningProduct
                            ? Values::kRandomProduct
                            : Values::kRandomSum;
  for (const SizeClass& size : kSizeClasses) {
    for (DType dtype : AllowedDTypes(spec, data->name)) {
      for (const std::string layout : kScanLayouts) {
        if (layout == "in-place" && !spec.semantics.in_place) continue;
        BenchCase c = NewCase(spec, dtype, layout, size);
        c.bytes = c.elements * DTypeSize(dtype);
        CaseRecipe r;
        unsigned axis = 0;
        ScanShape(layout, c.elements, &r.shape, &axis);
        if (!RankAllowed(spec, data->name, r.shape.size())) continue;
        r.dtype = dtype;
        r.layout = layout;
        r.in_place = layout == "in-place";
        // "strided": rows padded apart in the input (a view into a larger tensor).
        r.tensors[data->name] = {LayoutDesc(dtype, r.shape, layout == "strided" ? "padded" : "packed"),
                                 values, {}, r.shape[axis], 0};
        r.tensors[output->name] = {PackedDesc(dtype, r.shape), Values::kNone, {}, 1, 0};
        if (!axis_binding->param.empty())
          r.params[axis_binding->param] = axis;
        else
          r.tensors[axis_binding->tensor] = {PackedDesc(axis_binding->tensor_dtype, {}),
                                             Values::kScalar, {}, 1, axis};
        Finish(c, spec, std::move(r));
        out.push_back(std::move(c));
      }
    }
  }
}

// ---- ScatterND --------------------------------------------------------------------------------

struct ScatterVariant {
  bool sparse;    // one slice in kSparseEvery updated, else every slice once
  bool in_place;  // no copy of the input: only the updates move
};
constexpr ScatterVariant kScatterVariants[] = {{false, false}, {true, false}, {true, true}};

// The scatter rule names the tensors (input, indices, updates) and the two dimension-count
// parameters. The case: a rank-2 input of `rows` slices, one-coordinate index tuples, unique.
class ScatterCaseBuilder {
 public:
  ScatterCaseBuilder(const OperatorSpec& spec, const Constraint& rule)
      : spec_(spec), rule_(rule), output_(FirstTensor(spec, TensorRole::kOutput)) {}

  bool Usable() const {
    return rule_.tensors.size() == 3 && rule_.params.size() == 2 && output_ != nullptr &&
           RankAllowed(spec_, rule_.tensors[0], 2);
  }

  void Add(const SizeClass& size, DType dtype, uint64_t slice_bytes, ScatterVariant v,
           std::vector<BenchCase>& out) const {
    if (v.in_place && !spec_.semantics.in_place) return;
    const std::string &input = rule_.tensors[0], &indices = rule_.tensors[1], &updates = rule_.tensors[2];
    const DType index_type = TopSupport(spec_).tensors.at(indices).dtypes.at(0);
    const std::string layout = "slice" + ByteLabel(slice_bytes) + (v.sparse ? "-sparse" : "-all") +
                               (v.in_place ? "-in-place" : "");
    BenchCase c = NewCase(spec_, dtype, layout, size);
    const auto slice = static_cast<uint32_t>(slice_bytes / DTypeSize(dtype));
    const auto rows = static_cast<uint32_t>(c.elements / slice);
    const uint32_t count = v.sparse ? std::max<uint32_t>(1, rows / kSparseEvery) : rows;
    CaseRecipe r;
    r.dtype = dtype;
    r.shape = {rows, slice};
    r.layout = layout;
    r.in_place = v.in_place;
    r.params = {{rule_.params[0], 2}, {rule_.params[1], 2}};
    const std::vector<uint32_t> index_shape = {count, 1};
    const auto update_shape = ScatterNDUpdatesSizes(r.shape, index_shape, 2, 2);
    if (!update_shape) return;
    r.tensors[input] = {PackedDesc(dtype, r.shape), Values::kRandomBits, {}, 1, 0};
    r.tensors[indices] = {PackedDesc(index_type, index_shape), Values::kIndexUnique, {rows}, 1, 0};
    r.tensors[updates] = {PackedDesc(dtype, *update_shape), Values::kRandomBits, {}, 1, 0};
    r.tensors[output_->name] = {PackedDesc(dtype, r.shape), Values::kNone, {}, 1, 0};
    c.bytes = uint64_t{count} * (slice * DTypeSize(dtype) + DTypeSize(index_type)) +
              (v.in_place ? 0 : c.elements * DTypeSize(dtype));
    Finish(c, spec_, std::move(r));
    out.push_back(std::move(c));
  }

 private:
  const OperatorSpec& spec_;
  const Constraint& rule_;
  const TensorSpec* output_;
};

void AddScatterCases(const OperatorSpec& spec, const Constraint& rule, std::vector<BenchCase>& out) {
  const ScatterCaseBuilder builder(spec, rule);
  if (!builder.Usable()) return;
  for (const SizeClass& size : kSizeClasses)
    for (DType dtype : AllowedDTypes(spec, rule.tensors[0]))
      for (uint64_t slice_bytes : kSliceBytes)
        for (const ScatterVariant& variant : kScatterVariants)
          builder.Add(size, dtype, slice_bytes, variant, out);
}

}  // namespace

std::vector<BenchCase> GenerateBenchCases(const SpecSet& specs) {
  std::vector<BenchCase> cases;
  for (const OperatorSpec& spec : specs.specs) {
    if (spec.accuracy.model == AccuracyModel::kRunningSum ||
        spec.accuracy.model == AccuracyModel::kRunningProduct) {
      AddScanCases(spec, cases);
      continue;
    }
    for (const Constraint& c : spec.constraints)
      if (c.kind == ConstraintKind::kScatterNDUpdatesSizes) AddScatterCases(spec, c, cases);
  }
  return cases;
}

}  // namespace opcts::bench
