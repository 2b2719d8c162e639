// Loads a backend plugin: a path to a shared object, or the name of a built-in backend
// (resolved to <plugin dir>/opcts-<name>.so). Every failure is a sentence naming the file.
//
//   PluginLoad r = LoadPlugin("cpu-simd", "");
//   if (!r) std::cerr << r.error().message;
//   (*r)->info().device
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "opcts/backend.h"

namespace opcts {

// One created backend instance; destroys it and unloads the library when released.
class Plugin {
 public:
  ~Plugin();
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  const opcts_backend_api& api() const { return *api_; }
  void* instance() const { return instance_; }
  const opcts_backend_info& info() const { return info_; }
  const std::string& path() const { return path_; }
  // The claimed DirectML level as "5_0".
  std::string FeatureLevel() const;
  // The extra_support words.
  std::vector<std::string> ExtraSupport() const;

 private:
  friend Result<std::unique_ptr<Plugin>> LoadPlugin(const std::string&, const std::string&);
  Plugin() = default;
  void* library_ = nullptr;
  const opcts_backend_api* api_ = nullptr;
  void* instance_ = nullptr;
  opcts_backend_info info_{};
  std::string path_;
};

// A loaded plugin, or why not: ErrorCode::kUnavailable when create() answered NOT_SUPPORTED (the
// backend exists but cannot run here: no device), kInvalidInput for anything else.
using PluginLoad = Result<std::unique_ptr<Plugin>>;
bool IsUnavailable(const PluginLoad& load);

// `name_or_path`: contains a '/' or ends in ".so" -> a path; otherwise a built-in name.
PluginLoad LoadPlugin(const std::string& name_or_path, const std::string& options);

// One `--backend` argument: NAME or PATH, optionally with its own create() options after the
// first '@' ("cpu-simd@target=AVX2"), as opcts_bench takes them. A file that exists is a path, '@'
// and all: such a path takes its options from --backend-options.
struct BackendArg {
  std::string name_or_path;
  std::string options;       // its own, else the command's --backend-options
  bool own_options = false;  // given after '@': part of the backend's name in a run's records

  // The backend's name in records and messages: the plugin's, with "@" and its own options.
  std::string Label(const std::string& plugin_name) const {
    return own_options ? plugin_name + "@" + options : plugin_name;
  }
};
BackendArg ParseBackendArg(const std::string& text, const std::string& default_options);

// Directory of the built-in plugins: $OPCTS_PLUGIN_DIR if set; else, for an installed opcts,
// lib/opcts/plugins beside its bin/; else plugins/ beside the binary (the build tree).
std::string BuiltinPluginDir();
// The built-in backends present in BuiltinPluginDir(), sorted.
std::vector<std::string> BuiltinBackendNames();

}  // namespace opcts
