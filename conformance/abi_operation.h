// An Operation expressed as the C ABI's descriptor structs (backends/include/opcts/backend.h).
// The one place that knows which spec operator maps to which ABI struct.
//
//   std::string error;
//   auto abi = AbiOperation::Build(op, &error);   // null if the operator has no ABI form
//   api.query(instance, &abi->desc(), ...);
//   for (const std::string& name : abi->binding_order()) ...   // bind tensors in this order
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "opcts/backend.h"
#include "spec/operation.h"

namespace opcts {

class AbiOperation {
 public:
  static std::unique_ptr<AbiOperation> Build(const Operation& op, std::string* error);

  const opcts_op_desc& desc() const { return desc_; }
  // Tensor names in binding order; an absent optional input is bound as {NULL, 0}.
  const std::vector<std::string>& binding_order() const { return binding_order_; }

 private:
  AbiOperation() = default;
  const opcts_tensor_desc* Describe(const Operation& op, const std::string& name);

  opcts_op_desc desc_{};
  std::vector<std::string> binding_order_;
  std::deque<opcts_tensor_desc> tensors_;  // deque: pointers stay valid as it grows
  std::deque<std::vector<uint32_t>> dims_;
  opcts_dml_cumulative_desc cumulative_{};
  opcts_dml_scatter_nd_desc scatter_{};
  opcts_openvino_cumsum_desc openvino_{};
};

// True if the named spec operator has an ABI form.
bool HasAbiForm(const std::string& operator_name);

}  // namespace opcts
