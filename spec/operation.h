// One concrete instance of a spec'd operator: parameter values and tensors with their bytes.
// Generators build these, the reference judges them, the runner hands them to backends.
//
//   Operation op{&spec};
//   op.params["Axis"] = 3;
//   op.tensors["InputTensor"] = MakeTensor(PackedDesc(DType::kFloat32, {1, 1, 3, 4}));
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/operator_spec.h"
#include "spec/tensor.h"

namespace opcts {

struct TensorData {
  TensorDesc desc;
  std::vector<uint8_t> bytes;  // desc.total_bytes long

  const uint8_t* Element(uint64_t buffer_index) const {
    return bytes.data() + buffer_index * DTypeSize(desc.dtype);
  }
  uint8_t* Element(uint64_t buffer_index) {
    return bytes.data() + buffer_index * DTypeSize(desc.dtype);
  }
};

// A zero-filled tensor of desc.total_bytes bytes.
TensorData MakeTensor(const TensorDesc& desc);

struct Operation {
  const OperatorSpec* spec = nullptr;
  // By parameter name; enums hold the value's index, bools 0/1. Absent: the spec's default.
  std::map<std::string, int64_t> params;
  // By tensor name. Outputs carry their desc (bytes unused by the reference). An optional input
  // that is absent is simply missing.
  std::map<std::string, TensorData> tensors;
  // The output binding aliases the input named by the output's may_alias (same desc required).
  bool in_place = false;

  // The parameter's value, or its default; nullopt when neither exists.
  std::optional<int64_t> Param(const std::string& name) const;
  const TensorData* Tensor(const std::string& name) const;
};

}  // namespace opcts
