#include "reports/journal.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "reports/text_escape.h"

namespace opcts {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Backend messages may hold any bytes; a journal line must still be written.
std::string Dump(const ordered_json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

const char* TypeName(const json& value) { return value.type_name(); }

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// At most kMaxPluginStringBytes, the mark included, so that capping what was read back from a
// journal changes nothing: write, read and write again gives the same line.
std::string CapPluginString(const std::string& text) {
  std::string valid = ToValidUtf8(text);
  if (valid.size() <= kMaxPluginStringBytes) return valid;
  const std::string mark = " [truncated: " + std::to_string(text.size()) + " bytes]";
  size_t cut = kMaxPluginStringBytes - mark.size();
  while (cut > 0 && IsUtf8Continuation(valid[cut])) --cut;  // split no character
  valid.resize(cut);
  return valid + mark;
}

std::vector<std::string> CapPluginStrings(const std::vector<std::string>& texts) {
  std::vector<std::string> capped;
  capped.reserve(texts.size());
  for (const auto& text : texts) capped.push_back(CapPluginString(text));
  return capped;
}

ordered_json StringMap(const std::map<std::string, std::string>& map) {
  ordered_json object = ordered_json::object();
  for (const auto& [key, value] : map) object[key] = value;
  return object;
}

// Reads typed fields of one JSON object, keeping the first error ("case field \"x\": ...").
// Absent and null fields leave the output untouched unless the field is required.
class FieldReader {
 public:
  FieldReader(const json& object, std::string what) : object_(object), what_(std::move(what)) {}

  const std::string& error() const { return error_; }
  // The first error as a Result, once every field is read.
  Result<void> Done() const {
    if (!error_.empty()) return InvalidInput(error_);
    return {};
  }

  void String(const char* key, std::string& out, bool required = false) {
    const json* value = Find(key, required);
    if (!value) return;
    if (!value->is_string()) return WrongType(key, "a string", *value);
    out = value->get<std::string>();
  }

  // A string field holding one of the names of `named` (StatusNamed, GroupNamed); another
  // string is an error "unknown <what> \"name\"". An optional field may also be "".
  template <typename Enum>
  void Named(const char* key, Enum& out, std::optional<Enum> (*named)(std::string_view),
             const char* what, bool required = false) {
    std::string name;
    String(key, name, required);
    if (!error_.empty() || (name.empty() && !required)) return;
    if (const std::optional<Enum> value = named(name)) return void(out = *value);
    Fail(key, std::string("unknown ") + what + " \"" + name + "\"");
  }

  void Unsigned(const char* key, uint64_t& out, bool required = false,
                uint64_t max = std::numeric_limits<uint64_t>::max()) {
    const json* value = Find(key, required);
    if (!value) return;
    if (!value->is_number_unsigned() || value->get<uint64_t>() > max) {
      return WrongType(key, "an unsigned integer up to " + std::to_string(max), *value);
    }
    out = value->get<uint64_t>();
  }

  void Bool(const char* key, bool& out) {
    const json* value = Find(key, false);
    if (!value) return;
    if (!value->is_boolean()) return WrongType(key, "true or false", *value);
    out = value->get<bool>();
  }

  void Number(const char* key, std::optional<double>& out) {
    const json* value = Find(key, false);
    if (!value) return;
    if (value->is_number()) {
      out = value->get<double>();
      return;
    }
    if (value->is_string()) {
      const auto& text = value->get_ref<const std::string&>();
      if (text == "NaN") return void(out = std::numeric_limits<double>::quiet_NaN());
      if (text == "Infinity") return void(out = std::numeric_limits<double>::infinity());
      if (text == "-Infinity") return void(out = -std::numeric_limits<double>::infinity());
    }
    WrongType(key, "a number, null, \"NaN\", \"Infinity\" or \"-Infinity\"", *value);
  }

  void StringList(const char* key, std::vector<std::string>& out) {
    const json* value = Find(key, false);
    if (!value) return;
    if (!value->is_array()) return WrongType(key, "an array of strings", *value);
    for (const auto& item : *value) {
      if (!item.is_string()) return WrongType(key, "an array of strings", item);
      out.push_back(item.get<std::string>());
    }
  }

  void Shape(const char* key, std::vector<uint32_t>& out) {
    const json* value = Find(key, false);
    if (!value) return;
    if (!value->is_array()) return WrongType(key, "an array of unsigned integers", *value);
    for (const auto& item : *value) {
      if (!item.is_number_unsigned() ||
          item.get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
        return WrongType(key, "an array of 32-bit unsigned integers", item);
      }
      out.push_back(static_cast<uint32_t>(item.get<uint64_t>()));
    }
  }

  // The raw value of an object-typed field, or nullptr.
  const json* Object(const char* key) {
    const json* value = Find(key, false);
    if (value && !value->is_object()) {
      WrongType(key, "an object", *value);
      return nullptr;
    }
    return value;
  }

  void Fail(const std::string& key, const std::string& text) {
    if (error_.empty()) error_ = what_ + " field \"" + key + "\": " + text;
  }

 private:
  const json* Find(const char* key, bool required) {
    if (!error_.empty()) return nullptr;
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) {
      if (required) Fail(key, "missing");
      return nullptr;
    }
    return &*it;
  }

  void WrongType(const std::string& key, const std::string& expected, const json& got) {
    Fail(key, "expected " + expected + ", got " + TypeName(got) + " " +
                  got.dump(-1, ' ', false, json::error_handler_t::replace));
  }

  const json& object_;
  std::string what_;
  std::string error_;
};

// Reads the optional header object of strings `key` ("filters", "options").
Result<void> ReadStringMap(FieldReader& fields, const char* key,
                           std::map<std::string, std::string>& out) {
  const json* map = fields.Object(key);
  if (!map) return {};
  FieldReader entries(*map, std::string("header.") + key);
  for (const auto& [name, value] : map->items()) entries.String(name.c_str(), out[name], true);
  return entries.Done();
}

Result<BackendRecord> ParseBackend(const json& object, const std::string& what) {
  if (!object.is_object()) return InvalidInput(what + ": expected an object");
  FieldReader fields(object, what);
  BackendRecord backend;
  fields.String("name", backend.name, true);
  fields.String("version", backend.version);
  fields.String("device", backend.device);
  fields.String("feature_level", backend.feature_level);
  fields.StringList("extra_support", backend.extra_support);
  fields.String("details", backend.details);
  OPCTS_TRY(fields.Done());
  return backend;
}

Result<JournalHeader> ParseHeader(const json& object) {
  JournalHeader header;
  FieldReader fields(object, "header");
  fields.String("format", header.format, true);
  if (fields.error().empty() && header.format != kJournalFormat) {
    fields.Fail("format", "\"" + header.format + "\" is not supported (this reader reads " +
                              std::string(kJournalFormat) + ")");
  }
  fields.String("opcts_version", header.opcts_version);
  fields.String("started", header.started);
  fields.Unsigned("seed", header.seed, true);
  fields.Unsigned("planned_cases", header.planned_cases);
  if (const json* shard = fields.Object("shard")) {
    FieldReader shard_fields(*shard, "header.shard");
    uint64_t index = 0, count = 1;
    shard_fields.Unsigned("index", index, true, std::numeric_limits<uint32_t>::max());
    shard_fields.Unsigned("count", count, true, std::numeric_limits<uint32_t>::max());
    if (shard_fields.error().empty() && (count == 0 || index >= count)) {
      shard_fields.Fail("index", "shard " + std::to_string(index) + " of " + std::to_string(count) +
                                     " is out of range");
    }
    OPCTS_TRY(shard_fields.Done());
    header.shard_index = static_cast<uint32_t>(index);
    header.shard_count = static_cast<uint32_t>(count);
  }
  OPCTS_TRY(ReadStringMap(fields, "filters", header.filters));
  OPCTS_TRY(ReadStringMap(fields, "options", header.options));
  if (fields.error().empty() && object.contains("backends")) {
    const json& backends = object["backends"];
    if (!backends.is_array()) {
      fields.Fail("backends", std::string("expected an array, got ") + TypeName(backends));
    } else {
      for (size_t i = 0; i < backends.size(); ++i) {
        const std::string what = "header.backends[" + std::to_string(i) + "]";
        OPCTS_ASSIGN_OR_RETURN(BackendRecord backend, ParseBackend(backends[i], what));
        header.backends.push_back(std::move(backend));
      }
    }
  }
  OPCTS_TRY(fields.Done());
  return header;
}

Result<CaseRecord> ParseCase(const json& object) {
  CaseRecord record;
  FieldReader fields(object, "case");
  fields.String("id", record.id, true);
  fields.String("backend", record.backend, true);
  fields.Named("status", record.status, StatusNamed, "status", /*required=*/true);
  fields.String("op", record.op);
  fields.String("dtype", record.dtype);
  fields.String("level", record.level);
  // "" as well as absent: journals of earlier opcts versions wrote records without a group so.
  fields.Named("group", record.group, GroupNamed, "group");
  fields.String("layout", record.layout);
  fields.String("values", record.values);
  fields.Shape("shape", record.shape);
  if (const json* attributes = fields.Object("attributes")) record.attributes = *attributes;
  fields.String("message", record.message);
  fields.String("behaviour", record.behaviour);
  fields.String("repro", record.repro);
  fields.Number("max_error", record.max_error);
  fields.Number("bound", record.bound);
  fields.Number("ulp", record.ulp);
  fields.Unsigned("duration_us", record.duration_us);
  OPCTS_TRY(fields.Done());
  return record;
}

Result<MemoryRecord> ParseMemory(const json& object) {
  MemoryRecord record;
  FieldReader fields(object, "memory");
  fields.String("backend", record.backend, true);
  fields.Unsigned("cases", record.cases);
  fields.Unsigned("resident_first", record.first_bytes);
  fields.Unsigned("resident_last", record.last_bytes);
  fields.Unsigned("resident_peak", record.peak_bytes);
  std::optional<double> growth;
  fields.Number("growth_per_case", growth);
  record.growth_per_case = growth.value_or(0);
  fields.Bool("leaking", record.leaking);
  OPCTS_TRY(fields.Done());
  return record;
}

Result<ShrunkRecord> ParseShrunk(const json& object) {
  ShrunkRecord record;
  FieldReader fields(object, "shrunk");
  fields.String("backend", record.backend, true);
  fields.String("id", record.id, true);
  fields.Shape("shape", record.shape);
  fields.Unsigned("elements", record.elements);
  fields.Unsigned("original_elements", record.original_elements);
  fields.String("file", record.file);
  fields.String("repro", record.repro);
  OPCTS_TRY(fields.Done());
  return record;
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

ordered_json JsonNumber(const std::optional<double>& value) {
  if (!value) return nullptr;
  if (std::isnan(*value)) return "NaN";
  if (std::isinf(*value)) return *value > 0 ? "Infinity" : "-Infinity";
  return *value;
}

std::string ToJsonLine(const JournalHeader& header) {
  ordered_json line;
  line["type"] = "header";
  line["format"] = header.format;
  line["opcts_version"] = header.opcts_version;
  line["started"] = header.started;
  line["seed"] = header.seed;
  line["shard"] = {{"index", header.shard_index}, {"count", header.shard_count}};
  line["filters"] = StringMap(header.filters);
  line["options"] = StringMap(header.options);
  line["backends"] = ordered_json::array();
  for (const auto& backend : header.backends) {
    line["backends"].push_back({{"name", CapPluginString(backend.name)},
                                {"version", CapPluginString(backend.version)},
                                {"device", CapPluginString(backend.device)},
                                {"feature_level", CapPluginString(backend.feature_level)},
                                {"extra_support", CapPluginStrings(backend.extra_support)},
                                {"details", CapPluginString(backend.details)}});
  }
  line["planned_cases"] = header.planned_cases;
  return Dump(line);
}

std::string ToJsonLine(const CaseRecord& record) {
  ordered_json line;
  line["type"] = "case";
  line["id"] = record.id;
  line["backend"] = CapPluginString(record.backend);
  line["op"] = record.op;
  line["dtype"] = record.dtype;
  line["level"] = record.level;
  line["group"] = GroupName(record.group);
  line["shape"] = record.shape;
  line["attributes"] =
      record.attributes.is_null() ? ordered_json::object() : ordered_json(record.attributes);
  line["layout"] = record.layout;
  line["values"] = record.values;
  line["status"] = StatusName(record.status);
  line["max_error"] = JsonNumber(record.max_error);
  line["bound"] = JsonNumber(record.bound);
  line["ulp"] = JsonNumber(record.ulp);
  line["message"] = CapPluginString(record.message);
  if (!record.behaviour.empty()) line["behaviour"] = record.behaviour;
  line["duration_us"] = record.duration_us;
  line["repro"] = record.repro;
  return Dump(line);
}

std::string ToJsonLine(const MemoryRecord& record) {
  ordered_json line;
  line["type"] = "memory";
  line["backend"] = CapPluginString(record.backend);
  line["cases"] = record.cases;
  line["resident_first"] = record.first_bytes;
  line["resident_last"] = record.last_bytes;
  line["resident_peak"] = record.peak_bytes;
  line["growth_per_case"] = JsonNumber(record.growth_per_case);
  line["leaking"] = record.leaking;
  return Dump(line);
}

std::string ToJsonLine(const ShrunkRecord& record) {
  ordered_json line;
  line["type"] = "shrunk";
  line["backend"] = CapPluginString(record.backend);
  line["id"] = record.id;
  line["shape"] = record.shape;
  line["elements"] = record.elements;
  line["original_elements"] = record.original_elements;
  line["file"] = record.file;
  line["repro"] = record.repro;
  return Dump(line);
}

namespace {

// "45 MiB", "2.4 GiB", "512 KiB", "300 bytes".
std::string Bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, std::fabs(bytes) < 10 && unit > 0 ? "%.1f %s" : "%.0f %s", bytes,
                units[unit]);
  return text;
}

}  // namespace

std::string DescribeLeak(const MemoryRecord& record) {
  return "resident memory grew steadily from " + Bytes(static_cast<double>(record.first_bytes)) +
         " to " + Bytes(static_cast<double>(record.last_bytes)) + " over " +
         std::to_string(record.cases) + " cases (" + Bytes(record.growth_per_case) + " per case)";
}

std::vector<std::string> SplitBehaviours(std::string_view behaviour) {
  std::vector<std::string> parts;
  while (!behaviour.empty()) {
    const size_t end = behaviour.find(kBehaviourSeparator);
    parts.emplace_back(behaviour.substr(0, end));
    if (end == std::string_view::npos) break;
    behaviour.remove_prefix(end + kBehaviourSeparator.size());
  }
  return parts;
}

bool IsPlatformFloatBehaviour(std::string_view behaviour) {
  return behaviour.rfind("flushes ", 0) == 0 || behaviour.rfind("truncates ", 0) == 0;
}

Result<Journal> ParseJournal(std::string_view text, const std::string& source) {
  Journal journal;
  bool have_header = false;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    ++line_number;
    const size_t newline = text.find('\n', start);
    const bool terminated = newline != std::string_view::npos;
    const std::string_view line =
        text.substr(start, terminated ? newline - start : std::string_view::npos);
    start = terminated ? newline + 1 : text.size();
    if (IsBlank(line)) continue;

    const std::string where = source + ":" + std::to_string(line_number) + ": ";
    const json object = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded() || !object.is_object()) {
      if (!terminated) {
        journal.warnings.push_back(where +
                                   "dropped an incomplete last line (run killed mid-write?)");
        break;
      }
      return InvalidInput(where + (object.is_discarded() ? "not valid JSON" : "not a JSON object"));
    }
    const auto type = object.find("type");
    if (type == object.end() || !type->is_string()) {
      return InvalidInput(where + "field \"type\": missing or not a string");
    }
    const auto& type_name = type->get_ref<const std::string&>();
    if (!have_header && type_name != "header") {
      return InvalidInput(where + "expected the header line first, got type \"" + type_name + "\"");
    }
    if (type_name == "header") {
      if (have_header) return InvalidInput(where + "a second header line");
      Result<JournalHeader> header = ParseHeader(object);
      if (!header) return InvalidInput(where + header.error().message);
      journal.header = std::move(header).value();
      have_header = true;
    } else if (type_name == "case") {
      Result<CaseRecord> record = ParseCase(object);
      if (!record) return InvalidInput(where + record.error().message);
      journal.cases.push_back(std::move(record).value());
    } else if (type_name == "shrunk") {
      Result<ShrunkRecord> record = ParseShrunk(object);
      if (!record) return InvalidInput(where + record.error().message);
      journal.shrunk.push_back(std::move(record).value());
    } else if (type_name == "memory") {
      Result<MemoryRecord> record = ParseMemory(object);
      if (!record) return InvalidInput(where + record.error().message);
      journal.memory.push_back(std::move(record).value());
    } else {
      journal.warnings.push_back(where + "ignored a line of unknown type \"" + type_name + "\"");
    }
  }
  if (!have_header) return InvalidInput(source + ": no header line (an empty or torn journal)");
  return journal;
}

Result<Journal> ReadJournal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot open for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return IoError(path + ": read error");
  return ParseJournal(text.str(), path);
}

}  // namespace opcts
