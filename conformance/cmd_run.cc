#include <filesystem>
#include <iostream>

#include "conformance/cli_args.h"
#include "conformance/commands.h"
#include "conformance/runner.h"
#include "reports/report_cli.h"

namespace opcts {
namespace {

constexpr const char* kUsage =
    "usage: opcts run [--backend NAME|PATH]... [--backend-options S] [--op GLOB] [--dtype GLOB]\n"
    "                 [--level GLOB] [--id GLOB] [--seed N] [--max-cases N] [--shard I/N]\n"
    "                 [--strict] [--journal FILE] [--report-dir DIR] [--allow-unavailable]\n"
    "                 [--resume JOURNAL] [--no-isolation] [--timeout-ms N] [--no-progress]\n";

}  // namespace

// Reads the filter options shared by run, list and repro; false (with a message) on bad input.
bool ReadCaseFilter(CliArgs& args, CaseFilter& filter, uint64_t& seed, std::ostream& err) {
  filter.op = args.Get("--op").value_or("*");
  filter.dtype = args.Get("--dtype").value_or("*");
  filter.level = args.Get("--level").value_or("*");
  filter.id = args.Get("--id").value_or("*");
  seed = args.GetNumber("--seed").value_or(1);
  filter.max_cases = args.GetNumber("--max-cases").value_or(0);
  if (const auto shard = args.Get("--shard")) {
    unsigned index = 0, count = 0;
    char extra = 0;
    if (std::sscanf(shard->c_str(), "%u/%u%c", &index, &count, &extra) != 2 || count == 0 || index >= count) {
      err << "--shard needs I/N with 0 <= I < N, not '" << *shard << "'\n";
      return false;
    }
    filter.shard_index = index;
    filter.shard_count = count;
  }
  if (!args.error().empty()) {
    err << args.error() << "\n";
    return false;
  }
  return true;
}

int RunCommand(const Args& raw) {
  CliArgs args(raw, {"--strict", "--allow-unavailable", "--no-progress", "--no-isolation"},
               {"--backend", "--backend-options", "--op", "--dtype", "--level", "--id", "--seed",
                "--max-cases", "--shard", "--journal", "--report-dir", "--resume", "--timeout-ms"});
  RunOptions options;
  if (!args.error().empty() || !args.positionals().empty() ||
      !ReadCaseFilter(args, options.filter, options.seed, std::cerr)) {
    if (!args.error().empty()) std::cerr << args.error() << "\n";
    if (!args.positionals().empty()) std::cerr << "unexpected argument '" << args.positionals()[0] << "'\n";
    std::cerr << kUsage;
    return 2;
  }
  options.backends = args.GetAll("--backend");
  options.backend_options = args.Get("--backend-options").value_or("");
  options.strict = args.Has("--strict");
  options.allow_unavailable = args.Has("--allow-unavailable");
  options.progress = !args.Has("--no-progress");
  options.isolation = !args.Has("--no-isolation");
  options.timeout_ms = args.GetNumber("--timeout-ms").value_or(0);
  options.resume = args.Get("--resume").value_or("");
  if (!args.error().empty()) {
    std::cerr << args.error() << "\n" << kUsage;
    return 2;
  }
  if (!options.resume.empty() && args.Get("--journal")) {
    std::cerr << "--resume continues the journal it names; do not give --journal too\n";
    return 2;
  }
  const auto report_dir = args.Get("--report-dir");
  options.journal = args.Get("--journal").value_or(report_dir ? *report_dir + "/journal.jsonl" : "");
  if (!options.resume.empty()) options.journal = options.resume;
  if (report_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*report_dir, ec);
    if (ec) {
      std::cerr << "opcts run: cannot create " << *report_dir << ": " << ec.message() << "\n";
      return 2;
    }
  }

  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  if (!specs.errors.empty()) {
    for (const std::string& e : specs.errors) std::cerr << e << "\n";
    return 2;
  }
  const RunResult result = RunConformance(specs, options, std::cout);
  std::cout.flush();
  if (report_dir && !options.journal.empty() && std::filesystem::exists(options.journal)) {
    const std::string d = *report_dir;
    std::vector<std::string> report_args = {"--json", d + "/summary.json", "--junit", d + "/junit.xml",
                                            "--markdown", d + "/summary.md", "--html", d + "/report.html"};
    if (options.strict) report_args.push_back("--strict");
    report_args.push_back(options.journal);
    const int report = ReportMain(report_args);
    std::cout << "reports written to " << d << " (summary.json, junit.xml, summary.md, report.html)\n";
    if (report == kReportExitBadInput) return 2;
  }
  return result.exit_code;
}

int ReportCommand(const Args& args) { return ReportMain(args); }

}  // namespace opcts
