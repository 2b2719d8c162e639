// Scan-family choices and recipes, with the generator's role binding (ScanBindingOf).
#include <algorithm>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/properties/case_gen.h"

namespace opcts {
namespace {

constexpr uint32_t kMaxDim = 6;
// The scanned axis may be longer: kernels differ by line length (vector width, tails), and 40
// covers 32 float16 lanes of AVX-512 plus a tail.
constexpr uint32_t kMaxAxisLength = 40;
constexpr uint64_t kElementBudget = 240;  // small enough to read when a failure has shrunk

// The dimension an axis value names: OpenVINO counts negatives from the back; absent is 0.
unsigned DimensionOf(int axis, bool absent, unsigned rank) {
  if (absent) return 0;
  return static_cast<unsigned>(axis < 0 ? axis + static_cast<int>(rank) : axis);
}

std::string AttributeTag(const ScanChoices& c) {
  std::string tag;
  if (!ScanBindingOf(*c.spec).axis_param.empty())
    tag = "axis" + std::to_string(c.axis);
  else if (c.axis_absent)
    tag = "noaxis";
  else
    tag = (c.axis < 0 ? "axism" + std::to_string(-c.axis) : "axis" + std::to_string(c.axis)) + "-" +
          std::string(DTypeShortName(c.axis_dtype));
  return tag + (c.reverse ? "-rev" : "-fwd") + (c.exclusive ? "-excl" : "-incl");
}

// The id's layout part: "broadcast2", "padded+out-transposed".
std::string LayoutTag(const ScanChoices& c) {
  std::string tag(LayoutName(c.input_layout));
  if (c.input_layout == Layout::kBroadcast) tag += std::to_string(c.broadcast_dim);
  if (c.output_layout != Layout::kPacked && c.output_layout != Layout::kInPlace)
    tag += "+out-" + std::string(LayoutName(c.output_layout));
  return tag;
}

std::string ValueTag(const ScanChoices& c) {
  switch (c.values) {
    case Values::kExtremes: return IsFloat(c.dtype) ? "specials" : "extremes";
    case Values::kOnes: return "ones";
    default: return "random";
  }
}

}  // namespace

unsigned ScanChoices::Axis() const { return DimensionOf(axis, axis_absent, static_cast<unsigned>(shape.size())); }

bool IsScanFamily(const OperatorSpec& spec) { return spec.family.name == "scan"; }
bool IsProductScan(const OperatorSpec& spec) { return IsScanFamily(spec) && ScanBindingOf(spec).product; }
std::string ScanInputName(const OperatorSpec& spec) { return spec.Role("input"); }
std::string ScanOutputName(const OperatorSpec& spec) { return spec.Role("output"); }

rc::Gen<ScanChoices> ScanChoicesGen(const OperatorSpec& spec, ScanGenOptions options) {
  return rc::gen::exec([&spec, options] {
    ScanChoices c;
    c.spec = &spec;
    const ScanBinding binding = ScanBindingOf(spec);
    const SupportLevel& table = spec.support[*UniformInRange<size_t>(0, spec.support.size())];
    const TensorSupport& data = table.tensors.at(ScanInputName(spec));
    c.dtype = *ChoiceOf(data.dtypes);
    const unsigned rank = *UniformInRange(data.min_rank, data.max_rank + 1);
    const int signed_rank = static_cast<int>(rank);
    if (!binding.axis_param.empty()) {
      c.axis = *UniformInRange(0, signed_rank);
    } else {
      const std::string& axis_name = binding.axis_tensor;
      c.axis_absent = spec.FindTensor(axis_name)->optional && *rc::gen::arbitrary<bool>();
      if (!c.axis_absent) {
        c.axis_dtype = *ChoiceOf(table.tensors.at(axis_name).dtypes);
        // 0 .. rank-1, then -rank .. -1: shrinks towards axis 0.
        const int pick = *UniformInRange(0, 2 * signed_rank);
        c.axis = pick < signed_rank ? pick : pick - 2 * signed_rank;
      }
    }
    const uint32_t length = *rc::gen::inRange(1u, kMaxAxisLength + 1);
    c.shape = *SmallShapeGen(rank - 1, kMaxDim, kElementBudget / length);
    c.shape.insert(c.shape.begin() + DimensionOf(c.axis, c.axis_absent, rank), length);
    c.reverse = *rc::gen::arbitrary<bool>();
    c.exclusive = *rc::gen::arbitrary<bool>();
    std::vector<Layout> layouts = {Layout::kPacked, Layout::kPadded, Layout::kTransposed, Layout::kBroadcast};
    if (spec.semantics.in_place) layouts.push_back(Layout::kInPlace);
    c.input_layout = *ChoiceOf(layouts);
    if (c.input_layout == Layout::kBroadcast) c.broadcast_dim = *UniformInRange(0u, rank);
    c.output_layout = c.input_layout == Layout::kInPlace
                          ? Layout::kInPlace
                          : *ChoiceOf<Layout>({Layout::kPacked, Layout::kPadded, Layout::kTransposed});
    const Values random = binding.product ? Values::kRandomProduct : Values::kRandomSum;
    if (options.values)
      c.values = *options.values;
    else
      c.values = options.specials ? *ChoiceOf(std::vector{random, Values::kExtremes}) : random;
    c.seed = *rc::gen::arbitrary<uint32_t>();
    return c;
  });
}

CaseRecipe BuildScanRecipe(const ScanChoices& c) {
  const OperatorSpec& spec = *c.spec;
  const ScanBinding binding = ScanBindingOf(spec);
  CaseRecipe r;
  r.spec = &spec;
  r.group = CaseGroup::kValid;
  r.dtype = c.dtype;
  r.shape = c.shape;
  r.layout = c.input_layout;
  r.value_tag = ValueTag(c);
  r.seed = c.seed;  // the data depends on the seed alone: variants of one draw share their input
  r.in_place = c.input_layout == Layout::kInPlace;

  const Layout in_layout = r.in_place ? Layout::kPacked : c.input_layout;
  TensorRecipe& input = r.tensors[binding.input];
  input = FilledWith(LayoutDesc(c.dtype, c.shape, in_layout, c.broadcast_dim), c.values);
  input.line_length = c.shape[c.Axis()];  // keeps signed random sums in range
  r.tensors[binding.output] = FilledWith(LayoutDesc(c.dtype, c.shape, r.in_place ? Layout::kPacked : c.output_layout));
  if (!binding.axis_param.empty()) {
    r.params[binding.axis_param] = c.axis;
  } else if (!c.axis_absent) {
    TensorRecipe& axis = r.tensors[binding.axis_tensor];
    axis = FilledWith(PackedDesc(c.axis_dtype, {}), Values::kScalar);
    axis.scalar = c.axis;
  }
  r.params[binding.reverse_param] = c.reverse;
  r.params[binding.exclusive_param] = c.exclusive;

  r.id = CaseId{OperatorKey(spec), /*property=*/true, c.dtype, static_cast<unsigned>(c.shape.size()),
               {FormatShape(c.shape), AttributeTag(c), LayoutTag(c), r.value_tag}, c.seed}
             .ToString();
  std::map<std::string, TensorDesc> descs;
  for (const auto& [name, t] : r.tensors) descs[name] = t.desc;
  r.level = LowestSupportingLevel(spec, descs, r.params).value_or("");
  return r;
}

void showValue(const ScanChoices& choices, std::ostream& os) { showValue(BuildScanRecipe(choices), os); }

}  // namespace opcts
