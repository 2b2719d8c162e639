#include "conformance/plugin_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "base/executable_dir.h"
#include "spec/operator_spec.h"

namespace opcts {
namespace {

constexpr size_t kMaxInfoString = 65536;

// get_info's answers, checked: strings present and of a sane size, a level opcts can name.
// "" or what is wrong.
std::string CheckInfo(const opcts_backend_info& info) {
  if (info.name == nullptr || info.version == nullptr || info.device == nullptr)
    return "get_info() left name, version or device NULL";
  const std::pair<const char*, const char*> strings[] = {{"name", info.name},
                                                         {"version", info.version},
                                                         {"device", info.device},
                                                         {"extra_support", info.extra_support},
                                                         {"details", info.details}};
  for (const auto& [field, text] : strings)
    if (text != nullptr && strnlen(text, kMaxInfoString + 1) > kMaxInfoString)
      return std::string("get_info() ") + field + " is longer than " +
             std::to_string(kMaxInfoString) + " bytes";
  if (*info.name == '\0') return "get_info() name is empty";
  const uint32_t level = info.feature_level;
  const std::string name = std::to_string(level >> 12) + "_" + std::to_string((level >> 8) & 0xF);
  if ((level & 0xFF) != 0 || DirectMLLevelIndex(name) < 0) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%X", level);
    return std::string("get_info() feature_level ") + hex +
           " is no DirectML feature level (OPCTS_FEATURE_LEVEL(major, minor), 1_0 to 6_4)";
  }
  return "";
}

}  // namespace

Plugin::~Plugin() {
  if (instance_ != nullptr) api_->destroy(instance_);
  if (library_ != nullptr) dlclose(library_);
}

std::string Plugin::FeatureLevel() const {
  const uint32_t level = info_.feature_level;
  return std::to_string(level >> 12) + "_" + std::to_string((level >> 8) & 0xF);
}

std::vector<std::string> Plugin::ExtraSupport() const {
  std::vector<std::string> words;
  std::istringstream in(info_.extra_support ? info_.extra_support : "");
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string BuiltinPluginDir() {
  if (const char* dir = std::getenv("OPCTS_PLUGIN_DIR"); dir != nullptr && *dir != '\0') return dir;
  // Installed: lib/opcts/plugins beside bin/; in the build tree: plugins/ beside the binary.
  if (std::string dir = FolderBesideExecutable(OPCTS_INSTALLED_PLUGIN_DIR); !dir.empty())
    return dir;
  const std::string exe_dir = ExecutableDir();
  return exe_dir.empty() ? "plugins" : exe_dir + "/plugins";
}

std::vector<std::string> BuiltinBackendNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(BuiltinPluginDir(), ec)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("opcts-", 0) == 0 && entry.path().extension() == ".so")
      names.push_back(file.substr(6, file.size() - 9));
  }
  std::sort(names.begin(), names.end());
  return names;
}

BackendArg ParseBackendArg(const std::string& text, const std::string& default_options) {
  const size_t at = text.find('@');
  std::error_code ec;
  if (at == std::string::npos || std::filesystem::exists(text, ec))
    return {text, default_options, false};
  return {text.substr(0, at), text.substr(at + 1), true};
}

bool IsUnavailable(const PluginLoad& load) {
  return !load && load.error().code == ErrorCode::kUnavailable;
}

PluginLoad LoadPlugin(const std::string& name_or_path, const std::string& options) {
  const bool is_path = name_or_path.find('/') != std::string::npos ||
                       (name_or_path.size() > 3 && name_or_path.ends_with(".so"));
  const std::string path =
      is_path ? name_or_path : BuiltinPluginDir() + "/opcts-" + name_or_path + ".so";
  auto fail = [&](const std::string& why) { return InvalidInput(path + ": " + why); };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    if (is_path) return fail("no such file");
    std::string known;
    for (const std::string& n : BuiltinBackendNames()) known += " " + n;
    return fail("no built-in backend '" + name_or_path +
                "' (built-ins:" + (known.empty() ? " none found" : known) + ")");
  }
  std::unique_ptr<Plugin> plugin(new Plugin);
  plugin->path_ = path;
  // RTLD_LOCAL: two plugins may define the same internal symbols.
  plugin->library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (plugin->library_ == nullptr) return fail(std::string("not a loadable plugin: ") + dlerror());
  auto entry =
      reinterpret_cast<opcts_backend_entry_fn>(dlsym(plugin->library_, OPCTS_BACKEND_ENTRY_SYMBOL));
  if (entry == nullptr)
    return fail("not an opcts plugin: no exported symbol " OPCTS_BACKEND_ENTRY_SYMBOL);
  const opcts_backend_api* api = entry();
  if (api == nullptr) return fail(OPCTS_BACKEND_ENTRY_SYMBOL "() returned NULL");
  if (api->abi_version != OPCTS_ABI_VERSION)
    return fail("built for opcts ABI version " + std::to_string(api->abi_version) +
                ", this opcts speaks version " + std::to_string(OPCTS_ABI_VERSION));
  if (api->struct_size < sizeof(opcts_backend_api))
    return fail("function table is " + std::to_string(api->struct_size) + " bytes, expected " +
                std::to_string(sizeof(opcts_backend_api)));
  const std::pair<const void*, const char*> functions[] = {
      {reinterpret_cast<const void*>(api->create), "create"},
      {reinterpret_cast<const void*>(api->destroy), "destroy"},
      {reinterpret_cast<const void*>(api->get_info), "get_info"},
      {reinterpret_cast<const void*>(api->query), "query"},
      {reinterpret_cast<const void*>(api->execute), "execute"}};
  for (const auto& [fn, name] : functions)
    if (fn == nullptr) return fail(std::string("function table entry '") + name + "' is NULL");
  plugin->api_ = api;

  char message[1024] = "";
  const int32_t status = api->create(options.c_str(), &plugin->instance_, message, sizeof message);
  message[sizeof message - 1] = '\0';
  if (status != OPCTS_STATUS_OK) {
    plugin->instance_ = nullptr;
    const std::string why = *message ? message : "(no message)";
    if (status == OPCTS_STATUS_NOT_SUPPORTED)
      return Unavailable(path + ": backend unavailable: " + why);
    return fail("create failed: " + why);
  }
  if (plugin->instance_ == nullptr) return fail("create() succeeded but returned no instance");
  if (api->get_info(plugin->instance_, &plugin->info_) != OPCTS_STATUS_OK)
    return fail("get_info() failed");
  if (std::string wrong = CheckInfo(plugin->info_); !wrong.empty()) return fail(wrong);
  return plugin;
}

}  // namespace opcts
