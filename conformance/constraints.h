// Evaluates a spec's rules on a concrete Operation: which constraints it violates, and which
// support level (if any) admits it. Generators use this to prove a valid case is valid and an
// invalid case breaks exactly the constraint it is named after.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/operation.h"

namespace opcts {

struct Violation {
  std::string constraint;  // a constraint id, or "tensor-desc", "param", "missing-tensor"
  std::string message;     // "OutputTensor.Sizes [1,1,3,5] differ from InputTensor.Sizes [1,1,3,4]"
};

// Every violated rule. Rules on tensor data (scalar_value_range) are checked only when
// `with_data` is set: backends see them at execute, not at query.
std::vector<Violation> FindViolations(const Operation& op, bool with_data);

// The lowest support level whose table admits every present tensor's dtype and rank and every
// parameter value the level restricts (a parameter absent from `params` has its default), or
// nullopt.
std::optional<std::string> LowestSupportingLevel(const Operation& op);
std::optional<std::string> LowestSupportingLevel(const OperatorSpec& spec,
                                                 const std::map<std::string, TensorDesc>& tensors,
                                                 const std::map<std::string, int64_t>& params);

// Evaluates a bound ({rank_of: T}, {param: P} or a constant) on `op`; nullopt if it names
// something absent.
std::optional<int64_t> EvaluateBound(const Bound& bound, const Operation& op);

// What the scatter_nd_updates_sizes rule demands of the updates tensor, given the others: its
// sizes, or, when no updates tensor of the form's ranks can satisfy it, why not. nullopt when the
// other tensors or parameters break rules of their own (ranks, dimension counts, tuple size),
// which report it.
struct UpdatesDemand {
  std::vector<uint32_t> sizes;  // the demanded sizes, when `impossible` is empty
  std::string impossible;       // "IndicesTensor's [2,2] then InputTensor's [2,2] make 4 ..."
};
// DirectML form: one rank, leading ones, the dimension counts say which trailing dimensions are
// meaningful; impossible when the meaningful updates dimensions outnumber the common rank.
std::optional<UpdatesDemand> DemandedUpdatesSizes(const std::vector<uint32_t>& input,
                                                  const std::vector<uint32_t>& indices,
                                                  int64_t input_dims, int64_t indices_dims);
// ONNX form (the rule without params): exactly indices.shape[:-1] ++ input.shape[k:], whatever
// its rank (0 when every tuple addresses one element; above 8 for deep grids).
std::optional<UpdatesDemand> DemandedUpdatesSizes(const std::vector<uint32_t>& input,
                                                  const std::vector<uint32_t>& indices);

// The demanded sizes where the tensor model can hold them (rank 1 .. 8), for generators; nullopt
// otherwise.
std::optional<std::vector<uint32_t>> ScatterNDUpdatesSizes(const std::vector<uint32_t>& input,
                                                           const std::vector<uint32_t>& indices,
                                                           int64_t input_dims,
                                                           int64_t indices_dims);
std::optional<std::vector<uint32_t>> ScatterNDUpdatesSizes(const std::vector<uint32_t>& input,
                                                           const std::vector<uint32_t>& indices);

}  // namespace opcts
