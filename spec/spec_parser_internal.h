// Internal to the spec loader: what the parts of the opcts-spec/1 schema walk share, and the parts
// that live in their own files (constraint_parser.cc, support_table_parser.cc).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/operator_spec.h"
#include "spec/yaml_reader.h"

namespace opcts {

// The spec filled so far and what is known to be trustworthy in it.
struct SchemaContext {
  SchemaContext(YamlReader& r, OperatorSpec& s) : reader(r), spec(s) {}

  YamlReader& reader;
  OperatorSpec& spec;
  std::optional<LevelScheme> scheme;  // unset when bad: level names are then not checked
  // Names are resolved only against a list whose every name and type (role) parsed, so one
  // typo there does not cascade into an error at each use.
  bool params_ok = false;
  bool tensors_ok = false;

  // Runs `parse`; true when it reported nothing.
  template <typename F>
  bool Clean(F&& parse) {
    const size_t before = reader.error_count();
    parse();
    return reader.error_count() == before;
  }
  // A tensor, parameter or enum value name; `taken` reports a duplicate.
  std::optional<std::string> Name(const YamlField& f, std::string_view what, bool taken);
  // A constraint or defect id ("same-dtype"); `taken` reports a duplicate.
  std::optional<std::string> Id(const YamlField& f, std::string_view what, bool taken);
  // A level name; one the scheme does not have is reported (and still returned).
  std::optional<std::string> Level(const YamlField& f);
  // The tensor `name` read from `f`; nullptr (reported) when it does not exist, and nullptr
  // (unreported) when the tensor list itself is broken.
  const TensorSpec* KnownTensor(const YamlField& f, const std::string& name);
  // Reports unless `name` is a uint32 parameter; `user` says who needs it ("kind leading_ones").
  void CheckUInt32Param(const YamlField& f, const std::string& name, std::string_view user);
};

std::string Quoted(std::string_view s);                        // 'abc'
std::string JoinNames(const std::vector<std::string>& names);  // "a, b, c"
std::string_view RoleName(TensorRole r);                       // as the YAML spells it

void ParseConstraints(SchemaContext& ctx, const YamlField& f);
void ParseFamily(SchemaContext& ctx, const YamlField& f);
void ParseAbi(SchemaContext& ctx, const YamlField& f);
std::vector<SupportLevel> ParseSupportTable(SchemaContext& ctx, const YamlField& f);

}  // namespace opcts
