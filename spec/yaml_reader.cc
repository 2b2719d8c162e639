#include "spec/yaml_reader.h"

#include <algorithm>
#include <charconv>

namespace opcts {
namespace {

int LineOf(const YAML::Node& node, int fallback) {
  // yaml-cpp marks an empty value ("key:") at the token after it, so nulls take the fallback.
  if (node.IsNull() || node.Mark().is_null()) return fallback;
  return node.Mark().line + 1;
}

bool IsPlainScalar(const YAML::Node& node) { return node.IsScalar() && node.Tag() == "?"; }

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The allowed key a typo most likely meant, or "".
std::string_view ClosestKey(std::string_view key, const std::vector<std::string_view>& allowed) {
  std::string_view best;
  size_t best_distance = 3;  // more than two edits away is not a typo
  for (std::string_view candidate : allowed) {
    const size_t d = EditDistance(key, candidate);
    if (d < best_distance && d < key.size()) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace

std::string DescribeNode(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.IsScalar()) return (IsPlainScalar(node) ? "'" : "the string '") + node.Scalar() + "'";
  return "null";
}

std::string JoinPath(const std::string& parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return parent + "." + std::string(key);
}

void YamlReader::Error(const YamlField& at, std::string message) {
  Error(at.line, at.path, std::move(message));
}

void YamlReader::Error(int line, std::string field, std::string message) {
  errors_.push_back(SpecError{file_, line, std::move(field), std::move(message)});
}

std::optional<std::string> YamlReader::String(const YamlField& f) {
  if (f.node.IsScalar()) return f.node.Scalar();
  Error(f, "expected a string, got " + DescribeNode(f.node));
  return std::nullopt;
}

std::optional<int64_t> YamlReader::Int(const YamlField& f, int64_t min, int64_t max) {
  if (IsPlainScalar(f.node)) {
    const std::string& text = f.node.Scalar();
    const char* begin = text.data();
    if (text.size() > 1 && text[0] == '+') ++begin;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
    if (end == text.data() + text.size() && ec == std::errc{} && begin != end) {
      if (value >= min && value <= max) return value;
      Error(f, "value " + text + " is out of range [" + std::to_string(min) + ", " +
                   std::to_string(max) + "]");
      return std::nullopt;
    }
    if (ec == std::errc::result_out_of_range) {
      Error(f, "value " + text + " is out of range [" + std::to_string(min) + ", " +
                   std::to_string(max) + "]");
      return std::nullopt;
    }
  }
  Error(f, "expected an integer, got " + DescribeNode(f.node));
  return std::nullopt;
}

std::optional<bool> YamlReader::Bool(const YamlField& f) {
  if (IsPlainScalar(f.node)) {
    const std::string& s = f.node.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  Error(f, "expected true or false, got " + DescribeNode(f.node));
  return std::nullopt;
}

std::optional<std::string> YamlReader::OneOf(const YamlField& f, std::string_view what,
                                             const std::vector<std::string>& allowed) {
  std::optional<std::string> s = String(f);
  if (!s) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), *s) != allowed.end()) return s;
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  Error(f, "unknown " + std::string(what) + " '" + *s + "' (expected " + list + ")");
  return std::nullopt;
}

std::optional<std::vector<YamlField>> YamlReader::List(const YamlField& f) {
  if (!f.node.IsSequence()) {
    Error(f, "expected a list, got " + DescribeNode(f.node));
    return std::nullopt;
  }
  std::vector<YamlField> items;
  for (size_t i = 0; i < f.node.size(); ++i) {
    const YAML::Node item = f.node[i];
    items.push_back(YamlField{item, f.path + "[" + std::to_string(i) + "]", LineOf(item, f.line)});
  }
  return items;
}

std::optional<std::vector<std::string>> YamlReader::StringList(const YamlField& f) {
  std::optional<std::vector<YamlField>> items = List(f);
  if (!items) return std::nullopt;
  std::vector<std::string> strings;
  bool ok = true;
  for (const YamlField& item : *items) {
    if (std::optional<std::string> s = String(item))
      strings.push_back(*s);
    else
      ok = false;
  }
  if (!ok) return std::nullopt;
  return strings;
}

YamlMap::YamlMap(YamlReader& reader, const YamlField& field) : reader_(reader), field_(field) {
  if (!field.node.IsMap()) {
    reader_.Error(field, "expected a map, got " + DescribeNode(field.node));
    return;
  }
  valid_ = true;
  for (auto it = field.node.begin(); it != field.node.end(); ++it) {
    const int key_line = LineOf(it->first, field.line);
    if (!it->first.IsScalar()) {
      reader_.Error(key_line, field.path,
                    "map keys must be strings, got " + DescribeNode(it->first));
      continue;
    }
    const std::string& key = it->first.Scalar();
    const std::string path = JoinPath(field.path, key);
    if (Has(key)) {
      reader_.Error(key_line, path, "duplicate key");
      continue;
    }
    // A value is reported at its key's line: "provenance:" rather than its first child.
    entries_.push_back(
        Entry{YamlField{it->first, path, key_line}, YamlField{it->second, path, key_line}});
  }
}

bool YamlMap::Has(std::string_view key) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.key.node.Scalar() == key; });
}

std::optional<YamlField> YamlMap::Get(std::string_view key) const {
  for (const Entry& e : entries_)
    if (e.key.node.Scalar() == key) return e.value;
  return std::nullopt;
}

void YamlMap::CheckKeys(const std::vector<std::string_view>& required,
                        const std::vector<std::string_view>& optional, std::string_view owner) {
  if (!valid_) return;
  for (std::string_view key : required)
    if (!Has(key)) reader_.Error(field_, "missing required key '" + std::string(key) + "'");
  std::vector<std::string_view> allowed = required;
  allowed.insert(allowed.end(), optional.begin(), optional.end());
  for (const Entry& e : entries_) {
    const std::string& key = e.key.node.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string message = "unknown key";
    if (!owner.empty()) message += " for " + std::string(owner);
    if (std::string_view near = ClosestKey(key, allowed); !near.empty())
      message += " (did you mean '" + std::string(near) + "'?)";
    reader_.Error(e.key, message);
  }
}

}  // namespace opcts
