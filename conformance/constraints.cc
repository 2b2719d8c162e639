#include "conformance/constraints.h"

#include <algorithm>

#include "spec/element.h"
#include "spec/spec_loader.h"
#include "spec/tensor.h"

namespace opcts {
namespace {

// Checks one constraint; returns its violation message or nullopt.
std::optional<std::string> Check(const Constraint& c, const Operation& op, bool with_data) {
  auto tensor = [&](size_t i) { return op.Tensor(c.tensors[i]); };
  switch (c.kind) {
    case ConstraintKind::kSameDType:
    case ConstraintKind::kSameRank:
    case ConstraintKind::kSameSizes: {
      const TensorData* first = tensor(0);
      if (!first) return std::nullopt;
      for (size_t i = 1; i < c.tensors.size(); ++i) {
        const TensorData* other = tensor(i);
        if (!other) continue;
        const std::string a = c.tensors[i], b = c.tensors[0];
        if (c.kind == ConstraintKind::kSameDType && other->desc.dtype != first->desc.dtype)
          return a + ".DataType " + std::string(DTypeName(other->desc.dtype)) + " differs from " +
                 b + ".DataType " + std::string(DTypeName(first->desc.dtype));
        if (c.kind == ConstraintKind::kSameRank && other->desc.rank() != first->desc.rank())
          return a + ".DimensionCount " + std::to_string(other->desc.rank()) + " differs from " +
                 b + ".DimensionCount " + std::to_string(first->desc.rank());
        if (c.kind == ConstraintKind::kSameSizes && other->desc.sizes != first->desc.sizes)
          return a + ".Sizes " + FormatList(other->desc.sizes) + " differ from " + b + ".Sizes " +
                 FormatList(first->desc.sizes);
      }
      return std::nullopt;
    }
    case ConstraintKind::kParamRange: {
      const auto value = op.Param(c.param);
      const auto lo = EvaluateBound(*c.min, op), hi = EvaluateBound(*c.max, op);
      if (!value || !lo || !hi) return std::nullopt;
      if (*value < *lo || *value > *hi)
        return c.param + " " + std::to_string(*value) + " is outside [" + std::to_string(*lo) +
               ", " + std::to_string(*hi) + "]";
      return std::nullopt;
    }
    case ConstraintKind::kScalarValueRange: {
      const TensorData* t = tensor(0);
      if (!with_data || !t || t->bytes.size() < DTypeSize(t->desc.dtype)) return std::nullopt;
      const int64_t value = BitsToInt64(t->desc.dtype, LoadBits(t->desc.dtype, t->bytes.data()));
      const auto lo = EvaluateBound(*c.min, op), hi = EvaluateBound(*c.max, op);
      if (!lo || !hi) return std::nullopt;
      if (value < *lo || value > *hi)
        return c.tensors[0] + " value " + std::to_string(value) + " is outside [" +
               std::to_string(*lo) + ", " + std::to_string(*hi) + "]";
      return std::nullopt;
    }
    case ConstraintKind::kLeadingOnes: {
      const TensorData* t = tensor(0);
      const auto keep = op.Param(c.param);
      if (!t || !keep) return std::nullopt;
      for (int64_t d = 0; d + *keep < static_cast<int64_t>(t->desc.rank()); ++d)
        if (t->desc.sizes[d] != 1)
          return c.tensors[0] + ".Sizes[" + std::to_string(d) + "] is " +
                 std::to_string(t->desc.sizes[d]) + " but only the last " + c.param + " = " +
                 std::to_string(*keep) + " dimensions may differ from 1";
      return std::nullopt;
    }
    case ConstraintKind::kLastDimRange: {
      const TensorData* t = tensor(0);
      if (!t || t->desc.rank() == 0) return std::nullopt;
      const int64_t last = t->desc.sizes.back();
      const auto lo = EvaluateBound(*c.min, op), hi = EvaluateBound(*c.max, op);
      if (!lo || !hi) return std::nullopt;
      if (last < *lo || last > *hi)
        return c.tensors[0] + ".Sizes[" + std::to_string(t->desc.rank() - 1) +
               "] (index tuple size) " + std::to_string(last) + " is outside [" +
               std::to_string(*lo) + ", " + std::to_string(*hi) + "]";
      return std::nullopt;
    }
    case ConstraintKind::kScatterNDUpdatesSizes: {
      const TensorData *input = tensor(0), *indices = tensor(1), *updates = tensor(2);
      if (!input || !indices || !updates) return std::nullopt;
      std::optional<UpdatesDemand> want;
      if (c.params.empty()) {
        want = DemandedUpdatesSizes(input->desc.sizes, indices->desc.sizes);
      } else {
        const auto input_dims = op.Param(c.params[0]), indices_dims = op.Param(c.params[1]);
        if (!input_dims || !indices_dims) return std::nullopt;
        want = DemandedUpdatesSizes(input->desc.sizes, indices->desc.sizes, *input_dims,
                                    *indices_dims);
      }
      if (!want) return std::nullopt;  // other constraints (ranks, counts) already fail
      std::string sizes = c.tensors[2] + ".Sizes " + FormatList(updates->desc.sizes);
      if (!want->impossible.empty()) return sizes + " cannot satisfy the rule: " + want->impossible;
      if (updates->desc.sizes != want->sizes)
        return sizes + " should be " + FormatList(want->sizes);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// The demanded sizes, when some updates tensor can have them.
std::optional<std::vector<uint32_t>> Representable(const std::optional<UpdatesDemand>& demand) {
  if (!demand || !demand->impossible.empty()) return std::nullopt;
  return demand->sizes;
}

}  // namespace

std::optional<int64_t> EvaluateBound(const Bound& bound, const Operation& op) {
  switch (bound.kind) {
    case Bound::Kind::kConstant:
      return bound.plus;
    case Bound::Kind::kRankOf: {
      const TensorData* t = op.Tensor(bound.name);
      if (!t) return std::nullopt;
      return bound.scale * static_cast<int64_t>(t->desc.rank()) + bound.plus;
    }
    case Bound::Kind::kParam: {
      const auto p = op.Param(bound.name);
      if (!p) return std::nullopt;
      return bound.scale * *p + bound.plus;
    }
  }
  return std::nullopt;
}

std::optional<UpdatesDemand> DemandedUpdatesSizes(const std::vector<uint32_t>& input,
                                                  const std::vector<uint32_t>& indices,
                                                  int64_t input_dims, int64_t indices_dims) {
  const auto rank = static_cast<int64_t>(input.size());
  if (rank == 0 || static_cast<int64_t>(indices.size()) != rank || input_dims < 1 ||
      input_dims > rank || indices_dims < 1 || indices_dims > rank)
    return std::nullopt;
  const int64_t tuple = indices.back();
  if (tuple < 1 || tuple > input_dims) return std::nullopt;
  const std::vector<uint32_t> grid(indices.end() - indices_dims, indices.end() - 1);
  const std::vector<uint32_t> slice(input.end() - input_dims + tuple, input.end());
  const auto meaningful = static_cast<int64_t>(grid.size() + slice.size());
  if (meaningful > rank)
    return UpdatesDemand{{},
                         "the meaningful index dimensions but the last " + FormatList(grid) +
                             " then the input's after the tuple " + FormatList(slice) + " make " +
                             std::to_string(meaningful) + " dimensions, more than DimensionCount " +
                             std::to_string(rank)};
  std::vector<uint32_t> sizes(static_cast<size_t>(rank - meaningful), 1);
  sizes.insert(sizes.end(), grid.begin(), grid.end());
  sizes.insert(sizes.end(), slice.begin(), slice.end());
  return UpdatesDemand{sizes, ""};
}

std::optional<UpdatesDemand> DemandedUpdatesSizes(const std::vector<uint32_t>& input,
                                                  const std::vector<uint32_t>& indices) {
  if (input.empty() || indices.empty()) return std::nullopt;
  const uint32_t tuple = indices.back();
  if (tuple < 1 || tuple > input.size()) return std::nullopt;
  std::vector<uint32_t> sizes(indices.begin(), indices.end() - 1);
  sizes.insert(sizes.end(), input.begin() + tuple, input.end());
  // The tensor model keeps rank 0 for scalar inputs and stops at rank 8 (spec defect
  // rank-unbounded): no updates tensor it can describe has these shapes.
  if (sizes.empty())
    return UpdatesDemand{{},
                         "each index tuple addresses a single element, so the updates have rank "
                         "0, which the tensor model keeps for scalar inputs"};
  if (sizes.size() > kMaxRank)
    return UpdatesDemand{{},
                         "the updates would have rank " + std::to_string(sizes.size()) + " " +
                             FormatList(sizes) + ", above the tensor model's " +
                             std::to_string(kMaxRank)};
  return UpdatesDemand{sizes, ""};
}

std::optional<std::vector<uint32_t>> ScatterNDUpdatesSizes(const std::vector<uint32_t>& input,
                                                           const std::vector<uint32_t>& indices,
                                                           int64_t input_dims,
                                                           int64_t indices_dims) {
  return Representable(DemandedUpdatesSizes(input, indices, input_dims, indices_dims));
}

std::optional<std::vector<uint32_t>> ScatterNDUpdatesSizes(const std::vector<uint32_t>& input,
                                                           const std::vector<uint32_t>& indices) {
  return Representable(DemandedUpdatesSizes(input, indices));
}

std::vector<Violation> FindViolations(const Operation& op, bool with_data) {
  std::vector<Violation> found;
  const OperatorSpec& spec = *op.spec;
  for (const TensorSpec& t : spec.tensors) {
    const TensorData* data = op.Tensor(t.name);
    if (!data) {
      if (!t.optional) found.push_back({"missing-tensor", t.name + " is missing"});
      continue;
    }
    if (const Result<void> valid =
            ValidateTensorDesc(data->desc, t.role == TensorRole::kScalarInput);
        !valid)
      found.push_back({"tensor-desc", t.name + ": " + valid.error().message});
    else if (t.role == TensorRole::kScalarInput && data->desc.rank() != 0)
      found.push_back({"tensor-desc", t.name + " must be a scalar"});
  }
  for (const ParamSpec& p : spec.params) {
    const auto value = op.Param(p.name);
    if (!value) {
      found.push_back({"param", p.name + " is missing"});
      continue;
    }
    const int64_t hi = p.type == ParamType::kBool   ? 1
                       : p.type == ParamType::kEnum ? static_cast<int64_t>(p.enum_values.size()) - 1
                                                    : 0xFFFFFFFFll;
    if (*value < 0 || *value > hi)
      found.push_back({"param", p.name + " " + std::to_string(*value) + " is not a valid " +
                                    (p.type == ParamType::kBool   ? "BOOL"
                                     : p.type == ParamType::kEnum ? "enum value"
                                                                  : "UINT")});
  }
  if (!found.empty()) return found;  // constraints assume well-formed tensors and params
  for (const Constraint& c : spec.constraints)
    if (auto message = Check(c, op, with_data)) found.push_back({c.id, *message});
  return found;
}

std::optional<std::string> LowestSupportingLevel(const Operation& op) {
  std::map<std::string, TensorDesc> descs;
  for (const auto& [name, t] : op.tensors) descs[name] = t.desc;
  return LowestSupportingLevel(*op.spec, descs, op.params);
}

std::optional<std::string> LowestSupportingLevel(const OperatorSpec& spec,
                                                 const std::map<std::string, TensorDesc>& tensors,
                                                 const std::map<std::string, int64_t>& params) {
  const Operation values{&spec, params, {}, false};  // for the parameters' defaults
  for (const SupportLevel& level : spec.support) {
    bool admitted = true;
    for (const auto& [name, allowed] : level.params) {
      const auto value = values.Param(name);
      if (value && std::find(allowed.begin(), allowed.end(), *value) == allowed.end())
        admitted = false;
    }
    for (const auto& [name, support] : level.tensors) {
      auto t = tensors.find(name);
      if (t == tensors.end()) continue;
      const bool dtype_ok = std::find(support.dtypes.begin(), support.dtypes.end(),
                                      t->second.dtype) != support.dtypes.end();
      const unsigned rank = t->second.rank();
      if (!dtype_ok || rank < support.min_rank || rank > support.max_rank) {
        admitted = false;
        break;
      }
    }
    if (admitted) return level.level;
  }
  return std::nullopt;
}

}  // namespace opcts
