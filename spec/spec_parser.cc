#include "spec/spec_parser.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

#include "spec/spec_loader.h"
#include "spec/tensor.h"

namespace opcts {
namespace {

constexpr std::string_view kSchema = "opcts-spec/1";

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Tensor, parameter and enum value names: they become YAML keys and C identifiers.
bool IsIdentifier(const std::string& s) {
  return !s.empty() && !IsDigit(s[0]) && std::all_of(s.begin(), s.end(), [](char c) {
    return IsUpper(c) || IsLower(c) || IsDigit(c) || c == '_';
  });
}
// Constraint and defect ids end up in case ids ("scatter.same-dtype.…").
bool IsKebabId(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return IsLower(c) || IsDigit(c) || c == '-'; });
}

std::string_view SchemeName(LevelScheme s) {
  return s == LevelScheme::kDirectML ? "directml" : "openvino";
}
std::string_view RoleName(TensorRole r) {
  switch (r) {
    case TensorRole::kInput: return "input";
    case TensorRole::kOutput: return "output";
    case TensorRole::kScalarInput: return "scalar_input";
  }
  return "?";
}
std::string_view ParamTypeName(ParamType t) {
  switch (t) {
    case ParamType::kUInt32: return "uint32";
    case ParamType::kBool: return "bool";
    case ParamType::kEnum: return "enum";
  }
  return "?";
}

std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

struct KindInfo {
  std::string_view name;
  ConstraintKind kind;
  std::vector<std::string_view> fields;  // besides id, kind and text
  size_t min_tensors = 0, max_tensors = 0;  // max 0: no limit (or no `tensors` field)
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
      {"scatter_nd_updates_sizes", ConstraintKind::kScatterNDUpdatesSizes, {"tensors", "params"},
       3, 3},
  };
  return kKinds;
}

// Where each clean tensor entry of a support level sits, for superset errors.
struct LevelInfo {
  int index = -1;  // in the scheme's order; -1 when unknown
  bool clean = false;
  YamlField field;        // the level's map
  YamlField level_field;  // its `level:` value
  std::map<std::string, std::pair<YamlField, YamlField>> where;  // tensor -> (ranks, dtypes)
};

class SpecParser {
 public:
  SpecParser(YamlReader& reader, OperatorSpec& spec) : r_(reader), spec_(spec) {}
  void Parse(const YamlField& root);

 private:
  // Runs `parse`; true when it reported nothing.
  template <typename F>
  bool Clean(F&& parse) {
    const size_t before = r_.error_count();
    parse();
    return r_.error_count() == before;
  }

  std::optional<std::string> Name(const YamlField& f, std::string_view what, bool taken);
  std::optional<std::string> Id(const YamlField& f, std::string_view what, bool taken);
  std::optional<std::string> Level(const YamlField& f);
  const TensorSpec* KnownTensor(const YamlField& f, const std::string& name);
  void CheckUInt32Param(const YamlField& f, const std::string& name, std::string_view user);

  void ParseProvenance(const YamlField& f);
  void ParseParams(const YamlField& f);
  void ParseParam(const YamlField& f);
  void ParseTensors(const YamlField& f);
  void ParseConstraints(const YamlField& f);
  void ParseConstraint(const YamlField& f);
  void ParseConstraintTensors(const YamlField& f, const KindInfo& kind, Constraint& c);
  std::optional<Bound> ParseBound(const YamlField& f);
  std::vector<SupportLevel> ParseSupportTable(const YamlField& f);
  void ParseLevel(const YamlField& f, SupportLevel& level, LevelInfo& info);
  void ParseRanks(const YamlField& f, const TensorSpec* tensor, TensorSupport& support);
  void ParseDTypes(const YamlField& f, TensorSupport& support);
  void CompareLevels(const SupportLevel& before, const LevelInfo& before_info,
                     const SupportLevel& after, const LevelInfo& after_info);
  void ParseHistory(const YamlField& f);
  void ParseSemantics(const YamlField& f);
  void ParseAccuracy(const YamlField& f);

  YamlReader& r_;
  OperatorSpec& spec_;
  std::optional<LevelScheme> scheme_;  // unset when bad: level names are then not checked
  // Names are resolved only against a clean list, so one typo does not cascade.
  bool params_ok_ = false;
  bool tensors_ok_ = false;
};

std::optional<std::string> SpecParser::Name(const YamlField& f, std::string_view what,
                                            bool taken) {
  std::optional<std::string> s = r_.String(f);
  if (!s) return std::nullopt;
  if (!IsIdentifier(*s)) {
    r_.Error(f, std::string(what) + " name " + Quoted(*s) + " is not an identifier");
    return std::nullopt;
  }
  if (taken) r_.Error(f, "duplicate " + std::string(what) + " name " + Quoted(*s));
  return s;
}

std::optional<std::string> SpecParser::Id(const YamlField& f, std::string_view what,
                                          bool taken) {
  std::optional<std::string> s = r_.String(f);
  if (!s) return std::nullopt;
  if (!IsKebabId(*s)) {
    r_.Error(f, std::string(what) + " id " + Quoted(*s) +
                    " must be lower-case letters, digits and '-'");
    return std::nullopt;
  }
  if (taken) r_.Error(f, "duplicate " + std::string(what) + " id " + Quoted(*s));
  return s;
}

std::optional<std::string> SpecParser::Level(const YamlField& f) {
  std::optional<std::string> s = r_.String(f);
  if (s && scheme_ && LevelIndex(*scheme_, *s) < 0)
    r_.Error(f, "unknown level " + Quoted(*s) + " for scheme " + std::string(SchemeName(*scheme_)));
  return s;
}

const TensorSpec* SpecParser::KnownTensor(const YamlField& f, const std::string& name) {
  if (!tensors_ok_) return nullptr;
  const TensorSpec* t = spec_.FindTensor(name);
  if (!t) r_.Error(f, "unknown tensor " + Quoted(name));
  return t;
}

void SpecParser::CheckUInt32Param(const YamlField& f, const std::string& name,
                                  std::string_view user) {
  if (!params_ok_) return;
  const ParamSpec* p = spec_.FindParam(name);
  if (!p)
    r_.Error(f, "unknown parameter " + Quoted(name));
  else if (p->type != ParamType::kUInt32)
    r_.Error(f, std::string(user) + " needs a uint32 parameter; " + Quoted(name) + " is " +
                    std::string(ParamTypeName(p->type)));
}

void SpecParser::Parse(const YamlField& root) {
  YamlMap top(r_, root);
  if (!top.valid()) return;
  top.CheckKeys({"schema", "operator", "reference", "scheme", "introduced", "provenance",
                 "parameters", "tensors", "constraints", "support", "semantics", "accuracy"},
                {"history"});
  if (auto f = top.Get("schema")) {
    if (auto s = r_.String(*f); s && *s != kSchema)
      r_.Error(*f, "unsupported schema " + Quoted(*s) + " (expected " + std::string(kSchema) + ")");
  }
  if (auto f = top.Get("operator")) {
    if (auto s = r_.String(*f)) {
      spec_.name = *s;
      if (!IsIdentifier(*s) || std::any_of(s->begin(), s->end(), IsLower))
        r_.Error(*f, "operator name " + Quoted(*s) + " must be upper-case letters, digits and '_'");
    }
  }
  if (auto f = top.Get("reference")) {
    if (auto s = r_.String(*f)) {
      spec_.reference = *s;
      if (!IsIdentifier(*s) || std::any_of(s->begin(), s->end(), IsUpper))
        r_.Error(*f, "reference key " + Quoted(*s) + " must be lower-case letters, digits and '_'");
    }
  }
  if (auto f = top.Get("scheme")) {
    if (auto s = r_.OneOf(*f, "scheme", {"directml", "openvino"})) {
      scheme_ = *s == "directml" ? LevelScheme::kDirectML : LevelScheme::kOpenVINO;
      spec_.scheme = *scheme_;
    }
  }
  const std::optional<YamlField> introduced = top.Get("introduced");
  if (introduced) spec_.introduced = Level(*introduced).value_or("");
  if (auto f = top.Get("provenance")) ParseProvenance(*f);
  if (auto f = top.Get("parameters")) ParseParams(*f);
  if (auto f = top.Get("tensors")) ParseTensors(*f);
  if (auto f = top.Get("constraints")) ParseConstraints(*f);
  if (auto f = top.Get("support")) spec_.support = ParseSupportTable(*f);
  if (introduced && !spec_.introduced.empty() && !spec_.support.empty() &&
      !spec_.support[0].level.empty() && spec_.support[0].level != spec_.introduced)
    r_.Error(*introduced, "introduced " + Quoted(spec_.introduced) +
                              " differs from the first support level " +
                              Quoted(spec_.support[0].level));
  if (auto f = top.Get("history")) ParseHistory(*f);
  if (auto f = top.Get("semantics")) ParseSemantics(*f);
  if (auto f = top.Get("accuracy")) ParseAccuracy(*f);
}

void SpecParser::ParseProvenance(const YamlField& f) {
  YamlMap m(r_, f);
  m.CheckKeys({"document", "title", "revision", "defects"}, {});
  Provenance& p = spec_.provenance;
  if (auto v = m.Get("document")) p.document = r_.String(*v).value_or("");
  if (auto v = m.Get("title")) p.title = r_.String(*v).value_or("");
  if (auto v = m.Get("revision")) p.revision = r_.String(*v).value_or("");
  auto defects = m.Get("defects");
  if (!defects) return;
  for (const YamlField& item : r_.List(*defects).value_or(std::vector<YamlField>{})) {
    YamlMap d(r_, item);
    d.CheckKeys({"id", "text"}, {});
    Defect defect;
    if (auto v = d.Get("id")) {
      const bool taken = v->node.IsScalar() &&
                         std::any_of(p.defects.begin(), p.defects.end(),
                                     [&](const Defect& e) { return e.id == v->node.Scalar(); });
      defect.id = Id(*v, "defect", taken).value_or("");
    }
    if (auto v = d.Get("text")) defect.text = r_.String(*v).value_or("");
    p.defects.push_back(std::move(defect));
  }
}

void SpecParser::ParseParams(const YamlField& f) {
  params_ok_ = Clean([&] {
    for (const YamlField& item : r_.List(f).value_or(std::vector<YamlField>{})) ParseParam(item);
  });
}

void SpecParser::ParseParam(const YamlField& f) {
  YamlMap m(r_, f);
  if (!m.valid()) return;
  m.CheckKeys({"name", "type", "doc"}, {"values", "default"});
  ParamSpec p;
  if (auto v = m.Get("name")) {
    const bool taken = v->node.IsScalar() && spec_.FindParam(v->node.Scalar());
    p.name = Name(*v, "parameter", taken).value_or("");
  }
  std::optional<std::string> type;
  if (auto v = m.Get("type")) type = r_.OneOf(*v, "parameter type", {"uint32", "bool", "enum"});
  if (type) p.type = *type == "uint32" ? ParamType::kUInt32
                     : *type == "bool" ? ParamType::kBool
                                       : ParamType::kEnum;
  const std::optional<YamlField> values = m.Get("values");
  if (type == "enum" && !values) r_.Error(f, "missing required key 'values' (enum parameters)");
  if (type && type != "enum" && values) r_.Error(*values, "values are only for enum parameters");
  if (type == "enum" && values) {
    for (const YamlField& item : r_.List(*values).value_or(std::vector<YamlField>{})) {
      const std::optional<std::string> value = r_.String(item);
      if (!value) continue;
      if (!IsIdentifier(*value))
        r_.Error(item, "enum value " + Quoted(*value) + " is not an identifier");
      else if (std::count(p.enum_values.begin(), p.enum_values.end(), *value))
        r_.Error(item, "duplicate enum value " + Quoted(*value));
      else
        p.enum_values.push_back(*value);
    }
    if (values->node.IsSequence() && values->node.size() == 0)
      r_.Error(*values, "an enum needs at least one value");
  }
  if (auto v = m.Get("default"); v && type) {
    if (p.type == ParamType::kUInt32) {
      p.default_value = r_.Int(*v, 0, std::numeric_limits<uint32_t>::max());
    } else if (p.type == ParamType::kBool) {
      if (auto b = r_.Bool(*v)) p.default_value = *b ? 1 : 0;
    } else if (auto name = r_.String(*v); name && !p.enum_values.empty()) {
      const auto it = std::find(p.enum_values.begin(), p.enum_values.end(), *name);
      if (it == p.enum_values.end())
        r_.Error(*v, "default " + Quoted(*name) + " is not one of the values (" +
                         JoinNames(p.enum_values) + ")");
      else
        p.default_value = it - p.enum_values.begin();
    }
  }
  if (auto v = m.Get("doc")) p.doc = r_.String(*v).value_or("");
  spec_.params.push_back(std::move(p));
}

void SpecParser::ParseTensors(const YamlField& f) {
  std::vector<std::pair<size_t, YamlField>> aliases;  // checked once every tensor is known
  tensors_ok_ = Clean([&] {
    const std::optional<std::vector<YamlField>> items = r_.List(f);
    if (!items) return;
    for (const YamlField& item : *items) {
      YamlMap m(r_, item);
      if (!m.valid()) continue;
      m.CheckKeys({"name", "role", "doc"}, {"optional", "may_alias"});
      TensorSpec t;
      if (auto v = m.Get("name")) {
        const bool taken = v->node.IsScalar() && spec_.FindTensor(v->node.Scalar());
        t.name = Name(*v, "tensor", taken).value_or("");
      }
      std::optional<std::string> role;
      if (auto v = m.Get("role")) role = r_.OneOf(*v, "role", {"input", "output", "scalar_input"});
      if (role) t.role = *role == "input"    ? TensorRole::kInput
                         : *role == "output" ? TensorRole::kOutput
                                             : TensorRole::kScalarInput;
      if (auto v = m.Get("optional")) {
        t.optional = r_.Bool(*v).value_or(false);
        if (t.optional && role == "output") r_.Error(*v, "only inputs can be optional");
      }
      if (auto v = m.Get("may_alias")) {
        if (role && role != "output") r_.Error(*v, "may_alias is only for outputs");
        else if (auto s = r_.String(*v)) t.may_alias = *s, aliases.emplace_back(spec_.tensors.size(), *v);
      }
      if (auto v = m.Get("doc")) t.doc = r_.String(*v).value_or("");
      spec_.tensors.push_back(std::move(t));
    }
    for (const auto& [index, field] : aliases) {
      const std::string& target = spec_.tensors[index].may_alias;
      const TensorSpec* input = spec_.FindTensor(target);
      if (!input)
        r_.Error(field, "may_alias names unknown tensor " + Quoted(target));
      else if (input->role != TensorRole::kInput)
        r_.Error(field, "may_alias needs an input; " + Quoted(target) + " is " +
                            std::string(RoleName(input->role)));
    }
    if (std::none_of(spec_.tensors.begin(), spec_.tensors.end(),
                     [](const TensorSpec& t) { return t.role == TensorRole::kOutput; }))
      r_.Error(f, "no output tensor");
  });
}

void SpecParser::ParseConstraints(const YamlField& f) {
  for (const YamlField& item : r_.List(f).value_or(std::vector<YamlField>{}))
    ParseConstraint(item);
}

void SpecParser::ParseConstraint(const YamlField& f) {
  YamlMap m(r_, f);
  if (!m.valid()) return;
  const KindInfo* kind = nullptr;
  if (auto v = m.Get("kind")) {
    std::vector<std::string> names;
    for (const KindInfo& k : Kinds()) names.emplace_back(k.name);
    if (auto s = r_.OneOf(*v, "constraint kind", names))
      kind = &*std::find_if(Kinds().begin(), Kinds().end(),
                            [&](const KindInfo& k) { return k.name == *s; });
  }
  std::vector<std::string_view> required = {"id", "kind", "text"};
  if (kind) {
    required.insert(required.end(), kind->fields.begin(), kind->fields.end());
    m.CheckKeys(required, {}, "kind " + std::string(kind->name));
  } else {
    // An unknown kind: tolerate any kind's fields, still catch typos.
    m.CheckKeys(required, {"tensors", "param", "params", "min", "max"});
  }
  Constraint c;
  c.where = SourceLocation{spec_.file, f.line};
  if (auto v = m.Get("id")) {
    const bool taken = v->node.IsScalar() &&
                       std::any_of(spec_.constraints.begin(), spec_.constraints.end(),
                                   [&](const Constraint& o) { return o.id == v->node.Scalar(); });
    c.id = Id(*v, "constraint", taken).value_or("");
  }
  if (auto v = m.Get("text")) c.text = r_.String(*v).value_or("");
  if (kind) {
    c.kind = kind->kind;
    const std::string user = "kind " + std::string(kind->name);
    if (auto v = m.Get("tensors"); v && kind->min_tensors > 0)
      ParseConstraintTensors(*v, *kind, c);
    if (auto v = m.Get("param");
        v && std::count(kind->fields.begin(), kind->fields.end(), "param")) {
      if (auto s = r_.String(*v)) c.param = *s, CheckUInt32Param(*v, *s, user);
    }
    if (auto v = m.Get("params"); v && kind->kind == ConstraintKind::kScatterNDUpdatesSizes) {
      const std::optional<std::vector<YamlField>> items = r_.List(*v);
      if (items && items->size() != 2)
        r_.Error(*v, user + " needs exactly 2 params, got " + std::to_string(items->size()));
      for (const YamlField& item : items.value_or(std::vector<YamlField>{})) {
        if (auto s = r_.String(item)) c.params.push_back(*s), CheckUInt32Param(item, *s, user);
      }
    }
    const bool bounded = std::count(kind->fields.begin(), kind->fields.end(), "min") > 0;
    if (auto v = m.Get("min"); v && bounded) c.min = ParseBound(*v);
    if (auto v = m.Get("max"); v && bounded) {
      c.max = ParseBound(*v);
      if (c.min && c.max && c.min->kind == Bound::Kind::kConstant &&
          c.max->kind == Bound::Kind::kConstant && c.min->plus > c.max->plus)
        r_.Error(*v, "min " + std::to_string(c.min->plus) + " is greater than max " +
                         std::to_string(c.max->plus));
    }
  }
  spec_.constraints.push_back(std::move(c));
}

void SpecParser::ParseConstraintTensors(const YamlField& f, const KindInfo& kind, Constraint& c) {
  const std::optional<std::vector<YamlField>> items = r_.List(f);
  if (!items) return;
  const std::string user = "kind " + std::string(kind.name);
  const size_t n = items->size();
  if (kind.max_tensors == kind.min_tensors && n != kind.min_tensors)
    r_.Error(f, user + " needs exactly " + std::to_string(kind.min_tensors) +
                    (kind.min_tensors == 1 ? " tensor" : " tensors") + ", got " +
                    std::to_string(n));
  else if (n < kind.min_tensors)
    r_.Error(f, user + " needs at least " + std::to_string(kind.min_tensors) + " tensors, got " +
                    std::to_string(n));
  for (const YamlField& item : *items) {
    const std::optional<std::string> name = r_.String(item);
    if (!name) continue;
    if (std::count(c.tensors.begin(), c.tensors.end(), *name)) {
      r_.Error(item, "tensor " + Quoted(*name) + " is listed twice");
      continue;
    }
    c.tensors.push_back(*name);
    const TensorSpec* t = KnownTensor(item, *name);
    if (!t) continue;
    const bool scalar = t->role == TensorRole::kScalarInput;
    if (kind.kind == ConstraintKind::kScalarValueRange && !scalar)
      r_.Error(item, user + " needs a scalar_input tensor; " + Quoted(*name) + " is " +
                         std::string(RoleName(t->role)));
    if ((kind.kind == ConstraintKind::kLeadingOnes || kind.kind == ConstraintKind::kLastDimRange) &&
        scalar)
      r_.Error(item, user + " needs a tensor with dimensions; " + Quoted(*name) +
                         " is a scalar_input");
  }
}

std::optional<Bound> SpecParser::ParseBound(const YamlField& f) {
  Bound b;
  if (f.node.IsScalar()) {
    const std::optional<int64_t> v = r_.Int(f, std::numeric_limits<int64_t>::min(),
                                            std::numeric_limits<int64_t>::max());
    if (!v) return std::nullopt;
    b.plus = *v;
    return b;
  }
  if (!f.node.IsMap()) {
    r_.Error(f, "expected an integer or a {rank_of | param, scale, plus} map, got " +
                    DescribeNode(f.node));
    return std::nullopt;
  }
  const bool ok = Clean([&] {
    YamlMap m(r_, f);
    m.CheckKeys({}, {"rank_of", "param", "scale", "plus"});
    const std::optional<YamlField> rank_of = m.Get("rank_of"), param = m.Get("param");
    if (rank_of.has_value() == param.has_value())
      r_.Error(f, "a bound needs exactly one of rank_of and param");
    if (rank_of) {
      b.kind = Bound::Kind::kRankOf;
      if (auto s = r_.String(*rank_of)) b.name = *s, KnownTensor(*rank_of, *s);
    } else if (param) {
      b.kind = Bound::Kind::kParam;
      if (auto s = r_.String(*param)) b.name = *s, CheckUInt32Param(*param, *s, "a bound");
    }
    constexpr int64_t kLimit = std::numeric_limits<int32_t>::max();
    if (auto v = m.Get("scale")) b.scale = r_.Int(*v, -kLimit, kLimit).value_or(1);
    if (auto v = m.Get("plus")) b.plus = r_.Int(*v, -kLimit, kLimit).value_or(0);
  });
  if (!ok) return std::nullopt;
  return b;
}

std::vector<SupportLevel> SpecParser::ParseSupportTable(const YamlField& f) {
  std::vector<SupportLevel> levels;
  const std::optional<std::vector<YamlField>> items = r_.List(f);
  if (!items) return levels;
  if (items->empty()) r_.Error(f, "a support table needs at least one level");
  std::vector<LevelInfo> infos;
  int previous = -1;  // the last level that kept the order, which the next one must extend
  for (const YamlField& item : *items) {
    SupportLevel level;
    LevelInfo info;
    info.field = info.level_field = item;
    level.where = SourceLocation{spec_.file, item.line};
    info.clean = Clean([&] { ParseLevel(item, level, info); });
    bool ordered = info.index >= 0;
    if (ordered && previous >= 0) {
      const SupportLevel& before = levels[previous];
      const int before_index = infos[previous].index;
      if (info.index == before_index) {
        r_.Error(info.level_field, "duplicate level " + Quoted(level.level) +
                                       " (its table overlaps the one before)");
        ordered = false;
      } else if (info.index < before_index) {
        r_.Error(info.level_field, "level " + Quoted(level.level) + " after " +
                                       Quoted(before.level) +
                                       " is non-monotonic (levels must ascend)");
        ordered = false;
      } else {
        CompareLevels(before, infos[previous], level, info);
      }
    }
    levels.push_back(std::move(level));
    infos.push_back(std::move(info));
    if (ordered) previous = static_cast<int>(levels.size()) - 1;
  }
  return levels;
}

void SpecParser::ParseLevel(const YamlField& f, SupportLevel& level, LevelInfo& info) {
  YamlMap m(r_, f);
  if (!m.valid()) return;
  m.CheckKeys({"level", "tensors"}, {});
  if (auto v = m.Get("level")) {
    info.level_field = *v;
    level.level = Level(*v).value_or("");
    if (scheme_) info.index = LevelIndex(*scheme_, level.level);
  }
  const std::optional<YamlField> tensors = m.Get("tensors");
  if (!tensors) return;
  YamlMap table(r_, *tensors);
  if (!table.valid()) return;
  for (const YamlMap::Entry& e : table.entries()) {
    const std::string& name = e.key.node.Scalar();
    const bool clean = Clean([&] {
      const TensorSpec* tensor = KnownTensor(e.key, name);
      YamlMap entry(r_, e.value);
      entry.CheckKeys({"ranks", "dtypes"}, {});
      TensorSupport support;
      auto ranks = entry.Get("ranks"), dtypes = entry.Get("dtypes");
      if (ranks) ParseRanks(*ranks, tensor, support);
      if (dtypes) ParseDTypes(*dtypes, support);
      if (ranks && dtypes) level.tensors[name] = std::move(support), info.where[name] = {*ranks, *dtypes};
    });
    if (!clean) level.tensors.erase(name), info.where.erase(name);
  }
  if (!tensors_ok_) return;
  for (const TensorSpec& t : spec_.tensors)
    if (!table.Has(t.name)) r_.Error(*tensors, "missing tensor " + Quoted(t.name));
}

void SpecParser::ParseRanks(const YamlField& f, const TensorSpec* tensor, TensorSupport& support) {
  const std::optional<std::vector<YamlField>> items = r_.List(f);
  if (!items) return;
  if (items->size() != 2) {
    r_.Error(f, "ranks must be [min, max], got " + std::to_string(items->size()) + " values");
    return;
  }
  const std::optional<int64_t> lo = r_.Int((*items)[0], 0, kMaxRank);
  const std::optional<int64_t> hi = r_.Int((*items)[1], 0, kMaxRank);
  if (!lo || !hi) return;
  if (*lo > *hi) {
    r_.Error(f, "min rank " + std::to_string(*lo) + " is greater than max rank " +
                    std::to_string(*hi));
    return;
  }
  support.min_rank = static_cast<unsigned>(*lo);
  support.max_rank = static_cast<unsigned>(*hi);
  if (!tensor) return;
  const bool scalar = tensor->role == TensorRole::kScalarInput;
  if (scalar && *hi != 0) r_.Error(f, "a scalar_input tensor has ranks [0, 0]");
  if (!scalar && *lo == 0) r_.Error(f, "rank 0 is only for scalar_input tensors");
}

void SpecParser::ParseDTypes(const YamlField& f, TensorSupport& support) {
  const std::optional<std::vector<YamlField>> items = r_.List(f);
  if (!items) return;
  if (items->empty()) r_.Error(f, "needs at least one data type");
  for (const YamlField& item : *items) {
    const std::optional<std::string> name = r_.String(item);
    if (!name) continue;
    const std::optional<DType> d = ParseDType(*name);
    if (!d)
      r_.Error(item, "unknown data type " + Quoted(*name));
    else if (std::count(support.dtypes.begin(), support.dtypes.end(), *d))
      r_.Error(item, "data type " + Quoted(*name) + " repeated");
    else
      support.dtypes.push_back(*d);
  }
}

void SpecParser::CompareLevels(const SupportLevel& before, const LevelInfo& before_info,
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
      r_.Error(ranks_field, not_superset + "ranks [" + std::to_string(now.min_rank) + ", " +
                                std::to_string(now.max_rank) + "] do not contain [" +
                                std::to_string(was.min_rank) + ", " +
                                std::to_string(was.max_rank) + "]");
    } else if (now.min_rank < was.min_rank || now.max_rank > was.max_rank) {
      grows = true;
    }
    std::vector<std::string> dropped;
    for (DType d : was.dtypes)
      if (!std::count(now.dtypes.begin(), now.dtypes.end(), d))
        dropped.emplace_back(DTypeName(d));
    if (!dropped.empty()) {
      shrinks = true;
      r_.Error(dtypes_field, not_superset + "drops " + JoinNames(dropped));
    } else if (now.dtypes.size() > was.dtypes.size()) {
      grows = true;
    }
  }
  if (!grows && !shrinks && before_info.clean && after_info.clean)
    r_.Error(after_info.field,
             "level " + Quoted(after.level) + " adds nothing over " + Quoted(before.level));
}

void SpecParser::ParseHistory(const YamlField& f) {
  for (const YamlField& item : r_.List(f).value_or(std::vector<YamlField>{})) {
    YamlMap m(r_, item);
    if (!m.valid()) continue;
    m.CheckKeys({"revision", "document", "superseded_by", "support"}, {});
    SupportHistory h;
    if (auto v = m.Get("revision")) h.revision = r_.String(*v).value_or("");
    if (auto v = m.Get("document")) h.document = r_.String(*v).value_or("");
    if (auto v = m.Get("superseded_by")) h.superseded_by = r_.String(*v).value_or("");
    if (auto v = m.Get("support")) h.levels = ParseSupportTable(*v);
    spec_.history.push_back(std::move(h));
  }
}

void SpecParser::ParseSemantics(const YamlField& f) {
  YamlMap m(r_, f);
  m.CheckKeys({"in_place"}, {"duplicate_indices", "negative_indices", "out_of_range_indices",
                             "unsigned_overflow", "signed_overflow"});
  Semantics& s = spec_.semantics;
  if (auto v = m.Get("in_place")) {
    if (std::optional<bool> in_place = r_.Bool(*v)) {
      s.in_place = *in_place;
      const auto aliased = std::find_if(spec_.tensors.begin(), spec_.tensors.end(),
                                        [](const TensorSpec& t) { return !t.may_alias.empty(); });
      if (tensors_ok_ && s.in_place && aliased == spec_.tensors.end())
        r_.Error(*v, "in_place is true but no output has may_alias");
      if (tensors_ok_ && !s.in_place && aliased != spec_.tensors.end())
        r_.Error(*v, "in_place is false but " + Quoted(aliased->name) + " has may_alias");
    }
  }
  if (auto v = m.Get("duplicate_indices"))
    s.duplicate_indices_any_candidate = r_.OneOf(*v, "duplicate_indices", {"any_candidate"}).has_value();
  if (auto v = m.Get("negative_indices")) {
    YamlMap n(r_, *v);
    n.CheckKeys({"from_level", "index_types"}, {});
    if (auto l = n.Get("from_level")) s.negative_indices_from_level = Level(*l).value_or("");
    if (auto t = n.Get("index_types")) r_.OneOf(*t, "index_types", {"signed"});
  }
  if (auto v = m.Get("out_of_range_indices"))
    s.out_of_range_indices_memory_safe_only =
        r_.OneOf(*v, "out_of_range_indices", {"memory_safe_only"}).has_value();
  if (auto v = m.Get("unsigned_overflow")) r_.OneOf(*v, "unsigned_overflow", {"wrap"});
  if (auto v = m.Get("signed_overflow")) r_.OneOf(*v, "signed_overflow", {"unconstrained"});
}

void SpecParser::ParseAccuracy(const YamlField& f) {
  YamlMap m(r_, f);
  m.CheckKeys({"model", "doc"}, {});
  if (auto v = m.Get("model")) {
    if (auto s = r_.OneOf(*v, "accuracy model", {"running_sum", "running_product", "bit_exact"}))
      spec_.accuracy.model = *s == "running_sum"       ? AccuracyModel::kRunningSum
                             : *s == "running_product" ? AccuracyModel::kRunningProduct
                                                       : AccuracyModel::kBitExact;
  }
  if (auto v = m.Get("doc")) spec_.accuracy.doc = r_.String(*v).value_or("");
}

}  // namespace

void ParseSpec(YamlReader& reader, const YamlField& root, OperatorSpec& spec) {
  SpecParser(reader, spec).Parse(root);
}

}  // namespace opcts
