#include "spec/families.h"

namespace opcts {

const std::vector<FamilyInfo>& Families() {
  using Kind = FamilyRole::Kind;
  static const std::vector<FamilyInfo> families = {
      // output[i] = combine(input[j] for j up to i along axis); combine is the accuracy model's
      // (running_sum: +, running_product: *).
      {"scan",
       {{"input", Kind::kTensor, true, {}},
        {"output", Kind::kTensor, true, {}},
        {"axis", Kind::kAxis, true, {}},
        {"reverse", Kind::kFlagParam, true, {}},
        {"exclusive", Kind::kFlagParam, true, {}}}},
      // output = input, then the slices of updates written (or combined, by `reduction`) at the
      // index tuples. Without the dimension-count roles every dimension is meaningful and the
      // tensors' ranks differ (ONNX); with them all share one rank and lead with ones (DirectML).
      {"scatter_nd",
       {{"input", Kind::kTensor, true, {}},
        {"indices", Kind::kTensor, true, {}},
        {"updates", Kind::kTensor, true, {}},
        {"output", Kind::kTensor, true, {}},
        {"input_dimension_count", Kind::kUInt32Param, false, {}},
        {"indices_dimension_count", Kind::kUInt32Param, false, {}},
        {"reduction", Kind::kEnumParam, false, {"none", "add", "mul", "max", "min"}}}},
  };
  return families;
}

const FamilyInfo* FindFamily(const std::string& name) {
  for (const FamilyInfo& f : Families())
    if (name == f.name) return &f;
  return nullptr;
}

std::vector<std::string> FamilyNames() {
  std::vector<std::string> names;
  for (const FamilyInfo& f : Families()) names.emplace_back(f.name);
  return names;
}

}  // namespace opcts
