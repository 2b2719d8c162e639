// An Operation expressed as the C ABI's descriptor struct (opcts/operators.h), laid out by the
// operator table generated from the specs: any operator with an `abi:` section has one.
//
//   Result<std::unique_ptr<AbiOperation>> abi = AbiOperation::Build(op);  // an error if the
//   operator has no ABI form api.query(instance, &(*abi)->desc(), ...); for (const std::string&
//   name : (*abi)->binding_order()) ...   // bind tensors in this order
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "conformance/case.h"
#include "opcts/backend.h"
#include "spec/operation.h"

namespace opcts {

class AbiOperation {
 public:
  // `fault`: a descriptor defect of an invalid case (kNullTensorDesc, kDataType*) is built in;
  // binding faults are the executor's.
  static Result<std::unique_ptr<AbiOperation>> Build(const Operation& op,
                                                     AbiFault fault = AbiFault::kNone);

  const opcts_op_desc& desc() const { return desc_; }
  // Tensor names in binding order; an absent optional input is bound as {NULL, 0}.
  const std::vector<std::string>& binding_order() const { return binding_order_; }

  // Every byte a backend can reach through desc(), labelled ("OutputTensor.Sizes"): the
  // descriptors are const, and a backend that writes them anyway is caught by comparing.
  using Snapshot = std::vector<std::pair<std::string, std::string>>;
  Snapshot Take() const;
  // The label of the first part that differs from `before`, or "".
  std::string ChangedSince(const Snapshot& before) const;

 private:
  AbiOperation() = default;
  const opcts_tensor_desc* Describe(const Operation& op, const std::string& name);
  // `desc` (the last described) with a descriptor fault applied.
  const opcts_tensor_desc* Break(const opcts_tensor_desc* desc, AbiFault fault);

  opcts_op_desc desc_{};
  std::vector<std::string> binding_order_;
  std::deque<opcts_tensor_desc> tensors_;   // deque: pointers stay valid as it grows
  std::vector<std::string> tensor_names_;   // parallel to tensors_
  std::deque<std::vector<uint32_t>> dims_;  // sizes, strides of tensors_[0], then [1], ...
  // The operator's descriptor struct, laid out by the operator table.
  std::vector<char> struct_;  // operator new: aligned for any member
};

}  // namespace opcts
