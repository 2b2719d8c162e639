#include "spec/spec_parser.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "spec/spec_loader.h"
#include "spec/spec_parser_internal.h"

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

std::string_view ParamTypeName(ParamType t) {
  switch (t) {
    case ParamType::kUInt32:
      return "uint32";
    case ParamType::kBool:
      return "bool";
    case ParamType::kEnum:
      return "enum";
  }
  return "?";
}

}  // namespace

std::string Quoted(std::string_view s) {
  std::string quoted = "'";
  quoted += s;
  quoted += '\'';
  return quoted;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string_view RoleName(TensorRole r) {
  switch (r) {
    case TensorRole::kInput:
      return "input";
    case TensorRole::kOutput:
      return "output";
    case TensorRole::kScalarInput:
      return "scalar_input";
  }
  return "?";
}

std::optional<std::string> SchemaContext::Name(const YamlField& f, std::string_view what,
                                               bool taken) {
  std::optional<std::string> s = reader.String(f);
  if (!s) return std::nullopt;
  if (!IsIdentifier(*s)) {
    reader.Error(f, std::string(what) + " name " + Quoted(*s) + " is not an identifier");
    return std::nullopt;
  }
  if (taken) reader.Error(f, "duplicate " + std::string(what) + " name " + Quoted(*s));
  return s;
}

std::optional<std::string> SchemaContext::Id(const YamlField& f, std::string_view what,
                                             bool taken) {
  std::optional<std::string> s = reader.String(f);
  if (!s) return std::nullopt;
  if (!IsKebabId(*s)) {
    reader.Error(
        f, std::string(what) + " id " + Quoted(*s) + " must be lower-case letters, digits and '-'");
    return std::nullopt;
  }
  if (taken) reader.Error(f, "duplicate " + std::string(what) + " id " + Quoted(*s));
  return s;
}

std::optional<std::string> SchemaContext::Level(const YamlField& f) {
  std::optional<std::string> s = reader.String(f);
  if (s && scheme && LevelIndex(*scheme, *s) < 0)
    reader.Error(f,
                 "unknown level " + Quoted(*s) + " for scheme " + std::string(SchemeName(*scheme)));
  return s;
}

const TensorSpec* SchemaContext::KnownTensor(const YamlField& f, const std::string& name) {
  if (!tensors_ok) return nullptr;
  const TensorSpec* t = spec.FindTensor(name);
  if (!t) reader.Error(f, "unknown tensor " + Quoted(name));
  return t;
}

void SchemaContext::CheckUInt32Param(const YamlField& f, const std::string& name,
                                     std::string_view user) {
  if (!params_ok) return;
  const ParamSpec* p = spec.FindParam(name);
  if (!p)
    reader.Error(f, "unknown parameter " + Quoted(name));
  else if (p->type != ParamType::kUInt32)
    reader.Error(f, std::string(user) + " needs a uint32 parameter; " + Quoted(name) + " is " +
                        std::string(ParamTypeName(p->type)));
}

namespace {

void ParsePlatformDocuments(SchemaContext& ctx, const YamlField& f) {
  std::vector<PlatformDocument>& documents = ctx.spec.provenance.platform_documents;
  for (const YamlField& item : ctx.reader.List(f).value_or(std::vector<YamlField>{})) {
    YamlMap m(ctx.reader, item);
    m.CheckKeys({"id", "title", "url", "text"}, {});
    PlatformDocument document;
    if (auto v = m.Get("id")) {
      const bool taken = v->node.IsScalar() && ctx.spec.FindPlatformDocument(v->node.Scalar());
      document.id = ctx.Id(*v, "platform document", taken).value_or("");
    }
    if (auto v = m.Get("title")) document.title = ctx.reader.String(*v).value_or("");
    if (auto v = m.Get("url")) document.url = ctx.reader.String(*v).value_or("");
    if (auto v = m.Get("text")) document.text = ctx.reader.String(*v).value_or("");
    documents.push_back(std::move(document));
  }
}

void ParseProvenance(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  m.CheckKeys({"document", "title", "revision", "defects"}, {"platform_documents"});
  Provenance& p = ctx.spec.provenance;
  if (auto v = m.Get("document")) p.document = ctx.reader.String(*v).value_or("");
  if (auto v = m.Get("title")) p.title = ctx.reader.String(*v).value_or("");
  if (auto v = m.Get("revision")) p.revision = ctx.reader.String(*v).value_or("");
  if (auto v = m.Get("platform_documents")) ParsePlatformDocuments(ctx, *v);
  auto defects = m.Get("defects");
  if (!defects) return;
  for (const YamlField& item : ctx.reader.List(*defects).value_or(std::vector<YamlField>{})) {
    YamlMap d(ctx.reader, item);
    d.CheckKeys({"id", "text"}, {});
    Defect defect;
    if (auto v = d.Get("id")) {
      const bool taken = v->node.IsScalar() &&
                         std::any_of(p.defects.begin(), p.defects.end(),
                                     [&](const Defect& e) { return e.id == v->node.Scalar(); });
      defect.id = ctx.Id(*v, "defect", taken).value_or("");
    }
    if (auto v = d.Get("text")) defect.text = ctx.reader.String(*v).value_or("");
    p.defects.push_back(std::move(defect));
  }
}

// A float rule's dtype into `dtype`: false (reported) unless it is a float dtype without a rule
// yet.
bool ParseFloatRuleDType(SchemaContext& ctx, const YamlField& f, DType& dtype) {
  const std::optional<std::string> name = ctx.reader.String(f);
  if (!name) return false;
  const std::optional<DType> parsed = ParseDType(*name);
  if (!parsed) {
    ctx.reader.Error(f, "unknown data type " + Quoted(*name));
    return false;
  }
  if (!IsFloat(*parsed)) {
    ctx.reader.Error(f, "float rules are for float data types; " + Quoted(*name) + " is not one");
    return false;
  }
  if (std::any_of(ctx.spec.float_rules.begin(), ctx.spec.float_rules.end(),
                  [&](const FloatRule& r) { return r.dtype == *parsed; })) {
    ctx.reader.Error(f, "data type " + Quoted(*name) + " already has its rules");
    return false;
  }
  dtype = *parsed;
  return true;
}

// One `float_rules` entry: a float dtype, what its platform lets arithmetic do, and the
// platform document (provenance.platform_documents) that says so.
void ParseFloatRule(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  if (!m.valid()) return;
  m.CheckKeys({"dtype", "source"}, {"subnormals", "rounding"});
  FloatRule rule;
  const std::optional<YamlField> dtype = m.Get("dtype");
  const bool known_dtype = dtype && ParseFloatRuleDType(ctx, *dtype, rule.dtype);
  const bool clean = ctx.Clean([&] {
    if (auto v = m.Get("subnormals"))
      rule.flush_subnormals =
          ctx.reader.OneOf(*v, "subnormals", {"preserve", "flush_to_signed_zero"}) ==
          "flush_to_signed_zero";
    if (auto v = m.Get("rounding"))
      rule.truncate = ctx.reader.OneOf(*v, "rounding", {"nearest", "nearest_or_toward_zero"}) ==
                      "nearest_or_toward_zero";
  });
  if (clean && !rule.flush_subnormals && !rule.truncate)
    ctx.reader.Error(f,
                     "the rule allows nothing beyond IEEE 754 (subnormals: preserve, rounding: "
                     "nearest); leave its dtype out instead");
  if (auto v = m.Get("source")) {
    rule.source = ctx.reader.String(*v).value_or("");
    if (!rule.source.empty() && !ctx.spec.FindPlatformDocument(rule.source)) {
      std::vector<std::string> ids;
      ids.reserve(ctx.spec.provenance.platform_documents.size());
      for (const PlatformDocument& d : ctx.spec.provenance.platform_documents) ids.push_back(d.id);
      ctx.reader.Error(
          *v, "unknown platform document " + Quoted(rule.source) +
                  (ids.empty() ? " (provenance.platform_documents lists none)"
                               : " (provenance.platform_documents has " + JoinNames(ids) + ")"));
    }
  }
  if (known_dtype) ctx.spec.float_rules.push_back(std::move(rule));
}

bool ParseParam(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  if (!m.valid()) return false;
  m.CheckKeys({"name", "type", "doc"}, {"values", "default"});
  ParamSpec p;
  if (auto v = m.Get("name")) {
    const bool taken = v->node.IsScalar() && ctx.spec.FindParam(v->node.Scalar());
    p.name = ctx.Name(*v, "parameter", taken).value_or("");
  }
  std::optional<std::string> type;
  if (auto v = m.Get("type"))
    type = ctx.reader.OneOf(*v, "parameter type", {"uint32", "bool", "enum"});
  if (type)
    p.type = *type == "uint32" ? ParamType::kUInt32
             : *type == "bool" ? ParamType::kBool
                               : ParamType::kEnum;
  const std::optional<YamlField> values = m.Get("values");
  if (type == "enum" && !values)
    ctx.reader.Error(f, "missing required key 'values' (enum parameters)");
  if (type && type != "enum" && values)
    ctx.reader.Error(*values, "values are only for enum parameters");
  if (type == "enum" && values) {
    for (const YamlField& item : ctx.reader.List(*values).value_or(std::vector<YamlField>{})) {
      const std::optional<std::string> value = ctx.reader.String(item);
      if (!value) continue;
      if (!IsIdentifier(*value))
        ctx.reader.Error(item, "enum value " + Quoted(*value) + " is not an identifier");
      else if (std::count(p.enum_values.begin(), p.enum_values.end(), *value))
        ctx.reader.Error(item, "duplicate enum value " + Quoted(*value));
      else
        p.enum_values.push_back(*value);
    }
    if (values->node.IsSequence() && values->node.size() == 0)
      ctx.reader.Error(*values, "an enum needs at least one value");
  }
  if (auto v = m.Get("default"); v && type) {
    if (p.type == ParamType::kUInt32) {
      p.default_value = ctx.reader.Int(*v, 0, std::numeric_limits<uint32_t>::max());
    } else if (p.type == ParamType::kBool) {
      if (auto b = ctx.reader.Bool(*v)) p.default_value = *b ? 1 : 0;
    } else if (auto name = ctx.reader.String(*v); name && !p.enum_values.empty()) {
      const auto it = std::find(p.enum_values.begin(), p.enum_values.end(), *name);
      if (it == p.enum_values.end())
        ctx.reader.Error(*v, "default " + Quoted(*name) + " is not one of the values (" +
                                 JoinNames(p.enum_values) + ")");
      else
        p.default_value = it - p.enum_values.begin();
    }
  }
  if (auto v = m.Get("doc")) p.doc = ctx.reader.String(*v).value_or("");
  const bool usable = !p.name.empty() && type && !ctx.spec.FindParam(p.name);
  ctx.spec.params.push_back(std::move(p));
  return usable;
}

void ParseParams(SchemaContext& ctx, const YamlField& f) {
  const std::optional<std::vector<YamlField>> items = ctx.reader.List(f);
  ctx.params_ok = items.has_value();
  for (const YamlField& item : items.value_or(std::vector<YamlField>{}))
    ctx.params_ok &= ParseParam(ctx, item);
}

void ParseTensors(SchemaContext& ctx, const YamlField& f) {
  const std::optional<std::vector<YamlField>> items = ctx.reader.List(f);
  if (!items) return;
  std::vector<std::pair<size_t, YamlField>> aliases;  // checked once every tensor is known
  bool usable = true;
  for (const YamlField& item : *items) {
    YamlMap m(ctx.reader, item);
    if (!m.valid()) {
      usable = false;
      continue;
    }
    m.CheckKeys({"name", "role", "doc"}, {"optional", "may_alias"});
    TensorSpec t;
    if (auto v = m.Get("name")) {
      const bool taken = v->node.IsScalar() && ctx.spec.FindTensor(v->node.Scalar());
      t.name = ctx.Name(*v, "tensor", taken).value_or("");
    }
    std::optional<std::string> role;
    if (auto v = m.Get("role"))
      role = ctx.reader.OneOf(*v, "role", {"input", "output", "scalar_input"});
    if (role)
      t.role = *role == "input"    ? TensorRole::kInput
               : *role == "output" ? TensorRole::kOutput
                                   : TensorRole::kScalarInput;
    if (auto v = m.Get("optional")) {
      t.optional = ctx.reader.Bool(*v).value_or(false);
      if (t.optional && role == "output") ctx.reader.Error(*v, "only inputs can be optional");
    }
    if (auto v = m.Get("may_alias")) {
      if (role && role != "output") {
        ctx.reader.Error(*v, "may_alias is only for outputs");
      } else if (auto s = ctx.reader.String(*v)) {
        t.may_alias = *s;
        aliases.emplace_back(ctx.spec.tensors.size(), *v);
      }
    }
    if (auto v = m.Get("doc")) t.doc = ctx.reader.String(*v).value_or("");
    usable &= !t.name.empty() && role && !ctx.spec.FindTensor(t.name);
    ctx.spec.tensors.push_back(std::move(t));
  }
  ctx.tensors_ok = usable;
  if (!usable) return;
  for (const auto& [index, field] : aliases) {
    const std::string& target = ctx.spec.tensors[index].may_alias;
    const TensorSpec* input = ctx.spec.FindTensor(target);
    if (!input)
      ctx.reader.Error(field, "may_alias names unknown tensor " + Quoted(target));
    else if (input->role != TensorRole::kInput)
      ctx.reader.Error(field, "may_alias needs an input; " + Quoted(target) + " is " +
                                  std::string(RoleName(input->role)));
  }
  if (std::none_of(ctx.spec.tensors.begin(), ctx.spec.tensors.end(),
                   [](const TensorSpec& t) { return t.role == TensorRole::kOutput; }))
    ctx.reader.Error(f, "no output tensor");
}

void ParseHistory(SchemaContext& ctx, const YamlField& f) {
  for (const YamlField& item : ctx.reader.List(f).value_or(std::vector<YamlField>{})) {
    YamlMap m(ctx.reader, item);
    if (!m.valid()) continue;
    m.CheckKeys({"revision", "document", "superseded_by", "support"}, {});
    SupportHistory h;
    if (auto v = m.Get("revision")) h.revision = ctx.reader.String(*v).value_or("");
    if (auto v = m.Get("document")) h.document = ctx.reader.String(*v).value_or("");
    if (auto v = m.Get("superseded_by")) h.superseded_by = ctx.reader.String(*v).value_or("");
    if (auto v = m.Get("support")) h.levels = ParseSupportTable(ctx, *v);
    ctx.spec.history.push_back(std::move(h));
  }
}

void ParseSemantics(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  m.CheckKeys({"in_place"}, {"duplicate_indices", "negative_indices", "out_of_range_indices",
                             "unsigned_overflow", "signed_overflow"});
  Semantics& s = ctx.spec.semantics;
  if (auto v = m.Get("in_place")) {
    if (std::optional<bool> in_place = ctx.reader.Bool(*v)) {
      s.in_place = *in_place;
      const auto aliased = std::find_if(ctx.spec.tensors.begin(), ctx.spec.tensors.end(),
                                        [](const TensorSpec& t) { return !t.may_alias.empty(); });
      if (ctx.tensors_ok && s.in_place && aliased == ctx.spec.tensors.end())
        ctx.reader.Error(*v, "in_place is true but no output has may_alias");
      if (ctx.tensors_ok && !s.in_place && aliased != ctx.spec.tensors.end())
        ctx.reader.Error(*v, "in_place is false but " + Quoted(aliased->name) + " has may_alias");
    }
  }
  if (auto v = m.Get("duplicate_indices"))
    s.duplicate_indices_any_candidate =
        ctx.reader.OneOf(*v, "duplicate_indices", {"any_candidate"}).has_value();
  if (auto v = m.Get("negative_indices")) {
    YamlMap n(ctx.reader, *v);
    n.CheckKeys({"from_level", "index_types"}, {});
    if (auto l = n.Get("from_level")) s.negative_indices_from_level = ctx.Level(*l).value_or("");
    if (auto t = n.Get("index_types")) ctx.reader.OneOf(*t, "index_types", {"signed"});
  }
  if (auto v = m.Get("out_of_range_indices"))
    s.out_of_range_indices_memory_safe_only =
        ctx.reader.OneOf(*v, "out_of_range_indices", {"memory_safe_only"}).has_value();
  if (auto v = m.Get("unsigned_overflow")) ctx.reader.OneOf(*v, "unsigned_overflow", {"wrap"});
  if (auto v = m.Get("signed_overflow")) ctx.reader.OneOf(*v, "signed_overflow", {"unconstrained"});
}

void ParseAccuracy(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  m.CheckKeys({"model", "doc"}, {});
  if (auto v = m.Get("model")) {
    if (auto s =
            ctx.reader.OneOf(*v, "accuracy model", {"running_sum", "running_product", "bit_exact"}))
      ctx.spec.accuracy.model = *s == "running_sum"       ? AccuracyModel::kRunningSum
                                : *s == "running_product" ? AccuracyModel::kRunningProduct
                                                          : AccuracyModel::kBitExact;
  }
  if (auto v = m.Get("doc")) ctx.spec.accuracy.doc = ctx.reader.String(*v).value_or("");
}

void Parse(SchemaContext& ctx, const YamlField& root) {
  YamlMap top(ctx.reader, root);
  if (!top.valid()) return;
  // `family` and `abi` are required of a spec set (CheckSpecSet), not of a lone file.
  top.CheckKeys({"schema", "operator", "reference", "scheme", "introduced", "provenance",
                 "parameters", "tensors", "constraints", "support", "semantics", "accuracy"},
                {"history", "family", "abi", "float_rules"});
  if (auto f = top.Get("schema")) {
    if (auto s = ctx.reader.String(*f); s && *s != kSchema)
      ctx.reader.Error(
          *f, "unsupported schema " + Quoted(*s) + " (expected " + std::string(kSchema) + ")");
  }
  if (auto f = top.Get("operator")) {
    if (auto s = ctx.reader.String(*f)) {
      ctx.spec.name = *s;
      if (!IsIdentifier(*s) || std::any_of(s->begin(), s->end(), IsLower))
        ctx.reader.Error(
            *f, "operator name " + Quoted(*s) + " must be upper-case letters, digits and '_'");
    }
  }
  if (auto f = top.Get("reference")) {
    if (auto s = ctx.reader.String(*f)) {
      ctx.spec.reference = *s;
      if (!IsIdentifier(*s) || std::any_of(s->begin(), s->end(), IsUpper))
        ctx.reader.Error(
            *f, "reference key " + Quoted(*s) + " must be lower-case letters, digits and '_'");
    }
  }
  if (auto f = top.Get("scheme")) {
    if (auto s = ctx.reader.OneOf(*f, "scheme", {"directml", "openvino", "onnx"})) {
      for (LevelScheme scheme :
           {LevelScheme::kDirectML, LevelScheme::kOpenVINO, LevelScheme::kONNX})
        if (*s == SchemeName(scheme)) ctx.scheme = scheme;
      ctx.spec.scheme = *ctx.scheme;
    }
  }
  const std::optional<YamlField> introduced = top.Get("introduced");
  if (introduced) ctx.spec.introduced = ctx.Level(*introduced).value_or("");
  if (auto f = top.Get("provenance")) ParseProvenance(ctx, *f);
  if (auto f = top.Get("parameters")) ParseParams(ctx, *f);
  if (auto f = top.Get("tensors")) ParseTensors(ctx, *f);
  if (auto f = top.Get("constraints")) ParseConstraints(ctx, *f);
  if (auto f = top.Get("support")) ctx.spec.support = ParseSupportTable(ctx, *f);
  if (introduced && !ctx.spec.introduced.empty() && !ctx.spec.support.empty() &&
      !ctx.spec.support[0].level.empty() && ctx.spec.support[0].level != ctx.spec.introduced)
    ctx.reader.Error(*introduced, "introduced " + Quoted(ctx.spec.introduced) +
                                      " differs from the first support level " +
                                      Quoted(ctx.spec.support[0].level));
  if (auto f = top.Get("history")) ParseHistory(ctx, *f);
  if (auto f = top.Get("semantics")) ParseSemantics(ctx, *f);
  if (auto f = top.Get("accuracy")) ParseAccuracy(ctx, *f);
  if (auto f = top.Get("float_rules")) {  // after provenance: a rule cites a platform document
    for (const YamlField& item : ctx.reader.List(*f).value_or(std::vector<YamlField>{}))
      ParseFloatRule(ctx, item);
  }
  if (auto f = top.Get("family")) ParseFamily(ctx, *f);  // after accuracy: a scan combines by it
  if (auto f = top.Get("abi")) ParseAbi(ctx, *f);
}

}  // namespace

void ParseSpec(YamlReader& reader, const YamlField& root, OperatorSpec& spec) {
  SchemaContext ctx{reader, spec};
  Parse(ctx, root);
}

}  // namespace opcts
