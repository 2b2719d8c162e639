// Typed, error-collecting reads of a parsed YAML document, for the spec loader.
//
// Each read checks one node's type and records a SpecError (line + dotted field path) instead of
// throwing, then returns nullopt, so the loader keeps going and reports every problem in a file.
//
//   YamlReader reader("spec/x.yaml");
//   YamlMap top(reader, YamlField{root, "", 1});
//   top.CheckKeys({"schema", "operator"}, {"history"});
//   if (auto f = top.Get("operator")) std::optional<std::string> name = reader.String(*f);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "spec/spec_loader.h"

namespace opcts {

// A node with the path and line errors about it should name. (Its implicit move assignment may
// throw: YAML::Node has only a copy assignment, which may.)
struct YamlField {  // NOLINT(bugprone-exception-escape)
  YAML::Node node;
  std::string path;
  int line = 0;
};

// "a.b", or "b" when the parent is the document.
std::string JoinPath(const std::string& parent, std::string_view key);
// For "expected X, got ..." messages: "a map", "a list", "null", "'abc'", "the string '3'".
std::string DescribeNode(const YAML::Node& node);

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  void Error(const YamlField& at, std::string message);
  void Error(int line, std::string field, std::string message);
  size_t error_count() const { return errors_.size(); }
  std::vector<SpecError> TakeErrors() { return std::move(errors_); }

  std::optional<std::string> String(const YamlField& f);
  // A plain (unquoted) decimal integer in [min, max].
  std::optional<int64_t> Int(const YamlField& f, int64_t min, int64_t max);
  // A plain true / false.
  std::optional<bool> Bool(const YamlField& f);
  // A string that must be one of `allowed`; `what` names it in the error ("role").
  std::optional<std::string> OneOf(const YamlField& f, std::string_view what,
                                   const std::vector<std::string>& allowed);
  // The items of a list (each with its own path and line), or nullopt if `f` is not a list.
  std::optional<std::vector<YamlField>> List(const YamlField& f);
  // The strings of a list of strings; nullopt if it is not a list or any item is not a string.
  std::optional<std::vector<std::string>> StringList(const YamlField& f);

 private:
  std::string file_;
  std::vector<SpecError> errors_;
};

// The entries of one YAML map. Construction reports a non-map, non-string keys and duplicate
// keys; CheckKeys reports missing and unknown keys.
class YamlMap {
 public:
  struct Entry {
    YamlField key;
    YamlField value;
  };

  YamlMap(YamlReader& reader, const YamlField& field);

  bool valid() const { return valid_; }
  const YamlField& field() const { return field_; }
  const std::vector<Entry>& entries() const { return entries_; }
  bool Has(std::string_view key) const;
  std::optional<YamlField> Get(std::string_view key) const;
  // Unknown keys are errors; `owner` (e.g. "kind same_dtype") is named in that error when given.
  void CheckKeys(const std::vector<std::string_view>& required,
                 const std::vector<std::string_view>& optional, std::string_view owner = {});

 private:
  YamlReader& reader_;
  YamlField field_;
  bool valid_ = false;
  std::vector<Entry> entries_;
};

}  // namespace opcts
