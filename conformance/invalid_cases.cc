// Invalid descriptors derived from the spec: for every constraint, a valid case changed so it
// breaks that constraint and, where the rules allow, nothing else; plus the tensor-desc rules
// every DML_BUFFER_TENSOR_DESC must satisfy, out-of-range enum and bool values, and the defects
// no Operation can hold (a null descriptor, an unknown DataType code, wrong bindings: AbiFault,
// applied as the case reaches the ABI). Each derived case is checked against the constraint
// evaluator, so a case never claims a violation it lacks.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <utility>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"

namespace opcts {
namespace {

using Mutation = std::function<bool(CaseRecipe&)>;  // false: not applicable to this base

// Resizes a tensor (packed) and, unless `alone`, every tensor that must keep its sizes.
void Resize(CaseRecipe& r, const std::string& name, const std::vector<uint32_t>& sizes,
            bool alone) {
  std::vector<std::string> names = {name};
  if (!alone)
    for (const Constraint& c : r.spec->constraints)
      if (c.kind == ConstraintKind::kSameSizes &&
          std::count(c.tensors.begin(), c.tensors.end(), name))
        names.insert(names.end(), c.tensors.begin(), c.tensors.end());
  for (const std::string& n : names) {
    auto it = r.tensors.find(n);
    if (it == r.tensors.end()) continue;
    it->second.desc = PackedDesc(it->second.desc.dtype, sizes);
  }
}

Operation Skeleton(const CaseRecipe& r) { return Materialize(r); }

int64_t Evaluate(const Bound& b, const CaseRecipe& r) {
  return EvaluateBound(b, Skeleton(r)).value_or(0);
}

struct Derived {
  std::string suffix;  // distinguishes two cases of one constraint: "above", "below"
  Mutation mutate;
};

std::vector<Derived> MutationsFor(const Constraint& c) {
  switch (c.kind) {
    case ConstraintKind::kSameDType:
      return {{"", [c](CaseRecipe& r) {
                 TensorRecipe& t = r.tensors.at(c.tensors[1]);
                 const auto& allowed = TopSupport(*r.spec).tensors.at(c.tensors[1]).dtypes;
                 for (DType d : allowed)
                   if (d != t.desc.dtype) {
                     t.desc = PackedDesc(d, t.desc.sizes);
                     return true;
                   }
                 return false;
               }}};
    case ConstraintKind::kSameRank:
      return {{"", [c](CaseRecipe& r) {
                 TensorRecipe& t = r.tensors.at(c.tensors.back());
                 if (t.desc.rank() >= kMaxRank) return false;
                 std::vector<uint32_t> sizes = t.desc.sizes;
                 sizes.insert(sizes.begin(), 1);
                 t.desc = PackedDesc(t.desc.dtype, sizes);
                 return true;
               }}};
    case ConstraintKind::kSameSizes:
      return {{"", [c](CaseRecipe& r) {
                 std::vector<uint32_t> sizes = r.tensors.at(c.tensors[1]).desc.sizes;
                 sizes.back() += 1;
                 Resize(r, c.tensors[1], sizes, /*alone=*/true);
                 return true;
               }}};
    case ConstraintKind::kParamRange:
      return {{"above",
               [c](CaseRecipe& r) {
                 r.params[c.param] = Evaluate(*c.max, r) + 1;
                 return true;
               }},
              {"below", [c](CaseRecipe& r) {
                 const int64_t lo = Evaluate(*c.min, r);
                 if (lo <= 0) return false;  // UINT parameters cannot go below 0
                 r.params[c.param] = lo - 1;
                 return true;
               }}};
    case ConstraintKind::kScalarValueRange:
      return {{"above",
               [c](CaseRecipe& r) {
                 auto it = r.tensors.find(c.tensors[0]);
                 if (it == r.tensors.end()) return false;
                 it->second.scalar = Evaluate(*c.max, r) + 1;
                 return true;
               }},
              {"below", [c](CaseRecipe& r) {
                 auto it = r.tensors.find(c.tensors[0]);
                 if (it == r.tensors.end()) return false;
                 it->second.scalar = Evaluate(*c.min, r) - 1;
                 return true;
               }}};
    case ConstraintKind::kLeadingOnes:
      return {{"", [c](CaseRecipe& r) {
                 const TensorRecipe& t = r.tensors.at(c.tensors[0]);
                 if (r.params.at(c.param) >= static_cast<int64_t>(t.desc.rank())) return false;
                 std::vector<uint32_t> sizes = t.desc.sizes;
                 sizes[0] = 2;
                 Resize(r, c.tensors[0], sizes, /*alone=*/false);
                 return true;
               }}};
    case ConstraintKind::kLastDimRange:
      return {{"", [c](CaseRecipe& r) {
                 TensorRecipe& t = r.tensors.at(c.tensors[0]);
                 std::vector<uint32_t> sizes = t.desc.sizes;
                 sizes.back() = static_cast<uint32_t>(Evaluate(*c.max, r) + 1);
                 t.desc = PackedDesc(t.desc.dtype, sizes);
                 t.index_dims.resize(sizes.back(), 2);
                 return true;
               }}};
    case ConstraintKind::kScatterNDUpdatesSizes:
      return {{"",
               [c](CaseRecipe& r) {
                 TensorRecipe& t = r.tensors.at(c.tensors[2]);
                 std::vector<uint32_t> sizes = t.desc.sizes;
                 sizes.back() += 1;
                 t.desc = PackedDesc(t.desc.dtype, sizes);
                 return true;
               }},
              // Indices whose demand no updates tensor meets, whatever its sizes.
              {"unsatisfiable", [c](CaseRecipe& r) {
                 TensorRecipe& indices = r.tensors.at(c.tensors[1]);
                 const std::vector<uint32_t> input = r.tensors.at(c.tensors[0]).desc.sizes;
                 if (c.params.empty()) {
                   // ONNX: one tuple addressing a single element wants rank-0 updates.
                   indices.desc =
                       PackedDesc(indices.desc.dtype, {static_cast<uint32_t>(input.size())});
                   indices.index_dims = input;
                   return true;
                 }
                 // DirectML, every dimension meaningful: a grid of rank - 1 dimensions of tuples
                 // of one coordinate, each a slice of rank - 1, is 2 * rank - 2 > rank
                 // dimensions from rank 3 (input [2,2,2], indices [2,2,1]).
                 const auto rank = static_cast<uint32_t>(input.size());
                 if (rank < 3) return false;
                 const std::vector<uint32_t> twos(rank, 2);
                 std::vector<uint32_t> grid = twos;
                 grid.back() = 1;
                 Resize(r, c.tensors[0], twos, /*alone=*/false);
                 TensorRecipe& updates = r.tensors.at(c.tensors[2]);
                 updates.desc = PackedDesc(updates.desc.dtype, twos);
                 indices.desc = PackedDesc(indices.desc.dtype, grid);
                 indices.index_dims = {2};
                 r.params[c.params[0]] = r.params[c.params[1]] = rank;
                 return true;
               }}};
  }
  return {};
}

struct GenericRule {
  std::string name;
  std::string violation;  // what FindViolations reports for it; "" for an AbiFault (nothing)
  Mutation mutate;
};

Mutation WithFault(AbiFault fault) {
  return [fault](CaseRecipe& r) {
    r.abi_fault = fault;
    return true;
  };
}

// The DML_BUFFER_TENSOR_DESC rules, applied to the first input, enum and bool parameters, and
// the defects below the descriptor model (the first tensor's, see AbiFault).
std::vector<GenericRule> GenericMutations(const OperatorSpec& spec) {
  const std::string input = spec.tensors.front().name;
  std::vector<GenericRule> m = {
      {"dimension-count-zero", "tensor-desc",
       [input](CaseRecipe& r) {
         Resize(r, input, {}, /*alone=*/false);
         return true;
       }},
      {"dimension-count-nine", "tensor-desc",
       [input](CaseRecipe& r) {
         std::vector<uint32_t> sizes = r.tensors.at(input).desc.sizes;
         sizes.insert(sizes.begin(), kMaxRank + 1 - sizes.size(), 1);
         Resize(r, input, sizes, /*alone=*/false);
         return true;
       }},
      {"size-zero", "tensor-desc",
       [input](CaseRecipe& r) {
         std::vector<uint32_t> sizes = r.tensors.at(input).desc.sizes;
         sizes[0] = 0;
         Resize(r, input, sizes, /*alone=*/false);
         return true;
       }},
      {"total-bytes-below-minimum", "tensor-desc",
       [input](CaseRecipe& r) {
         TensorDesc& d = r.tensors.at(input).desc;
         d.total_bytes = ImpliedMinimumBytes(d) - 4;
         return true;
       }},
      {"alignment-not-power-of-two", "tensor-desc",
       [input](CaseRecipe& r) {
         r.tensors.at(input).desc.alignment = 3;
         return true;
       }},
  };
  for (const ParamSpec& p : spec.params)
    if (p.type == ParamType::kEnum || p.type == ParamType::kBool)
      m.push_back({"param-" + p.name, "param", [p](CaseRecipe& r) {
                     r.params[p.name] = p.type == ParamType::kBool
                                            ? 2
                                            : static_cast<int64_t>(p.enum_values.size());
                     return true;
                   }});
  const std::pair<const char*, AbiFault> faults[] = {
      {"tensor-desc-null", AbiFault::kNullTensorDesc},
      {"data-type-zero", AbiFault::kDataTypeZero},
      {"data-type-past-last", AbiFault::kDataTypePastLast},
      {"binding-count-below", AbiFault::kBindingCountBelow},
      {"binding-count-above", AbiFault::kBindingCountAbove},
      {"binding-size-mismatch", AbiFault::kBindingSizeMismatch}};
  for (const auto& [name, fault] : faults) m.push_back({name, "", WithFault(fault)});
  return m;
}

// Adds the case if the mutation applies and the evaluator reports `violation` for it.
bool TryDerive(const CaseRecipe& base, const std::string& rule, const std::string& violation,
               const std::string& name, const Mutation& mutate, std::vector<CaseRecipe>& out) {
  CaseRecipe r = base;
  if (!mutate(r)) return false;
  r.group = CaseGroup::kInvalid;
  r.violates = rule;
  r.layout = Layout::kPacked;
  r.value_tag = "invalid";
  const std::vector<Violation> found = FindViolations(Skeleton(r), /*with_data=*/true);
  // An AbiFault must be the case's only defect; any other rule must be reported broken.
  if (violation.empty() ? !found.empty()
                        : std::none_of(found.begin(), found.end(), [&](const Violation& v) {
                            return v.constraint == violation;
                          }))
    return false;
  // The base's run seed; the rank may have changed.
  const uint64_t run_seed = CaseId::Parse(base.id)->seed;
  FinishRecipe(r, {OperatorKey(*r.spec),
                   false,
                   r.dtype,
                   static_cast<unsigned>(r.shape.size()),
                   {"invalid", name},
                   run_seed});
  out.push_back(std::move(r));
  return true;
}

}  // namespace

void GenerateInvalidCases(const OperatorSpec& spec, const std::vector<CaseRecipe>& valid,
                          std::vector<CaseRecipe>& out) {
  // Bases: packed, not in place, within the tables, smallest rank first.
  std::vector<const CaseRecipe*> bases;
  for (const CaseRecipe& c : valid)
    if (c.group == CaseGroup::kValid && !c.level.empty() && c.layout == Layout::kPacked &&
        !c.in_place && ElementCount(c.tensors.begin()->second.desc) < 4096)
      bases.push_back(&c);
  std::stable_sort(bases.begin(), bases.end(), [](const CaseRecipe* a, const CaseRecipe* b) {
    return a->shape.size() < b->shape.size();
  });
  auto derive = [&](const std::string& rule, const std::string& violation, const std::string& name,
                    const Mutation& mutate) {
    for (const CaseRecipe* base : bases)
      if (TryDerive(*base, rule, violation, name, mutate, out)) return;
    throw std::logic_error(spec.name + ": no valid case can be changed to break '" + rule + "'");
  };
  for (const Constraint& c : spec.constraints)
    for (const Derived& d : MutationsFor(c)) {
      const std::string name = c.id + (d.suffix.empty() ? "" : "-" + d.suffix);
      // "below" variants exist only where the lower bound is above 0.
      if (d.suffix == "below" && c.kind == ConstraintKind::kParamRange && c.min &&
          c.min->kind == Bound::Kind::kConstant && c.min->plus <= 0)
        continue;
      derive(c.id, c.id, name, d.mutate);
    }
  for (const GenericRule& g : GenericMutations(spec)) derive(g.name, g.violation, g.name, g.mutate);
}

}  // namespace opcts
