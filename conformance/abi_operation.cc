#include "conformance/abi_operation.h"

#include <cstring>

namespace opcts {
namespace {

uint32_t U32(const Operation& op, const char* param) {
  return static_cast<uint32_t>(op.Param(param).value_or(0));
}

template <typename T>
std::string Bytes(const T& value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string Bytes(const std::vector<uint32_t>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(uint32_t));
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

std::unique_ptr<AbiOperation> AbiOperation::Build(const Operation& op, std::string* error) {
  std::unique_ptr<AbiOperation> abi(new AbiOperation);
  const std::string& name = op.spec->name;
  if (name == "DML_CUMULATIVE_SUMMATION" || name == "DML_CUMULATIVE_PRODUCT") {
    const bool sum = name == "DML_CUMULATIVE_SUMMATION";
    abi->binding_order_ = {"InputTensor", "OutputTensor"};
    abi->cumulative_ = {abi->Describe(op, "InputTensor"), abi->Describe(op, "OutputTensor"),
                        U32(op, "Axis"), U32(op, "AxisDirection"),
                        U32(op, sum ? "HasExclusiveSum" : "HasExclusiveProduct")};
    abi->desc_ = {sum ? OPCTS_OP_DML_CUMULATIVE_SUMMATION : OPCTS_OP_DML_CUMULATIVE_PRODUCT,
                  &abi->cumulative_};
  } else if (name == "DML_SCATTER_ND") {
    abi->binding_order_ = {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"};
    abi->scatter_ = {abi->Describe(op, "InputTensor"), abi->Describe(op, "IndicesTensor"),
                     abi->Describe(op, "UpdatesTensor"), abi->Describe(op, "OutputTensor"),
                     U32(op, "InputDimensionCount"), U32(op, "IndicesDimensionCount")};
    abi->desc_ = {OPCTS_OP_DML_SCATTER_ND, &abi->scatter_};
  } else if (name == "OPENVINO_CUMSUM_3") {
    abi->binding_order_ = {"data", "axis", "output"};
    abi->openvino_ = {abi->Describe(op, "data"), abi->Describe(op, "axis"),
                      abi->Describe(op, "output"), U32(op, "exclusive"), U32(op, "reverse")};
    abi->desc_ = {OPCTS_OP_OPENVINO_CUMSUM_3, &abi->openvino_};
  } else {
    *error = "operator " + name + " has no form in the backend ABI";
    return nullptr;
  }
  return abi;
}

AbiOperation::Snapshot AbiOperation::Take() const {
  Snapshot parts = {{"opcts_op_desc", Bytes(desc_)},
                    {"the operator descriptor", Bytes(cumulative_) + Bytes(scatter_) + Bytes(openvino_)}};
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

bool HasAbiForm(const std::string& operator_name) {
  return operator_name == "DML_CUMULATIVE_SUMMATION" || operator_name == "DML_CUMULATIVE_PRODUCT" ||
         operator_name == "DML_SCATTER_ND" || operator_name == "OPENVINO_CUMSUM_3";
}

}  // namespace opcts
