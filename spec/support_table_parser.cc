// Feature-level support tables: each level's ranks and data types, and the order and superset
// rules between levels.
#include <algorithm>
#include <map>
#include <utility>

#include "spec/spec_parser_internal.h"
#include "spec/tensor.h"

namespace opcts {
namespace {

// Where each clean tensor entry of a support level sits, for superset errors.
struct LevelInfo {
  int index = -1;  // in the scheme's order; -1 when unknown
  bool clean = false;
  YamlField field;                                               // the level's map
  YamlField level_field;                                         // its `level:` value
  std::map<std::string, std::pair<YamlField, YamlField>> where;  // tensor -> (ranks, dtypes)
};

void ParseRanks(SchemaContext& ctx, const YamlField& f, const TensorSpec* tensor,
                TensorSupport& support) {
  const std::optional<std::vector<YamlField>> items = ctx.reader.List(f);
  if (!items) return;
  if (items->size() != 2) {
    ctx.reader.Error(f,
                     "ranks must be [min, max], got " + std::to_string(items->size()) + " values");
    return;
  }
  const std::optional<int64_t> lo = ctx.reader.Int((*items)[0], 0, kMaxRank);
  const std::optional<int64_t> hi = ctx.reader.Int((*items)[1], 0, kMaxRank);
  if (!lo || !hi) return;
  if (*lo > *hi) {
    ctx.reader.Error(
        f, "min rank " + std::to_string(*lo) + " is greater than max rank " + std::to_string(*hi));
    return;
  }
  support.min_rank = static_cast<unsigned>(*lo);
  support.max_rank = static_cast<unsigned>(*hi);
  if (!tensor) return;
  const bool scalar = tensor->role == TensorRole::kScalarInput;
  if (scalar && *hi != 0) ctx.reader.Error(f, "a scalar_input tensor has ranks [0, 0]");
  if (!scalar && *lo == 0) ctx.reader.Error(f, "rank 0 is only for scalar_input tensors");
}

void ParseDTypes(SchemaContext& ctx, const YamlField& f, TensorSupport& support) {
  const std::optional<std::vector<YamlField>> items = ctx.reader.List(f);
  if (!items) return;
  if (items->empty()) ctx.reader.Error(f, "needs at least one data type");
  for (const YamlField& item : *items) {
    const std::optional<std::string> name = ctx.reader.String(item);
    if (!name) continue;
    const std::optional<DType> d = ParseDType(*name);
    if (!d)
      ctx.reader.Error(item, "unknown data type " + Quoted(*name));
    else if (std::count(support.dtypes.begin(), support.dtypes.end(), *d))
      ctx.reader.Error(item, "data type " + Quoted(*name) + " repeated");
    else
      support.dtypes.push_back(*d);
  }
}

// `params: {reduction: [none, add]}`: the enum values allowed at this level.
void ParseLevelParams(SchemaContext& ctx, const YamlField& f, SupportLevel& level) {
  YamlMap table(ctx.reader, f);
  for (const YamlMap::Entry& e : table.entries()) {
    const std::string& name = e.key.node.Scalar();
    const ParamSpec* param = ctx.params_ok ? ctx.spec.FindParam(name) : nullptr;
    if (ctx.params_ok && (!param || param->type != ParamType::kEnum)) {
      ctx.reader.Error(e.key, Quoted(name) + " is not an enum parameter");
      continue;
    }
    std::vector<int64_t>& allowed = level.params[name];
    for (const YamlField& item : ctx.reader.List(e.value).value_or(std::vector<YamlField>{})) {
      const std::optional<std::string> value = ctx.reader.String(item);
      if (!value || !param) continue;
      const auto it = std::find(param->enum_values.begin(), param->enum_values.end(), *value);
      if (it == param->enum_values.end())
        ctx.reader.Error(item, Quoted(*value) + " is not a value of " + Quoted(name) + " (" +
                                   JoinNames(param->enum_values) + ")");
      else
        allowed.push_back(it - param->enum_values.begin());
    }
    if (allowed.empty()) ctx.reader.Error(e.value, Quoted(name) + " needs at least one value");
  }
}

void ParseLevel(SchemaContext& ctx, const YamlField& f, SupportLevel& level, LevelInfo& info) {
  YamlMap m(ctx.reader, f);
  if (!m.valid()) return;
  m.CheckKeys({"level", "tensors"}, {"params"});
  if (auto params = m.Get("params")) ParseLevelParams(ctx, *params, level);
  if (auto v = m.Get("level")) {
    info.level_field = *v;
    level.level = ctx.Level(*v).value_or("");
    if (ctx.scheme) info.index = LevelIndex(*ctx.scheme, level.level);
  }
  const std::optional<YamlField> tensors = m.Get("tensors");
  if (!tensors) return;
  YamlMap table(ctx.reader, *tensors);
  if (!table.valid()) return;
  for (const YamlMap::Entry& e : table.entries()) {
    const std::string& name = e.key.node.Scalar();
    const bool clean = ctx.Clean([&] {
      const TensorSpec* tensor = ctx.KnownTensor(e.key, name);
      YamlMap entry(ctx.reader, e.value);
      entry.CheckKeys({"ranks", "dtypes"}, {});
      TensorSupport support;
      auto ranks = entry.Get("ranks"), dtypes = entry.Get("dtypes");
      if (ranks) ParseRanks(ctx, *ranks, tensor, support);
      if (dtypes) ParseDTypes(ctx, *dtypes, support);
      if (ranks && dtypes) {
        level.tensors[name] = std::move(support);
        info.where[name] = {*ranks, *dtypes};
      }
    });
    if (!clean) {  // a later level is compared only with entries that parsed whole
      level.tensors.erase(name);
      info.where.erase(name);
    }
  }
  if (!ctx.tensors_ok) return;
  for (const TensorSpec& t : ctx.spec.tensors)
    if (!table.Has(t.name)) ctx.reader.Error(*tensors, "missing tensor " + Quoted(t.name));
}

std::vector<int64_t> SortedCopy(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

void CompareLevels(SchemaContext& ctx, const SupportLevel& before, const LevelInfo& before_info,
                   const SupportLevel& after, const LevelInfo& after_info) {
  const std::string not_superset =
      "level " + Quoted(after.level) + " is not a superset of " + Quoted(before.level) + ": ";
  bool grows = false, shrinks = false;
  for (const auto& [name, now] : after.tensors) {
    const auto it = before.tensors.find(name);
    if (it == before.tensors.end()) continue;
    const TensorSupport& was = it->second;
    const auto& [ranks_field, dtypes_field] = after_info.where.at(name);
    if (now.min_rank > was.min_rank || now.max_rank < was.max_rank) {
      shrinks = true;
      ctx.reader.Error(ranks_field, not_superset + "ranks [" + std::to_string(now.min_rank) + ", " +
                                        std::to_string(now.max_rank) + "] do not contain [" +
                                        std::to_string(was.min_rank) + ", " +
                                        std::to_string(was.max_rank) + "]");
    } else if (now.min_rank < was.min_rank || now.max_rank > was.max_rank) {
      grows = true;
    }
    std::vector<std::string> dropped;
    for (DType d : was.dtypes)
      if (!std::count(now.dtypes.begin(), now.dtypes.end(), d)) dropped.emplace_back(DTypeName(d));
    if (!dropped.empty()) {
      shrinks = true;
      ctx.reader.Error(dtypes_field, not_superset + "drops " + JoinNames(dropped));
    } else if (now.dtypes.size() > was.dtypes.size()) {
      grows = true;
    }
  }
  for (const auto& [name, was] : before.params) {
    const auto it = after.params.find(name);
    if (it == after.params.end()) {
      shrinks = true;
      ctx.reader.Error(after_info.field, not_superset + "params lack " + Quoted(name));
      continue;
    }
    const std::vector<int64_t> now = SortedCopy(it->second), before_values = SortedCopy(was);
    if (!std::includes(now.begin(), now.end(), before_values.begin(), before_values.end())) {
      shrinks = true;
      ctx.reader.Error(after_info.field, not_superset + Quoted(name) + " drops a value");
    } else if (now.size() > was.size()) {
      grows = true;
    }
  }
  if (!grows && !shrinks && before_info.clean && after_info.clean)
    ctx.reader.Error(after_info.field,
                     "level " + Quoted(after.level) + " adds nothing over " + Quoted(before.level));
}

}  // namespace

std::vector<SupportLevel> ParseSupportTable(SchemaContext& ctx, const YamlField& f) {
  std::vector<SupportLevel> levels;
  const std::optional<std::vector<YamlField>> items = ctx.reader.List(f);
  if (!items) return levels;
  if (items->empty()) ctx.reader.Error(f, "a support table needs at least one level");
  std::vector<LevelInfo> infos;
  int previous = -1;  // the last level that kept the order, which the next one must extend
  for (const YamlField& item : *items) {
    SupportLevel level;
    LevelInfo info;
    info.field = info.level_field = item;
    level.where = SourceLocation{ctx.spec.file, item.line};
    info.clean = ctx.Clean([&] { ParseLevel(ctx, item, level, info); });
    bool ordered = info.index >= 0;
    if (ordered && previous >= 0) {
      const SupportLevel& before = levels[previous];
      const int before_index = infos[previous].index;
      if (info.index == before_index) {
        ctx.reader.Error(info.level_field, "duplicate level " + Quoted(level.level) +
                                               " (its table overlaps the one before)");
        ordered = false;
      } else if (info.index < before_index) {
        ctx.reader.Error(info.level_field, "level " + Quoted(level.level) + " after " +
                                               Quoted(before.level) +
                                               " is non-monotonic (levels must ascend)");
        ordered = false;
      } else {
        CompareLevels(ctx, before, infos[previous], level, info);
      }
    }
    levels.push_back(std::move(level));
    infos.push_back(std::move(info));
    if (ordered) previous = static_cast<int>(levels.size()) - 1;
  }
  return levels;
}

}  // namespace opcts
