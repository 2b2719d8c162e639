#include "bench/bench_cases.h"

#include <algorithm>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/scatter_form.h"
#include "spec/family_hooks.h"

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
  recipe.group = CaseGroup::kValid;
  recipe.value_tag = "random";
  FinishRecipe(recipe, {OperatorKey(spec),
                        false,
                        recipe.dtype,
                        static_cast<unsigned>(recipe.shape.size()),
                        {"bench", c.layout, c.size},
                        /*seed=*/1});
  c.recipe = std::move(recipe);
}

// ---- scans ------------------------------------------------------------------------------------

void ScanShape(const std::string& layout, uint64_t n, std::vector<uint32_t>* shape,
               unsigned* axis) {
  const auto rows = static_cast<uint32_t>(n / kRowLength);
  if (layout == "1d") {
    *shape = {static_cast<uint32_t>(n)};
    *axis = 0;
  } else if (layout == "middle") {
    *shape = {kMiddleOuter, static_cast<uint32_t>(n / (uint64_t{kMiddleOuter} * kMiddleInner)),
              kMiddleInner};
    *axis = 1;
  } else {
    *shape = {rows, kRowLength};
    *axis = layout == "outer" ? 0 : 1;
  }
}

void AddScanCases(const OperatorSpec& spec, std::vector<BenchCase>& out) {
  const ScanBinding binding = ScanBindingOf(spec);
  const Values values = binding.product ? Values::kRandomProduct : Values::kRandomSum;
  for (const SizeClass& size : kSizeClasses) {
    for (DType dtype : AllowedDTypes(spec, binding.input)) {
      for (const std::string layout : kScanLayouts) {
        if (layout == "in-place" && !spec.semantics.in_place) continue;
        BenchCase c = NewCase(spec, dtype, layout, size);
        c.bytes = c.elements * DTypeSize(dtype);
        CaseRecipe r;
        unsigned axis = 0;
        ScanShape(layout, c.elements, &r.shape, &axis);
        if (!RankAllowed(spec, binding.input, r.shape.size())) continue;
        r.dtype = dtype;
        r.in_place = layout == "in-place";
        // "strided": rows padded apart in the input (a view into a larger tensor).
        r.layout = r.in_place            ? Layout::kInPlace
                   : layout == "strided" ? Layout::kPadded
                                         : Layout::kPacked;
        r.tensors[binding.input] = {
            LayoutDesc(dtype, r.shape, layout == "strided" ? Layout::kPadded : Layout::kPacked),
            values,
            {},
            r.shape[axis],
            0};
        r.tensors[binding.output] = {PackedDesc(dtype, r.shape), Values::kNone, {}, 1, 0};
        if (!binding.axis_param.empty())
          r.params[binding.axis_param] = axis;
        else
          r.tensors[binding.axis_tensor] = {
              PackedDesc(TopSupport(spec).tensors.at(binding.axis_tensor).dtypes.at(0), {}),
              Values::kScalar,
              {},
              1,
              axis};
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

// The case: a `rows` x `slice` input, one-coordinate index tuples, unique (in either form:
// conformance/scatter_form.h).
class ScatterCaseBuilder {
 public:
  explicit ScatterCaseBuilder(const OperatorSpec& spec) : spec_(spec), form_(ScatterFormOf(spec)) {}

  void Add(const SizeClass& size, DType dtype, uint64_t slice_bytes, ScatterVariant v,
           std::vector<BenchCase>& out) const {
    if (v.in_place && !spec_.semantics.in_place) return;
    const DType index_type = TopSupport(spec_).tensors.at(form_.indices).dtypes.at(0);
    const std::string layout = "slice" + ByteLabel(slice_bytes) + (v.sparse ? "-sparse" : "-all") +
                               (v.in_place ? "-in-place" : "");
    BenchCase c = NewCase(spec_, dtype, layout, size);
    const auto slice = static_cast<uint32_t>(slice_bytes / DTypeSize(dtype));
    const auto rows = static_cast<uint32_t>(c.elements / slice);
    const uint32_t count = v.sparse ? std::max<uint32_t>(1, rows / kSparseEvery) : rows;
    const auto shapes = ShapeScatter(form_, {rows, slice}, {count}, 1, 2);
    if (!shapes || !RankAllowed(spec_, form_.input, shapes->input.size())) return;
    CaseRecipe r;
    r.dtype = dtype;
    r.shape = shapes->input;
    r.layout = v.in_place ? Layout::kInPlace : Layout::kPacked;
    r.in_place = v.in_place;
    r.params = shapes->params;
    r.tensors[form_.input] = {PackedDesc(dtype, shapes->input), Values::kRandomBits, {}, 1, 0};
    r.tensors[form_.indices] = {PackedDesc(index_type, shapes->indices), Values::kIndexUnique,
                                shapes->index_dims, 1, 0};
    r.tensors[form_.updates] = {PackedDesc(dtype, shapes->updates), Values::kRandomBits, {}, 1, 0};
    r.tensors[form_.output] = {PackedDesc(dtype, shapes->input), Values::kNone, {}, 1, 0};
    c.bytes = uint64_t{count} * (slice * DTypeSize(dtype) + DTypeSize(index_type)) +
              (v.in_place ? 0 : c.elements * DTypeSize(dtype));
    if (v.in_place) c.scatter = {form_.indices, slice * DTypeSize(dtype), rows, count};
    Finish(c, spec_, std::move(r));
    out.push_back(std::move(c));
  }

 private:
  const OperatorSpec& spec_;
  const ScatterForm form_;
};

void AddScatterCases(const OperatorSpec& spec, std::vector<BenchCase>& out) {
  const ScatterCaseBuilder builder(spec);
  for (const SizeClass& size : kSizeClasses)
    for (DType dtype : AllowedDTypes(spec, ScatterFormOf(spec).input))
      for (uint64_t slice_bytes : kSliceBytes)
        for (const ScatterVariant& variant : kScatterVariants)
          builder.Add(size, dtype, slice_bytes, variant, out);
}

using CaseAdder = void (*)(const OperatorSpec&, std::vector<BenchCase>&);
const FamilyHooks<CaseAdder>& CaseAdders() {
  static const FamilyHooks<CaseAdder> hooks(
      "bench cases (bench/bench_cases.cc)",
      {{"scan", AddScanCases}, {"scatter_nd", AddScatterCases}});
  return hooks;
}

}  // namespace

std::vector<BenchCase> GenerateBenchCases(const SpecSet& specs) {
  std::vector<BenchCase> cases;
  for (const OperatorSpec& spec : specs.specs) CaseAdders().For(spec)(spec, cases);
  return cases;
}

}  // namespace opcts::bench
