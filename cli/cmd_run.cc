#include <filesystem>
#include <iostream>
#include <sstream>

#include "base/cli_args.h"
#include "cli/cmd_report.h"
#include "cli/commands.h"
#include "conformance/runner.h"
#include "conformance/stop_signal.h"

namespace opcts {
namespace {

constexpr const char* kUsage =
    "usage: opcts run [--backend NAME|PATH[@OPTIONS]]... [--backend-options S]\n"
    "                 [--op GLOB]... [--dtype GLOB]... [--level GLOB]... [--id GLOB]...\n"
    "                 [--exclude GLOB]... [--case-list FILE] [--seed N] [--max-cases N]\n"
    "                 [--shard I/N] [--strict] [--require-level LEVEL] [--require OP=LEVEL]...\n"
    "                 [--journal FILE] [--report-dir DIR] [--resume JOURNAL]\n"
    "                 [--allow-unavailable] [--no-isolation] [--timeout-ms N] [--memory-limit "
    "MIB]\n"
    "                 [--float-rules platform|ieee] [--no-progress] [--no-shrink]\n"
    "--backend-options: every backend's create() options; a backend given as NAME@OPTIONS (as\n"
    "opcts_bench takes them: cpu-simd@target=AVX2) has its own, and its records are named so.\n"
    "One backend twice needs its own options on each: the records could not be told apart.\n"
    "Repeated filters of one kind are a union; --exclude drops ids; --case-list keeps the ids or\n"
    "globs it lists (one per line, # comments). Without --shard, GTEST_TOTAL_SHARDS/\n"
    "GTEST_SHARD_INDEX or TEST_TOTAL_SHARDS/TEST_SHARD_INDEX select the shard.\n"
    "--require-level fails the gate when a backend's highest fully passing level of an operator\n"
    "(of that level scheme) is below LEVEL; --require OP=LEVEL does so for one operator.\n"
    "--memory-limit: the resident memory a worker may hold (default half the machine's); a case\n"
    "that passes it is MemoryLimit (a gate failure) and the run goes on with a new worker. A\n"
    "worker whose memory grows steadily (64 MiB or more) is reported as leaking (--strict:\n"
    "a gate failure).\n"
    "With --report-dir (isolated runs), the smallest case of each failure group is shrunk (3 s\n"
    "each, in a child process) to DIR/shrunk/BACKEND.ID.json, an opcts-vector/1 file the reports\n"
    "name with its `opcts vectors` repro; --no-shrink skips it.\n"
    "exit status: 0 passed, 1 the gate failed, 2 bad input or usage (a selection matching no\n"
    "case included), 130/143 stopped by SIGINT/SIGTERM (reports written, marked "
    "interrupted).\n" OPCTS_FLOAT_RULES_USAGE;

// A required level must be one that a (matching) spec names.
bool KnownLevel(const SpecSet& specs, const std::string& op, const std::string& level) {
  for (const OperatorSpec& s : specs.specs) {
    if (!op.empty() && !OperatorMatches(op, s)) continue;
    for (const SupportLevel& l : s.support)
      if (l.level == level) return true;
  }
  return false;
}

// --require-level and --require, parsed and checked against the specs.
Result<void> ReadRequirements(const CliArgs& args, const SpecSet& specs,
                              std::vector<LevelRequirement>& out) {
  std::vector<std::string> texts = args.GetAll("--require-level");
  for (const std::string& t : texts)
    if (t.find('=') != std::string::npos)
      return InvalidInput("--require-level takes a level; use --require OP=LEVEL for one operator");
  for (const std::string& t : args.GetAll("--require")) {
    if (t.find('=') == std::string::npos)
      return InvalidInput("--require takes OP=LEVEL, not '" + t + "'");
    texts.push_back(t);
  }
  for (const std::string& t : texts) {
    OPCTS_ASSIGN_OR_RETURN(LevelRequirement required, ParseLevelRequirement(t));
    if (!KnownLevel(specs, required.op, required.level))
      return InvalidInput("'" + t + "': no " +
                          (required.op.empty() ? "operator" : "operator matching " + required.op) +
                          " has a feature level " + required.level +
                          " (opcts list shows the levels)");
    out.push_back(std::move(required));
  }
  return {};
}

// Every option that decides what the run does, checked; a usage error names the option.
Result<void> ReadRunOptions(CliArgs& args, const SpecSet& specs, RunOptions& options) {
  OPCTS_TRY(ReadCaseFilter(args, specs, ProcessEnvironment, options.filter, options.seed));
  OPCTS_TRY(ReadRequirements(args, specs, options.required));
  OPCTS_ASSIGN_OR_RETURN(options.float_rules, ReadFloatRules(args));
  options.timeout_ms = args.GetNumber("--timeout-ms").value_or(0);
  options.memory_limit_mib = args.GetNumber("--memory-limit").value_or(0);
  if (!args.error().empty()) return InvalidInput(args.error());
  if (args.Get("--timeout-ms") && options.timeout_ms == 0)
    return InvalidInput(
        "--timeout-ms 0 would time out every case; give a limit in ms, or leave it out for the "
        "default");
  if (args.Get("--memory-limit") && options.memory_limit_mib == 0)
    return InvalidInput(
        "--memory-limit 0 would stop every worker; give MiB, or leave it out for half the "
        "machine's memory");
  if (args.Get("--resume") && args.Get("--journal"))
    return InvalidInput("--resume continues the journal it names; do not give --journal too");
  return {};
}

}  // namespace

Result<FloatRules> ReadFloatRules(const CliArgs& args) {
  const std::optional<std::string> given = args.Get("--float-rules");
  if (!given) return FloatRules::kPlatform;
  if (const std::optional<FloatRules> rules = FloatRulesNamed(*given)) return *rules;
  return InvalidInput("unknown --float-rules '" + *given + "' (expected platform or ieee)");
}

int RunCommand(const Args& raw) {
  CliArgs args(
      raw, {"--strict", "--allow-unavailable", "--no-progress", "--no-isolation", "--no-shrink"},
      {"--backend", "--backend-options", "--op", "--dtype", "--level", "--id", "--exclude",
       "--case-list", "--seed", "--max-cases", "--shard", "--require-level", "--require",
       "--journal", "--report-dir", "--resume", "--timeout-ms", "--memory-limit", "--float-rules"});
  if (args.help()) return PrintUsage(kUsage);
  if (!args.error().empty()) return PrintUsage(kUsage, "opcts run: " + args.error());
  if (!args.positionals().empty())
    return PrintUsage(kUsage, "opcts run: unexpected argument '" + args.positionals()[0] + "'");
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  if (!specs.errors.empty()) {
    for (const std::string& e : specs.errors) std::cerr << e << "\n";
    return 2;
  }
  RunOptions options;
  if (Result<void> read = ReadRunOptions(args, specs, options); !read)
    return PrintUsage(kUsage, "opcts run: " + read.error().message);
  options.backends = args.GetAll("--backend");
  options.backend_options = args.Get("--backend-options").value_or("");
  options.strict = args.Has("--strict");
  options.allow_unavailable = args.Has("--allow-unavailable");
  options.progress = !args.Has("--no-progress");
  options.isolation = !args.Has("--no-isolation");
  options.resume = args.Get("--resume").value_or("");
  const auto report_dir = args.Get("--report-dir");
  options.journal =
      args.Get("--journal").value_or(report_dir ? *report_dir + "/journal.jsonl" : "");
  if (!options.resume.empty()) options.journal = options.resume;
  if (report_dir && !args.Has("--no-shrink")) options.shrink_dir = *report_dir + "/shrunk";
  if (report_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*report_dir, ec);
    if (ec) {
      std::cerr << "opcts run: cannot create " << *report_dir << ": " << ec.message() << "\n";
      return 2;
    }
  }

  InstallStopHandlers();
  const RunResult result = RunConformance(specs, options, std::cout, std::cerr);
  std::cout.flush();
  if (!report_dir || !std::filesystem::exists(options.journal)) return result.exit_code;
  std::ostringstream verdict;  // the run printed its own
  const int report =
      WriteReportSet({options.journal}, RunReportOptions(options, result.stop_signal), *report_dir,
                     verdict, std::cerr);
  if (report == kReportExitBadInput) {
    std::cerr << "opcts run: the reports in " << *report_dir << " were not written\n";
    return result.stop_signal ? result.exit_code : 2;
  }
  std::cout << "reports written to " << *report_dir
            << " (summary.json, junit.xml, summary.md, report.html)"
            << (result.stop_signal ? ", marked interrupted" : "") << "\n";
  return result.exit_code;
}

}  // namespace opcts
