#include "conformance/repro_command.h"

#include "base/shell_word.h"

namespace opcts {
namespace {

// --backend and the flags after it that differ from the defaults.
std::string BackendFlags(const std::string& plugin, const ReproSetting& setting) {
  std::string flags = " --backend " + ShellWord(plugin);
  if (!setting.backend_options.empty())
    flags += " --backend-options " + ShellWord(setting.backend_options);
  if (setting.float_rules != FloatRules::kPlatform)
    flags += " --float-rules " + std::string(FloatRulesName(setting.float_rules));
  return flags;
}

}  // namespace

std::string ReproCommand(const std::string& plugin, const ReproSetting& setting, uint64_t seed,
                         const std::string& case_id) {
  return "opcts repro" + BackendFlags(plugin, setting) + " --seed " + std::to_string(seed) + " " +
         ShellWord(case_id);
}

std::string VectorsCommand(const std::string& plugin, const ReproSetting& setting,
                           const std::string& file) {
  return "opcts vectors" + BackendFlags(plugin, setting) + " " + ShellWord(file);
}

}  // namespace opcts
