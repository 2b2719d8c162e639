#include <iostream>
#include <map>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/runner.h"

namespace opcts {
namespace {

constexpr const char* kUsage =
    "usage: opcts list [--cases] [--op GLOB]... [--dtype GLOB]... [--level GLOB]... [--id "
    "GLOB]...\n"
    "                  [--exclude GLOB]... [--case-list FILE] [--seed N] [--max-cases N] [--shard "
    "I/N]\n"
    "Lists the built-in backends, the operators and how many cases the filters select\n"
    "(with --cases, their ids); the filters are those of opcts run. The built-ins come from\n"
    "$OPCTS_PLUGIN_DIR, else an installed opcts's lib/opcts/plugins, else plugins/ beside opcts;\n"
    "the specs from $OPCTS_SPEC_DIR, else share/opcts/spec, else the source tree's spec/.\n";

}  // namespace

int ListCommand(const Args& raw) {
  CliArgs args(raw, {"--cases"},
               {"--op", "--dtype", "--level", "--id", "--exclude", "--case-list", "--seed",
                "--max-cases", "--shard"});
  if (args.help()) return PrintUsage(kUsage);
  if (!args.error().empty()) return PrintUsage(kUsage, "opcts list: " + args.error());
  if (!args.positionals().empty())
    return PrintUsage(kUsage, "opcts list: unexpected argument '" + args.positionals()[0] + "'");
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  for (const std::string& e : specs.errors) std::cerr << e << "\n";
  if (!specs.errors.empty()) return 2;
  CaseFilter filter;
  uint64_t seed = 1;
  if (Result<void> read = ReadCaseFilter(args, specs, ProcessEnvironment, filter, seed); !read)
    return PrintUsage(kUsage, "opcts list: " + read.error().message);
  std::cout << "built-in backends (" << BuiltinPluginDir() << "):\n";
  for (const std::string& name : BuiltinBackendNames()) {
    PluginLoad load = LoadPlugin(name, "");
    if (!load) {
      std::cout << "  " << name << ": " << (IsUnavailable(load) ? "UNAVAILABLE: " : "ERROR: ")
                << load.error().message << "\n";
      continue;
    }
    const opcts_backend_info& info = (*load)->info();
    std::cout << "  " << info.name << " " << info.version << "  device: " << info.device
              << "  feature level " << (*load)->FeatureLevel()
              << (info.extra_support && *info.extra_support
                      ? std::string(" + ") + info.extra_support
                      : "")
              << "\n";
    if (info.details && *info.details) std::cout << "    " << info.details << "\n";
  }
  const std::vector<CaseRecipe> cases = SelectCases(specs, seed, filter);
  std::map<std::string, std::map<CaseGroup, uint64_t>> counts;
  for (const CaseRecipe& c : cases) ++counts[c.spec->name][c.group];
  std::cout << "\noperators (" << DefaultSpecDir() << "):\n";
  for (const OperatorSpec& s : specs.specs) {
    std::string levels;
    for (const SupportLevel& l : s.support) levels += " " + l.level;
    std::cout << "  " << s.name << "  levels:" << levels
              << "  cases: " << counts[s.name][CaseGroup::kValid] << " valid, "
              << counts[s.name][CaseGroup::kInvalid] << " invalid\n";
  }
  std::cout << "\n" << cases.size() << " cases (seed " << seed << ")\n";
  if (args.Has("--cases"))
    for (const CaseRecipe& c : cases)
      std::cout << c.id << "  " << GroupName(c.group) << "  level "
                << (c.level.empty() ? "-" : c.level) << "\n";
  return 0;
}

}  // namespace opcts
