#include "spec/operation.h"

namespace opcts {

TensorData MakeTensor(const TensorDesc& desc) {
  return TensorData{desc, std::vector<uint8_t>(desc.total_bytes, 0)};
}

std::optional<int64_t> Operation::Param(const std::string& name) const {
  if (auto it = params.find(name); it != params.end()) return it->second;
  if (spec != nullptr)
    if (const ParamSpec* p = spec->FindParam(name)) return p->default_value;
  return std::nullopt;
}

const TensorData* Operation::Tensor(const std::string& name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}

}  // namespace opcts
