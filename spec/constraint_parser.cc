// Constraints: each kind's fields, and the tensors and parameters they name.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "spec/spec_parser_internal.h"

namespace opcts {
namespace {

struct KindInfo {
  std::string_view name;
  ConstraintKind kind;
  std::vector<std::string_view> fields;     // besides id, kind and text
  size_t min_tensors = 0, max_tensors = 0;  // max 0: no limit (or no `tensors` field)
  std::vector<std::string_view> optional_fields = {};
};

const std::vector<KindInfo>& Kinds() {
  static const std::vector<KindInfo> kKinds = {
      {"same_dtype", ConstraintKind::kSameDType, {"tensors"}, 2, 0},
      {"same_rank", ConstraintKind::kSameRank, {"tensors"}, 2, 0},
      {"same_sizes", ConstraintKind::kSameSizes, {"tensors"}, 2, 0},
      {"param_range", ConstraintKind::kParamRange, {"param", "min", "max"}, 0, 0},
      {"scalar_value_range", ConstraintKind::kScalarValueRange, {"tensors", "min", "max"}, 1, 1},
      {"leading_ones", ConstraintKind::kLeadingOnes, {"tensors", "param"}, 1, 1},
      {"last_dim_range", ConstraintKind::kLastDimRange, {"tensors", "min", "max"}, 1, 1},
      // With `params` (the two dimension counts) DirectML's right-aligned form; without, ONNX's.
      {"scatter_nd_updates_sizes",
       ConstraintKind::kScatterNDUpdatesSizes,
       {"tensors"},
       3,
       3,
       {"params"}},
  };
  return kKinds;
}

void ParseConstraintTensors(SchemaContext& ctx, const YamlField& f, const KindInfo& kind,
                            Constraint& c) {
  const std::optional<std::vector<YamlField>> items = ctx.reader.List(f);
  if (!items) return;
  const std::string user = "kind " + std::string(kind.name);
  const size_t n = items->size();
  if (kind.max_tensors == kind.min_tensors && n != kind.min_tensors)
    ctx.reader.Error(f, user + " needs exactly " + std::to_string(kind.min_tensors) +
                            (kind.min_tensors == 1 ? " tensor" : " tensors") + ", got " +
                            std::to_string(n));
  else if (n < kind.min_tensors)
    ctx.reader.Error(f, user + " needs at least " + std::to_string(kind.min_tensors) +
                            " tensors, got " + std::to_string(n));
  for (const YamlField& item : *items) {
    const std::optional<std::string> name = ctx.reader.String(item);
    if (!name) continue;
    if (std::count(c.tensors.begin(), c.tensors.end(), *name)) {
      ctx.reader.Error(item, "tensor " + Quoted(*name) + " is listed twice");
      continue;
    }
    c.tensors.push_back(*name);
    const TensorSpec* t = ctx.KnownTensor(item, *name);
    if (!t) continue;
    const bool scalar = t->role == TensorRole::kScalarInput;
    if (kind.kind == ConstraintKind::kScalarValueRange && !scalar)
      ctx.reader.Error(item, user + " needs a scalar_input tensor; " + Quoted(*name) + " is " +
                                 std::string(RoleName(t->role)));
    if ((kind.kind == ConstraintKind::kLeadingOnes || kind.kind == ConstraintKind::kLastDimRange) &&
        scalar)
      ctx.reader.Error(
          item, user + " needs a tensor with dimensions; " + Quoted(*name) + " is a scalar_input");
  }
}

std::optional<Bound> ParseBound(SchemaContext& ctx, const YamlField& f) {
  Bound b;
  if (f.node.IsScalar()) {
    const std::optional<int64_t> v =
        ctx.reader.Int(f, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    if (!v) return std::nullopt;
    b.plus = *v;
    return b;
  }
  if (!f.node.IsMap()) {
    ctx.reader.Error(f, "expected an integer or a {rank_of | param, scale, plus} map, got " +
                            DescribeNode(f.node));
    return std::nullopt;
  }
  const bool ok = ctx.Clean([&] {
    YamlMap m(ctx.reader, f);
    m.CheckKeys({}, {"rank_of", "param", "scale", "plus"});
    const std::optional<YamlField> rank_of = m.Get("rank_of"), param = m.Get("param");
    if (rank_of.has_value() == param.has_value())
      ctx.reader.Error(f, "a bound needs exactly one of rank_of and param");
    if (rank_of) {
      b.kind = Bound::Kind::kRankOf;
      if (auto s = ctx.reader.String(*rank_of)) {
        b.name = *s;
        ctx.KnownTensor(*rank_of, *s);
      }
    } else if (param) {
      b.kind = Bound::Kind::kParam;
      if (auto s = ctx.reader.String(*param)) {
        b.name = *s;
        ctx.CheckUInt32Param(*param, *s, "a bound");
      }
    }
    constexpr int64_t kLimit = std::numeric_limits<int32_t>::max();
    if (auto v = m.Get("scale")) b.scale = ctx.reader.Int(*v, -kLimit, kLimit).value_or(1);
    if (auto v = m.Get("plus")) b.plus = ctx.reader.Int(*v, -kLimit, kLimit).value_or(0);
  });
  if (!ok) return std::nullopt;
  return b;
}

void ParseConstraint(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  if (!m.valid()) return;
  const KindInfo* kind = nullptr;
  if (auto v = m.Get("kind")) {
    std::vector<std::string> names;
    for (const KindInfo& k : Kinds()) names.emplace_back(k.name);
    if (auto s = ctx.reader.OneOf(*v, "constraint kind", names))
      kind = &*std::find_if(Kinds().begin(), Kinds().end(),
                            [&](const KindInfo& k) { return k.name == *s; });
  }
  std::vector<std::string_view> required = {"id", "kind", "text"};
  if (kind) {
    required.insert(required.end(), kind->fields.begin(), kind->fields.end());
    m.CheckKeys(required, kind->optional_fields, "kind " + std::string(kind->name));
  } else {
    // An unknown kind: tolerate any kind's fields, still catch typos.
    m.CheckKeys(required, {"tensors", "param", "params", "min", "max"});
  }
  Constraint c;
  c.where = SourceLocation{ctx.spec.file, f.line};
  if (auto v = m.Get("id")) {
    const bool taken = v->node.IsScalar() &&
                       std::any_of(ctx.spec.constraints.begin(), ctx.spec.constraints.end(),
                                   [&](const Constraint& o) { return o.id == v->node.Scalar(); });
    c.id = ctx.Id(*v, "constraint", taken).value_or("");
  }
  if (auto v = m.Get("text")) c.text = ctx.reader.String(*v).value_or("");
  if (kind) {
    c.kind = kind->kind;
    const std::string user = "kind " + std::string(kind->name);
    if (auto v = m.Get("tensors"); v && kind->min_tensors > 0)
      ParseConstraintTensors(ctx, *v, *kind, c);
    if (auto v = m.Get("param");
        v && std::count(kind->fields.begin(), kind->fields.end(), "param")) {
      if (auto s = ctx.reader.String(*v)) {
        c.param = *s;
        ctx.CheckUInt32Param(*v, *s, user);
      }
    }
    if (auto v = m.Get("params"); v && kind->kind == ConstraintKind::kScatterNDUpdatesSizes) {
      // Both dimension counts or neither.
      const std::optional<std::vector<YamlField>> items = ctx.reader.List(*v);
      if (items && items->size() != 2)
        ctx.reader.Error(*v,
                         user + " needs exactly 2 params, got " + std::to_string(items->size()));
      for (const YamlField& item : items.value_or(std::vector<YamlField>{})) {
        if (auto s = ctx.reader.String(item)) {
          c.params.push_back(*s);
          ctx.CheckUInt32Param(item, *s, user);
        }
      }
    }
    const bool bounded = std::count(kind->fields.begin(), kind->fields.end(), "min") > 0;
    if (auto v = m.Get("min"); v && bounded) c.min = ParseBound(ctx, *v);
    if (auto v = m.Get("max"); v && bounded) {
      c.max = ParseBound(ctx, *v);
      if (c.min && c.max && c.min->kind == Bound::Kind::kConstant &&
          c.max->kind == Bound::Kind::kConstant && c.min->plus > c.max->plus)
        ctx.reader.Error(*v, "min " + std::to_string(c.min->plus) + " is greater than max " +
                                 std::to_string(c.max->plus));
    }
  }
  ctx.spec.constraints.push_back(std::move(c));
}

}  // namespace

void ParseConstraints(SchemaContext& ctx, const YamlField& f) {
  for (const YamlField& item : ctx.reader.List(f).value_or(std::vector<YamlField>{}))
    ParseConstraint(ctx, item);
}

}  // namespace opcts
