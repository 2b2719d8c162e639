// The `family` and `abi` sections: which family an operator belongs to, which of its tensors and
// parameters plays each family role, and the descriptor struct it has in the C ABI.
#include <algorithm>
#include <set>

#include "spec/families.h"
#include "spec/spec_parser_internal.h"

namespace opcts {
namespace {

bool IsCName(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
         });
}

bool IsMacroName(const std::string& s) {
  return s.rfind("OPCTS_", 0) == 0 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
         });
}

// Reports unless `name` (read from `f`) can play `role`.
void CheckRole(SchemaContext& ctx, const YamlField& f, const FamilyRole& role,
               const std::string& name) {
  const TensorSpec* tensor = ctx.tensors_ok ? ctx.spec.FindTensor(name) : nullptr;
  const ParamSpec* param = ctx.params_ok ? ctx.spec.FindParam(name) : nullptr;
  if (!ctx.tensors_ok || !ctx.params_ok) return;  // already reported
  const std::string what = "role " + Quoted(role.name) + " ";
  switch (role.kind) {
    case FamilyRole::Kind::kTensor:
      if (!tensor) ctx.reader.Error(f, what + "needs a tensor; " + Quoted(name) + " is not one");
      return;
    case FamilyRole::Kind::kUInt32Param:
      if (!param || param->type != ParamType::kUInt32)
        ctx.reader.Error(f, what + "needs a uint32 parameter; " + Quoted(name) + " is not one");
      return;
    case FamilyRole::Kind::kFlagParam:
      if (!param || param->type == ParamType::kUInt32 ||
          (param->type == ParamType::kEnum && param->enum_values.size() != 2))
        ctx.reader.Error(
            f, what + "needs a bool or two-valued enum parameter; " + Quoted(name) + " is not one");
      return;
    case FamilyRole::Kind::kEnumParam:
      if (!param || param->type != ParamType::kEnum) {
        ctx.reader.Error(f, what + "needs an enum parameter; " + Quoted(name) + " is not one");
        return;
      }
      for (size_t i = 0; i < param->enum_values.size(); ++i)
        if (i >= role.enum_values.size() || param->enum_values[i] != role.enum_values[i]) {
          ctx.reader.Error(f, what + "takes the values " + JoinNames(role.enum_values) +
                                  " in that order (a prefix of them); " + Quoted(name) + " has " +
                                  JoinNames(param->enum_values));
          return;
        }
      return;
    case FamilyRole::Kind::kAxis:
      if (!(param && param->type == ParamType::kUInt32) &&
          !(tensor && tensor->role == TensorRole::kScalarInput))
        ctx.reader.Error(f, what + "needs a uint32 parameter or a scalar_input tensor; " +
                                Quoted(name) + " is neither");
      return;
  }
}

}  // namespace

void ParseFamily(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  if (!m.valid()) return;
  m.CheckKeys({"name", "roles"}, {});
  const FamilyInfo* family = nullptr;
  if (auto v = m.Get("name")) {
    if (auto name = ctx.reader.OneOf(*v, "family", FamilyNames())) {
      ctx.spec.family.name = *name;
      family = FindFamily(*name);
    }
  }
  const std::optional<YamlField> roles = m.Get("roles");
  if (!roles || !family) return;
  YamlMap table(ctx.reader, *roles);
  if (!table.valid()) return;
  for (const YamlMap::Entry& e : table.entries()) {
    const std::string& role_name = e.key.node.Scalar();
    const auto role = std::find_if(family->roles.begin(), family->roles.end(),
                                   [&](const FamilyRole& r) { return role_name == r.name; });
    if (role == family->roles.end()) {
      std::vector<std::string> known;
      for (const FamilyRole& r : family->roles) known.emplace_back(r.name);
      ctx.reader.Error(e.key, "family " + Quoted(family->name) + " has no role " +
                                  Quoted(role_name) + " (it has " + JoinNames(known) + ")");
      continue;
    }
    if (auto name = ctx.reader.String(e.value)) {
      CheckRole(ctx, e.value, *role, *name);
      ctx.spec.family.roles[role_name] = *name;
    }
  }
  for (const FamilyRole& r : family->roles)
    if (r.required && !table.Has(r.name))
      ctx.reader.Error(*roles,
                       "missing role " + Quoted(r.name) + " of family " + Quoted(family->name));
  if (family->name == std::string("scan") && ctx.spec.accuracy.model == AccuracyModel::kBitExact)
    ctx.reader.Error(f,
                     "a scan combines by its accuracy model (running_sum or running_product); "
                     "bit_exact names no operation");
}

void ParseAbi(SchemaContext& ctx, const YamlField& f) {
  YamlMap m(ctx.reader, f);
  if (!m.valid()) return;
  m.CheckKeys({"code", "struct", "fields"}, {"enums"});
  AbiForm& abi = ctx.spec.abi;
  if (auto v = m.Get("code"))
    abi.code = static_cast<uint32_t>(ctx.reader.Int(*v, 1, 0x7fffffff).value_or(0));
  if (auto v = m.Get("struct")) {
    abi.struct_name = ctx.reader.String(*v).value_or("");
    if (!abi.struct_name.empty() &&
        (!IsCName(abi.struct_name) || abi.struct_name.rfind("opcts_", 0) != 0 ||
         abi.struct_name.size() < 5 ||
         abi.struct_name.compare(abi.struct_name.size() - 5, 5, "_desc") != 0))
      ctx.reader.Error(
          *v, "struct " + Quoted(abi.struct_name) + " must be a lower-case C name opcts_..._desc");
  }
  if (auto v = m.Get("fields")) {
    std::set<std::string> members, carried;
    bool params_started = false;
    for (const YamlField& item : ctx.reader.List(*v).value_or(std::vector<YamlField>{})) {
      YamlMap field(ctx.reader, item);
      if (!field.valid()) continue;
      if (field.entries().size() != 1) {
        ctx.reader.Error(item, "a field is one {member: tensor or parameter} pair");
        continue;
      }
      const YamlMap::Entry& e = field.entries()[0];
      const std::string& member = e.key.node.Scalar();
      const std::optional<std::string> name = ctx.reader.String(e.value);
      if (!name) continue;
      if (!IsCName(member))
        ctx.reader.Error(e.key, "member " + Quoted(member) + " is not a lower-case C name");
      if (!members.insert(member).second)
        ctx.reader.Error(e.key, "duplicate member " + Quoted(member));
      if (!carried.insert(*name).second)
        ctx.reader.Error(e.value, Quoted(*name) + " is carried twice");
      const bool is_tensor = ctx.spec.FindTensor(*name) != nullptr;
      if (ctx.tensors_ok && ctx.params_ok && !is_tensor && !ctx.spec.FindParam(*name))
        ctx.reader.Error(e.value, "no tensor or parameter " + Quoted(*name));
      if (is_tensor && params_started)
        ctx.reader.Error(e.value, "tensor " + Quoted(*name) +
                                      " after a parameter: tensors come first, "
                                      "in binding order");
      params_started |= !is_tensor;
      abi.fields.push_back({member, *name});
    }
    if (ctx.tensors_ok && ctx.params_ok) {
      for (const TensorSpec& t : ctx.spec.tensors)
        if (!carried.count(t.name))
          ctx.reader.Error(*v, "tensor " + Quoted(t.name) + " has no field");
      for (const ParamSpec& p : ctx.spec.params)
        if (!carried.count(p.name))
          ctx.reader.Error(*v, "parameter " + Quoted(p.name) + " has no field");
    }
  }
  const std::optional<YamlField> enums = m.Get("enums");
  if (enums) {
    YamlMap table(ctx.reader, *enums);
    for (const YamlMap::Entry& e : table.entries()) {
      const std::string& param = e.key.node.Scalar();
      const ParamSpec* p = ctx.params_ok ? ctx.spec.FindParam(param) : nullptr;
      if (ctx.params_ok && (!p || p->type != ParamType::kEnum))
        ctx.reader.Error(e.key, Quoted(param) + " is not an enum parameter");
      if (auto prefix = ctx.reader.String(e.value)) {
        if (!IsMacroName(*prefix))
          ctx.reader.Error(e.value, "prefix " + Quoted(*prefix) + " must be OPCTS_ and upper case");
        abi.enum_prefixes[param] = *prefix;
      }
    }
  }
  if (ctx.params_ok)
    for (const ParamSpec& p : ctx.spec.params)
      if (p.type == ParamType::kEnum && !abi.enum_prefixes.count(p.name))
        ctx.reader.Error(
            enums ? *enums : f,
            "enum parameter " + Quoted(p.name) +
                " needs a macro prefix in abi.enums (its values' names in the C header)");
}

}  // namespace opcts
