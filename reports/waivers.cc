#include "reports/waivers.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace opcts {
namespace {

std::string Where(const std::string& source, const YAML::Mark& mark) {
  return source + ":" + std::to_string(mark.line + 1);
}

// Reads one entry of the `waivers:` list.
Result<Waiver> ParseEntry(const YAML::Node& entry, const std::string& source) {
  Waiver waiver;
  waiver.location = Where(source, entry.Mark());
  if (!entry.IsMap()) {
    return InvalidInput(waiver.location + ": a waiver must be a map with id and reason");
  }
  static const std::set<std::string> kKeys = {"id", "backend", "reason", "expires"};
  for (const auto& item : entry) {
    const std::string key = item.first.as<std::string>("");
    const std::string where = Where(source, item.first.Mark()) + ": field \"" + key + "\": ";
    if (!kKeys.count(key)) {
      return InvalidInput(where + "unknown (expected id, backend, reason, expires)");
    }
    if (!item.second.IsScalar()) return InvalidInput(where + "expected a string");
    const std::string value = item.second.Scalar();
    if (value.empty()) return InvalidInput(where + "must not be empty");
    if (key == "id") waiver.id_glob = value;
    if (key == "backend") waiver.backend_glob = value;
    if (key == "reason") waiver.reason = value;
    if (key == "expires") {
      if (!IsIsoDate(value)) {
        return InvalidInput(where + "\"" + value + "\" is not a date YYYY-MM-DD");
      }
      waiver.expires = value;
    }
  }
  if (waiver.id_glob.empty()) return InvalidInput(waiver.location + ": field \"id\": missing");
  if (waiver.reason.empty()) {
    return InvalidInput(waiver.location + ": field \"reason\": missing");
  }
  return waiver;
}

}  // namespace

bool GlobMatch(std::string_view glob, std::string_view text) {
  // Iterative match with one backtrack point: linear enough for ids, no recursion blow-up.
  size_t g = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (g < glob.size() && (glob[g] == '?' || glob[g] == text[t])) {
      ++g;
      ++t;
    } else if (g < glob.size() && glob[g] == '*') {
      star = g++;
      resume = t;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

bool IsIsoDate(std::string_view date) {
  if (date.size() != 10 || date[4] != '-' || date[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (date[i] < '0' || date[i] > '9') return false;
  }
  const auto number = [&](size_t at, size_t length) {
    return std::stoi(std::string(date.substr(at, length)));
  };
  const std::chrono::year_month_day day{std::chrono::year(number(0, 4)),
                                        std::chrono::month(number(5, 2)),
                                        std::chrono::day(number(8, 2))};
  return day.ok();
}

std::string TodayUtc() {
  const std::chrono::year_month_day day{
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(day.year()),
                static_cast<unsigned>(day.month()), static_cast<unsigned>(day.day()));
  return text;
}

bool IsExpired(const Waiver& waiver, std::string_view today) {
  // ISO dates compare correctly as strings.
  return waiver.expires && today > *waiver.expires;
}

Result<std::vector<Waiver>> ParseWaivers(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    return InvalidInput(Where(source, error.mark) + ": " + error.msg);
  }
  if (!root.IsMap()) return InvalidInput(source + ":1: expected a map with a \"waivers\" list");
  for (const auto& item : root) {
    if (item.first.as<std::string>("") != "waivers") {
      return InvalidInput(Where(source, item.first.Mark()) + ": unknown top-level field \"" +
                          item.first.as<std::string>("") + "\" (expected \"waivers\")");
    }
  }
  const YAML::Node list = root["waivers"];
  if (!list || !(list.IsSequence() || list.IsNull())) {
    return InvalidInput(source + ":1: field \"waivers\": missing or not a list");
  }
  std::vector<Waiver> waivers;
  for (const auto& entry : list) {
    OPCTS_ASSIGN_OR_RETURN(Waiver waiver, ParseEntry(entry, source));
    waivers.push_back(std::move(waiver));
  }
  return waivers;
}

Result<std::vector<Waiver>> LoadWaivers(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot open for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseWaivers(text.str(), path);
}

}  // namespace opcts
