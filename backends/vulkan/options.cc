#include "options.h"

#include <cstdlib>
#include <optional>
#include <string_view>

namespace opcts::vulkan {
namespace {

std::optional<bool> ParseBool(std::string_view value) {
  if (value == "1" || value == "true" || value == "on") return true;
  if (value == "0" || value == "false" || value == "off" || value.empty()) return false;
  return std::nullopt;
}

Result<void> ParseDisabled(std::string_view list, DisabledFeatures* disabled) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    if (name == "int64") {
      disabled->int64 = true;
    } else if (name == "float64") {
      disabled->float64 = true;
    } else if (name == "subgroups") {
      disabled->subgroups = true;
    } else if (name == "float_controls") {
      disabled->float_controls = true;
    } else if (name == "float32_subnormals") {
      disabled->float32_subnormals = true;
    } else {
      return InvalidInput("option disable: unknown feature '" + std::string(name) +
                          "' (known: int64, float64, subgroups, float_controls, "
                          "float32_subnormals)");
    }
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return {};
}

}  // namespace

Result<Options> ParseOptions(const char* text) {
  Options options;
  if (const char* env = std::getenv("OPCTS_VULKAN_DEVICE")) options.device = env;
  if (const char* env = std::getenv("OPCTS_VULKAN_VALIDATION")) {
    options.validation = ParseBool(env).value_or(false);
  }
  std::string_view rest = text != nullptr ? text : "";
  while (!rest.empty()) {
    size_t end = rest.find(';');
    std::string_view item = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (item.empty()) continue;
    size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      return InvalidInput("option '" + std::string(item) + "' is not key=value");
    }
    std::string_view key = item.substr(0, equals);
    std::string_view value = item.substr(equals + 1);
    if (key == "device") {
      options.device = std::string(value);
    } else if (key == "validation") {
      std::optional<bool> on = ParseBool(value);
      if (!on) return InvalidInput("option validation: '" + std::string(value) + "' is not 0 or 1");
      options.validation = *on;
    } else if (key == "disable") {
      OPCTS_TRY(ParseDisabled(value, &options.disabled));
    } else {
      return InvalidInput("unknown option '" + std::string(key) +
                          "' (known: device, validation, disable)");
    }
  }
  return options;
}

}  // namespace opcts::vulkan
