#include <algorithm>
#include <filesystem>
#include <iostream>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/case_run.h"
#include "conformance/constraints.h"
#include "conformance/plugin_loader.h"
#include "conformance/runner.h"
#include "conformance/spec_set.h"
#include "conformance/vector_check.h"
#include "reports/status.h"
#include "reports/text_escape.h"

namespace opcts {

namespace {

constexpr const char* kVectorsUsage =
    "usage: opcts vectors [--backend NAME|PATH[@OPTIONS]]... [--backend-options S]\n"
    "                     [--float-rules platform|ieee] FILE|DIR...\n"
    "Checks JSON test vectors (conformance/VECTORS.md) against the reference, and on each backend\n"
    "given. Exit 0 all passed, 1 a vector failed or a backend computed none of the vectors it\n"
    "was asked to compute (nothing proven), 2 bad input (an unreadable vector, none "
    "found).\n" OPCTS_FLOAT_RULES_USAGE;

}  // namespace

int VectorsCommand(const Args& raw) {
  CliArgs args(raw, {}, {"--backend", "--backend-options", "--float-rules"});
  if (args.help()) return PrintUsage(kVectorsUsage);
  if (!args.error().empty()) return PrintUsage(kVectorsUsage, "opcts vectors: " + args.error());
  if (args.positionals().empty())
    return PrintUsage(kVectorsUsage, "opcts vectors: no FILE or DIR given");
  const Result<FloatRules> float_rules = ReadFloatRules(args);
  if (!float_rules)
    return PrintUsage(kVectorsUsage, "opcts vectors: " + float_rules.error().message);
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  if (!specs.errors.empty()) {
    for (const std::string& e : specs.errors) std::cerr << e << "\n";
    return 2;
  }
  std::vector<std::unique_ptr<Plugin>> plugins;
  std::vector<std::string> labels;  // each backend's name in the messages
  for (const std::string& given : args.GetAll("--backend")) {
    const BackendArg backend = ParseBackendArg(given, args.Get("--backend-options").value_or(""));
    PluginLoad load = LoadPlugin(backend.name_or_path, backend.options);
    if (!load) {
      std::cerr << "backend " << TerminalSafe(given) << ": " << TerminalSafe(load.error().message)
                << "\n";
      return IsUnavailable(load) ? 1 : 2;
    }
    labels.push_back(backend.Label((*load)->info().name));
    plugins.push_back(std::move(load).value());
  }
  const std::vector<std::string> files = ExpandPaths(args.positionals(), ".json");
  int passed = 0, failed = 0, unreadable = 0;
  // Per backend: vectors with outputs to compute, and those it computed (the run's evidence
  // rule: refusing everything it may refuse passes every vector and proves nothing).
  std::vector<int> asked(plugins.size()), computed(plugins.size());
  for (const std::string& file : files) {
    const Result<TestVector> loaded = LoadVectorFile(file, specs);
    if (!loaded) {
      std::cerr << "error: " << loaded.error().message << "\n";
      ++unreadable;
      continue;
    }
    const TestVector& v = *loaded;
    const VectorCheck check = CheckVectorAgainstReference(v, *float_rules);
    bool ok = check.ok;
    std::string message = "reference: " + check.message;
    for (size_t p = 0; p < plugins.size(); ++p) {
      const auto& plugin = plugins[p];
      const CaseVerdict verdict = RunVector(*plugin, v, {.float_rules = *float_rules});
      const CaseOutcome& o = verdict.outcome;
      ok = ok && verdict.acceptable;
      if (!v.expect_reject) {
        ++asked[p];
        if (o.status == Status::kPass || o.status == Status::kQualityWarning) ++computed[p];
      }
      message += "; " + TerminalSafe(labels[p]) + ": " + std::string(StatusName(o.status)) +
                 (o.message.empty() ? "" : " (" + TerminalSafe(o.message) + ")");
    }
    (ok ? passed : failed)++;
    std::cout << (ok ? "PASS " : "FAIL ") << v.name << " (" << file << "): " << message << "\n";
  }
  std::cout << "vectors: " << passed << " passed, " << failed << " failed";
  if (unreadable) std::cout << ", " << unreadable << " unreadable";
  std::cout << "\n";
  if (unreadable || files.empty()) return 2;
  bool proven = true;
  for (size_t p = 0; p < plugins.size(); ++p)
    if (asked[p] > 0 && computed[p] == 0) {
      std::cout << "backend " << TerminalSafe(labels[p]) << " computed none of its " << asked[p]
                << " vectors: nothing was proven\n";
      proven = false;
    }
  return failed || !proven ? 1 : 0;
}

}  // namespace opcts
