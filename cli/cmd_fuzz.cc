// `opcts fuzz`: a fuzzing campaign over the libFuzzer targets built beside opcts (the `fuzz`
// preset), against one backend, for --seconds of wall time and then a bounded triage
// (fuzz/campaign.h): findings deduplicated by failure signature, one minimized input per new
// signature kept in fuzz/regressions/ (a differential one as an opcts-vector/1 file), known ones
// (regressions, waivers) counted apart, and with --report-dir a report in JSON, Markdown and HTML.
//
//   opcts fuzz --backend cpu-simd [--backend-options S] --seconds 60 --jobs 2
//              [--target 'opcts_fuzz_dml_*'] [--corpus DIR] [--report-dir DIR] [--waivers FILE]
#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "base/cli_args.h"
#include "base/executable_dir.h"
#include "cli/commands.h"
#include "conformance/plugin_loader.h"
#include "fuzz/campaign.h"
#include "opcts/version.h"
#include "reports/text_escape.h"

namespace fs = std::filesystem;

namespace opcts {
namespace {

// No error: the usage on stdout (--help), exit 0; else both on stderr, exit 2.
int Usage(const std::string& error) {
  std::ostream& out = error.empty() ? std::cout : std::cerr;
  if (!error.empty()) out << "opcts fuzz: " << error << "\n";
  out << "usage: opcts fuzz [--backend NAME|PATH[@OPTIONS]] [--backend-options S] [--seconds N]\n"
         "                  [--jobs J] [--target GLOB]... [--strict] [--corpus DIR]\n"
         "                  [--report-dir DIR] [--waivers FILE] [--work DIR] [--regressions DIR]\n"
         "  --backend-options  the backend's create() options, as for opcts run (or after an '@'\n"
         "                in --backend)\n"
         "                (cpu-simd: target=AVX2 fuzzes its AVX2 kernels on an AVX-512 machine)\n"
         "  --seconds     wall time of the fuzzing, all targets together (default 60); triage\n"
         "                after it takes at most 30 s more\n"
         "  --jobs        fuzzing processes at a time (default 1)\n"
         "  --target      which targets (default all; see fuzz-targets.txt beside opcts)\n"
         "  --strict      a QualityWarning is a mismatch (as opcts run --strict fails it)\n"
         "  --corpus      keep each target's corpus in DIR/<target> across campaigns (merged at\n"
         "                the end); default: a fresh corpus from the seeds\n"
         "  --report-dir  write campaign.json, campaign.md, campaign.html and findings/ there\n"
         "  --waivers     a finding a waiver covers is known, not new (as for opcts run)\n"
         "  --work        artifacts and logs (default fuzz-work/ beside opcts)\n"
         "  --regressions known findings, and where new ones go (default the source tree's\n"
         "                fuzz/regressions)\n"
         "exit: 0 no new finding, 1 new findings, 2 not built, bad arguments or a target that\n"
         "did not run\n";
  return error.empty() ? 0 : 2;
}

std::vector<std::string> BuiltTargets(const fs::path& bin) {
  std::ifstream in(bin / "fuzz-targets.txt");
  std::vector<std::string> targets;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) targets.push_back(line);
  return targets;
}

void PrintSummary(const FuzzCampaign& c) {
  std::cout << "\n"
            << std::left << std::setw(40) << "target" << std::right << std::setw(12) << "executions"
            << std::setw(10) << "exec/s" << std::setw(10) << "corpus"
            << "\n";
  for (const TargetCampaign& t : c.targets) {
    std::cout << std::left << std::setw(40) << t.target << std::right << std::setw(12)
              << t.executions << std::setw(10) << static_cast<uint64_t>(t.ExecutionsPerSecond())
              << std::setw(10) << t.corpus_files << "\n";
    if (!t.error.empty()) std::cout << "  did not run: " << t.error << "\n";
  }
  for (const CampaignFinding& f : c.findings) {
    std::cout << (f.known.empty() ? "NEW   " : "KNOWN ") << TerminalSafe(f.signature) << "\n      "
              << f.count << " input(s)";
    if (f.first_seen >= 0)
      std::cout << ", first at " << std::fixed << std::setprecision(1) << f.first_seen << " s";
    if (!f.known.empty()) std::cout << "; " << TerminalSafe(f.known);
    std::cout << "\n";
    if (!f.repro.empty()) std::cout << "      repro: " << TerminalSafe(f.repro) << "\n";
  }
  std::cout << std::fixed << std::setprecision(1) << "backend " << TerminalSafe(c.backend)
            << (c.backend_options.empty()
                    ? ""
                    : " (options \"" + TerminalSafe(c.backend_options) + "\")")
            << (c.strict ? " (strict)" : "") << ": " << c.NewFindings() << " new finding(s), "
            << c.findings.size() - c.NewFindings() << " known; fuzzing " << c.fuzz_seconds
            << " s, triage " << c.triage_seconds << " s\n";
}

}  // namespace

int FuzzCommand(const Args& args) {
  CliArgs cli(args, {"--strict"},
              {"--backend", "--backend-options", "--seconds", "--jobs", "--target", "--work",
               "--regressions", "--corpus", "--report-dir", "--waivers"});
  if (cli.help()) return Usage("");
  CampaignOptions o;
  const BackendArg backend = ParseBackendArg(cli.Get("--backend").value_or(o.backend),
                                             cli.Get("--backend-options").value_or(""));
  o.backend = backend.name_or_path;
  o.backend_options = backend.options;
  o.seconds = cli.GetNumber("--seconds").value_or(o.seconds);
  o.jobs = cli.GetNumber("--jobs").value_or(o.jobs);
  o.strict = cli.Has("--strict");
  const std::vector<std::string> globs = cli.GetAll("--target");
  if (!cli.error().empty() || !cli.positionals().empty() || o.seconds == 0 || o.jobs == 0)
    return Usage(cli.error().empty() ? "bad arguments" : cli.error());
  const char* bin = std::getenv("OPCTS_FUZZ_BIN_DIR");
  o.bin = bin != nullptr && *bin != '\0' ? fs::path(bin) : fs::path(ExecutableDir());
  o.work = cli.Get("--work").value_or((o.bin / "fuzz-work").string());
  o.regressions = cli.Get("--regressions").value_or(OPCTS_FUZZ_REGRESSIONS_DIR);
  o.corpus_dir = cli.Get("--corpus").value_or("");
  o.report_dir = cli.Get("--report-dir").value_or("");
  o.waivers = cli.Get("--waivers").value_or("");
  // Absolute: the targets run with these paths from wherever.
  for (fs::path* p : {&o.work, &o.regressions, &o.corpus_dir, &o.report_dir})
    if (!p->empty()) *p = fs::absolute(*p);
  if (!o.waivers.empty()) {
    if (!fs::is_regular_file(o.waivers)) return Usage("--waivers " + o.waivers + ": no such file");
    o.waivers = fs::absolute(o.waivers).string();
  }

  const std::vector<std::string> built = BuiltTargets(o.bin);
  if (built.empty()) {
    std::cerr << "opcts fuzz: no fuzz targets in " << o.bin.string()
              << " (fuzz-targets.txt is missing). They need clang's libFuzzer; build them with\n"
                 "  cmake --preset fuzz -DOPCTS_VULKAN=OFF && cmake --build --preset fuzz\n"
                 "and run build/fuzz/opcts fuzz (or set OPCTS_FUZZ_BIN_DIR to that folder).\n";
    return 2;
  }
  for (const std::string& t : built) {
    const bool wanted =
        globs.empty() || std::any_of(globs.begin(), globs.end(), [&](const std::string& g) {
          return fnmatch(g.c_str(), t.c_str(), 0) == 0;
        });
    if (!wanted) continue;
    if (!fs::exists(o.bin / t)) {
      std::cerr << "opcts fuzz: " << (o.bin / t).string() << " is listed but not built\n";
      return 2;
    }
    o.targets.push_back(t);
  }
  if (o.targets.empty()) return Usage("no target matches --target");

  FuzzCampaign c = RunCampaign(o, std::cout);
  c.version = OPCTS_VERSION_STRING;
  PrintSummary(c);
  if (!o.report_dir.empty()) {
    if (const Result<void> written = WriteCampaignReports(c, o.report_dir.string()); !written) {
      std::cerr << "opcts fuzz: " << written.error().message << "\n";
      return 2;
    }
    std::cout << "report: " << (o.report_dir / "campaign.html").string() << "\n";
  }
  const bool broken = std::any_of(c.targets.begin(), c.targets.end(),
                                  [](const TargetCampaign& t) { return !t.error.empty(); });
  if (broken) return 2;
  return c.NewFindings() ? 1 : 0;
}

}  // namespace opcts
