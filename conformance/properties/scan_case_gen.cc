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

}  // namespace

bool IsScanFamily(const OperatorSpec& spec) { return spec.family.name == "scan"; }
bool IsProductScan(const OperatorSpec& spec) {
  return IsScanFamily(spec) && ScanBindingOf(spec).product;
}
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
    c.shape.insert(c.shape.begin() + ScanDimensionOf(c.axis, c.axis_absent, rank), length);
    c.reverse = *rc::gen::arbitrary<bool>();
    c.exclusive = *rc::gen::arbitrary<bool>();
    std::vector<Layout> layouts = {Layout::kPacked, Layout::kPadded, Layout::kTransposed,
                                   Layout::kBroadcast};
    if (spec.semantics.in_place) layouts.push_back(Layout::kInPlace);
    c.input_layout = *ChoiceOf(layouts);
    if (c.input_layout == Layout::kBroadcast) c.broadcast_dim = *UniformInRange(0u, rank);
    c.output_layout =
        c.input_layout == Layout::kInPlace
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

void showValue(const ScanChoices& choices, std::ostream& os) {
  showValue(BuildScanRecipe(choices), os);
}

}  // namespace opcts
