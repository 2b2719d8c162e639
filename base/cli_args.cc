#include "base/cli_args.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace opcts {

CliArgs::CliArgs(const std::vector<std::string>& args, const std::set<std::string>& flags,
                 const std::set<std::string>& options) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      help_ = true;
      continue;
    }
    if (a.rfind("--", 0) != 0 || a == "--") {
      positionals_.push_back(a);
      continue;
    }
    std::string key = a, value;
    const size_t eq = a.find('=');
    if (eq != std::string::npos) {
      key = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (flags.count(key)) {
      given_.push_back({key, ""});
    } else if (options.count(key)) {
      if (eq == std::string::npos) {
        if (i + 1 >= args.size()) {
          error_ = key + " needs a value";
          return;
        }
        value = args[++i];
      }
      given_.push_back({key, value});
    } else {
      error_ = "unknown option " + key;
      return;
    }
  }
}

bool CliArgs::Has(const std::string& flag) const {
  for (const auto& [k, v] : given_)
    if (k == flag) return true;
  return false;
}

std::optional<std::string> CliArgs::Get(const std::string& option) const {
  std::optional<std::string> last;
  for (const auto& [k, v] : given_)
    if (k == option) last = v;
  return last;
}

std::vector<std::string> CliArgs::GetAll(const std::string& option) const {
  std::vector<std::string> all;
  for (const auto& [k, v] : given_)
    if (k == option) all.push_back(v);
  return all;
}

std::optional<uint64_t> CliArgs::GetNumber(const std::string& option) {
  const auto text = Get(option);
  if (!text) return std::nullopt;
  size_t used = 0;
  uint64_t value = 0;
  try {
    value = std::stoull(*text, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != text->size() || (*text)[0] == '-') {
    error_ = option + " needs a non-negative integer, not '" + *text + "'";
    return std::nullopt;
  }
  return value;
}

int PrintUsage(const char* usage, const std::string& error) {
  if (error.empty()) {
    std::cout << usage;
    return 0;
  }
  std::cerr << error << "\n" << usage;
  return 2;
}

std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths,
                                     const std::string& extension) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path, ec))
      if (entry.is_regular_file() && entry.path().extension() == extension)
        found.push_back(entry.path().string());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace opcts
