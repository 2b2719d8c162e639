#include "fuzz/targets/target_support.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/libfuzzer_log.h"

namespace opcts {
namespace {

// $name, or `fallback` when it is unset or empty.
std::string EnvOr(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

std::string& BackendChoice() {
  static std::string choice = EnvOr("OPCTS_FUZZ_BACKEND", OPCTS_FUZZ_DEFAULT_BACKEND);
  return choice;
}

std::string& BackendOptionsChoice() {
  static std::string choice = EnvOr("OPCTS_FUZZ_BACKEND_OPTIONS", "");
  return choice;
}

bool& StrictChoice() {
  static bool strict = EnvOr("OPCTS_FUZZ_STRICT", "") == std::string("1");
  return strict;
}

}  // namespace

int InitFuzzTarget(int argc, char** argv) {
  const std::string backend = "--backend=", options = "--backend-options=";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(backend, 0) == 0) BackendChoice() = arg.substr(backend.size());
    if (arg.rfind(options, 0) == 0) BackendOptionsChoice() = arg.substr(options.size());
    if (arg == "--strict") StrictChoice() = true;
  }
  // NAME@OPTIONS, as opcts run takes it.
  const BackendArg parsed = ParseBackendArg(BackendChoice(), BackendOptionsChoice());
  BackendChoice() = parsed.name_or_path;
  BackendOptionsChoice() = parsed.options;
  return 0;
}

bool FuzzStrict() { return StrictChoice(); }

const Plugin& FuzzBackend() {
  // Never unloaded: a leak report at exit must still symbolize the plugin's frames.
  static const Plugin* const plugin = [] {
    PluginLoad load = LoadPlugin(BackendChoice(), BackendOptionsChoice());
    const std::string options =
        BackendOptionsChoice().empty() ? "" : ", options \"" + BackendOptionsChoice() + "\"";
    if (!load) {
      // Not a finding: the target cannot start. Exit (not abort) so no crash file is written.
      std::fprintf(stderr, "%sbackend %s%s: %s\n", kCannotStartLine, BackendChoice().c_str(),
                   options.c_str(), load.error().message.c_str());
      std::exit(2);
    }
    std::fprintf(stderr, "opcts fuzz: backend %s (%s)%s, device %s, feature level %s\n",
                 (*load)->info().name, (*load)->path().c_str(), options.c_str(),
                 (*load)->info().device, (*load)->FeatureLevel().c_str());
    return std::move(load).value().release();
  }();
  return *plugin;
}

}  // namespace opcts
