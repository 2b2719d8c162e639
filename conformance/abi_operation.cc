#include "conformance/abi_operation.h"

#include <algorithm>
#include <cstring>

#include "common/operator_table.h"

namespace opcts {
namespace {

uint32_t U32(const Operation& op, const std::string& param) {
  return static_cast<uint32_t>(op.Param(param).value_or(0));
}

template <typename T>
std::string Bytes(const T& value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string Bytes(const std::vector<uint32_t>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()),
                     values.size() * sizeof(uint32_t));
}

}  // namespace

const opcts_tensor_desc* AbiOperation::Describe(const Operation& op, const std::string& name) {
  const TensorData* t = op.Tensor(name);
  if (t == nullptr) return nullptr;
  const TensorDesc& d = t->desc;
  const std::vector<uint32_t>& sizes = dims_.emplace_back(d.sizes);
  const std::vector<uint32_t>& strides = dims_.emplace_back(d.strides);
  tensor_names_.push_back(name);
  return &tensors_.emplace_back(opcts_tensor_desc{
      static_cast<uint32_t>(d.dtype), 0, d.rank(), sizes.empty() ? nullptr : sizes.data(),
      strides.empty() ? nullptr : strides.data(), d.total_bytes, d.alignment});
}

const opcts_tensor_desc* AbiOperation::Break(const opcts_tensor_desc* desc, AbiFault fault) {
  if (desc == nullptr) return desc;
  opcts_tensor_desc& broken = tensors_.back();  // `desc`, just described
  switch (fault) {
    case AbiFault::kNullTensorDesc:
      return nullptr;
    case AbiFault::kDataTypeZero:
      broken.data_type = 0;
      break;
    case AbiFault::kDataTypePastLast:
      broken.data_type =
          static_cast<uint32_t>(*std::max_element(kAllDTypes.begin(), kAllDTypes.end())) + 1;
      break;
    case AbiFault::kNone:
    case AbiFault::kBindingCountBelow:
    case AbiFault::kBindingCountAbove:
    case AbiFault::kBindingSizeMismatch:
      break;
  }
  return desc;
}

Result<std::unique_ptr<AbiOperation>> AbiOperation::Build(const Operation& op, AbiFault fault) {
  const abi::Operator* info = abi::FindOperator(op.spec->name);
  if (info == nullptr) {
    return NotSupported("operator " + op.spec->name +
                        " has no form in the backend ABI (not in the operator table)");
  }
  std::unique_ptr<AbiOperation> abi(new AbiOperation);
  abi->struct_.assign(info->desc_size, 0);
  for (const abi::Field& f : info->fields) {
    if (f.is_tensor) {
      abi->binding_order_.push_back(f.name);
      const opcts_tensor_desc* desc = abi->Describe(op, f.name);
      if (f.name == op.spec->tensors.front().name) desc = abi->Break(desc, fault);
      f.WriteTensor(abi->struct_.data(), desc);
    } else {
      f.WriteUInt32(abi->struct_.data(), U32(op, f.name));
    }
  }
  abi->desc_ = {info->type, abi->struct_.data()};
  return abi;
}

AbiOperation::Snapshot AbiOperation::Take() const {
  Snapshot parts = {{"opcts_op_desc", Bytes(desc_)},
                    {"the operator descriptor", std::string(struct_.begin(), struct_.end())}};
  for (size_t i = 0; i < tensors_.size(); ++i) {
    parts.push_back({tensor_names_[i] + " descriptor", Bytes(tensors_[i])});
    parts.push_back({tensor_names_[i] + ".Sizes", Bytes(dims_[2 * i])});
    parts.push_back({tensor_names_[i] + ".Strides", Bytes(dims_[2 * i + 1])});
  }
  return parts;
}

std::string AbiOperation::ChangedSince(const Snapshot& before) const {
  const Snapshot now = Take();
  for (size_t i = 0; i < now.size(); ++i)
    if (now[i] != before[i]) return now[i].first;
  return "";
}

}  // namespace opcts
