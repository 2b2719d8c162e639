// `opcts fuzz`: a fuzzing campaign over the libFuzzer targets built beside opcts (the `fuzz`
// preset). Each selected target runs for --seconds with --jobs workers (libFuzzer -fork, which
// goes on after a crash) against --backend; every crash, leak, timeout and mismatch is
// minimized and written to fuzz/regressions/ (a differential finding as an opcts-vector/1 JSON,
// anything else as the raw input under regressions/<target>/), and each target's executions per
// second are reported.
//
//   opcts fuzz --backend cpu-simd --seconds 60 --jobs 2 [--target 'opcts_fuzz_dml_*']
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/vector_check.h"
#include "fuzz/embedded_specs.h"
#include "fuzz/finding_vector.h"
#include "fuzz/fuzz_case.h"

namespace fs = std::filesystem;

namespace opcts {
namespace {

constexpr const char* kTargetPrefix = "opcts_fuzz_";
constexpr const char* kFindingPrefixes[] = {"crash-", "leak-", "timeout-", "oom-"};
// Findings kept per target and signature (the report without its numbers): one bug found many
// times needs one regression.
constexpr int kFindingsPerSignature = 1;
constexpr uint64_t kMaxMinimizeSeconds = 30;
// One input running longer is a hang finding (libFuzzer's default, 1200 s, would stall a CI
// step). Targets use tens of MiB; at the memory limit libFuzzer prints a heap profile, which
// takes minutes for a heap of millions of small blocks at the default 2048 MiB.
const std::string kLimits[] = {"-timeout=10", "-rss_limit_mb=1024"};

struct Campaign {
  std::string backend = "cpu-simd";
  uint64_t seconds = 60;
  uint64_t jobs = 1;
  bool strict = false;
  std::vector<std::string> globs;
  fs::path bin, work, regressions;
};

struct TargetRun {
  std::string target;
  double exec_per_sec = 0;
  uint64_t execs = 0;
  int findings = 0;
  bool failed_to_run = false;
};

// No error: the usage on stdout (--help), exit 0; else both on stderr, exit 2.
int Usage(const std::string& error) {
  std::ostream& out = error.empty() ? std::cout : std::cerr;
  if (!error.empty()) out << "opcts fuzz: " << error << "\n";
  out << "usage: opcts fuzz [--backend NAME|PATH] [--seconds N] [--jobs J] [--target GLOB]...\n"
         "                  [--strict] [--work DIR] [--regressions DIR]\n"
         "  --seconds  fuzzing time per target (default 60)\n"
         "  --jobs     parallel workers per target (libFuzzer -fork; default 1)\n"
         "  --target   which targets (default all; see fuzz-targets.txt beside opcts)\n"
         "  --strict   a QualityWarning is a mismatch (as opcts run --strict fails it)\n"
         "  --work     corpora, artifacts and logs (default fuzz-work/ beside opcts)\n"
         "  --regressions  where findings go (default the source tree's fuzz/regressions)\n";
  return error.empty() ? 0 : 2;
}

fs::path SelfDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

std::vector<std::string> BuiltTargets(const fs::path& bin) {
  std::ifstream in(bin / "fuzz-targets.txt");
  std::vector<std::string> targets;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) targets.push_back(line);
  return targets;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs argv with stdout and stderr going to `log`; the exit code, or 128 + signal.
int RunLogged(const std::vector<std::string>& argv, const Campaign& c, const fs::path& log) {
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    setenv("OPCTS_FUZZ_BACKEND", c.backend.c_str(), 1);
    setenv("OPCTS_FUZZ_STRICT", c.strict ? "1" : "0", 1);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// libFuzzer's status lines: "#N ... exec/s: R" (one process) or "#N: ... exec/s R" (-fork, R
// per worker); the last one covers the whole run.
void ReadStats(const std::string& log, TargetRun& run) {
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const size_t rate = line.find("exec/s");
    if (line.rfind('#', 0) != 0 || rate == std::string::npos) continue;
    run.execs = std::strtoull(line.c_str() + 1, nullptr, 10);
    run.exec_per_sec = std::strtod(line.c_str() + line.find_first_of("0123456789", rate), nullptr);
  }
}

// The line that says what went wrong: a mismatch, an uncaught exception, a sanitizer summary, or
// libFuzzer's verdict.
std::string Summary(const std::string& log) {
  std::istringstream lines(log);
  std::string libfuzzer;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("==opcts-fuzz== ", 0) == 0) return line.substr(15);
    if (const size_t what = line.find("what():  "); what != std::string::npos)
      return "uncaught exception: " + line.substr(what + 9);
    if (line.rfind("SUMMARY: ", 0) == 0) return line.substr(9);
    if (libfuzzer.empty() && line.find("ERROR: libFuzzer: ") != std::string::npos) libfuzzer = line;
  }
  return libfuzzer.empty() ? "no report (the input did not reproduce)" : libfuzzer;
}

std::string Signature(std::string summary) {
  summary.erase(std::remove_if(summary.begin(), summary.end(),
                               [](unsigned char c) { return std::isdigit(c); }),
                summary.end());
  return summary.substr(0, 160);
}

std::string Hash8(const std::string& bytes) {
  std::ostringstream s;
  s << std::hex << std::setw(8) << std::setfill('0') << (StableHash(bytes) & 0xFFFFFFFFull);
  return s.str();
}

// A differential finding as a vector (expected: the reference); nullopt when the bytes are no
// valid case (the target itself crashed while decoding: kept raw).
std::optional<TestVector> AsVector(const std::string& target, const std::string& bytes,
                                   const std::string& source) {
  for (const OperatorSpec& spec : EmbeddedSpecSet().specs) {
    if (target != kTargetPrefix + OperatorKey(spec)) continue;
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const std::optional<Operation> op = DecodeOperation(spec, fdp);
    if (!op || !FindViolations(*op, true).empty()) return std::nullopt;
    const ReferenceResult expected = (*FindReferenceKernel(spec.reference))(*op);
    return FindingVector(*op, expected, FindingName(spec, bytes), source);
  }
  return std::nullopt;
}

void WriteFinding(const Campaign& c, const std::string& target, const std::string& kind,
                  const std::string& bytes, const std::string& summary) {
  const std::string source = "opcts fuzz " + target + " --backend " + c.backend + ": " + summary;
  fs::create_directories(c.regressions);
  if (const std::optional<TestVector> v = AsVector(target, bytes, source)) {
    const fs::path file = c.regressions / (v->name + ".json");
    std::ofstream(file) << VectorToJson(*v).dump(1) << "\n";
    const VectorCheck check = CheckVectorAgainstReference(*v);
    std::cout << "  wrote " << file.string()
              << (check.ok ? "" : "  (warning: " + check.message + ")") << "\n";
    return;
  }
  const fs::path dir = c.regressions / target;
  fs::create_directories(dir);
  const fs::path file = dir / (kind + Hash8(bytes));
  std::ofstream(file, std::ios::binary) << bytes;
  std::cout << "  wrote " << file.string() << " (raw input)\n";
}

TargetRun Fuzz(const Campaign& c, const std::string& target) {
  TargetRun run{target};
  const fs::path binary = c.bin / target, seeds = c.bin / "fuzz-seeds" / target;
  const fs::path corpus = c.work / "corpus" / target, artifacts = c.work / "artifacts" / target;
  fs::create_directories(corpus);
  fs::remove_all(artifacts);
  fs::create_directories(artifacts);
  fs::create_directories(c.work / "logs");
  std::vector<std::string> argv = {binary.string(),
                                   "-fork=" + std::to_string(c.jobs),
                                   "-ignore_crashes=1",
                                   "-ignore_timeouts=1",
                                   "-ignore_ooms=1",
                                   kLimits[0],
                                   kLimits[1],
                                   "-max_total_time=" + std::to_string(c.seconds),
                                   "-artifact_prefix=" + artifacts.string() + "/",
                                   "-print_final_stats=1"};
  if (fs::exists(seeds.string() + ".dict")) argv.push_back("-dict=" + seeds.string() + ".dict");
  argv.push_back(corpus.string());
  if (fs::exists(seeds)) argv.push_back(seeds.string());
  std::cout << target << ": fuzzing " << c.seconds << " s with " << c.jobs << " job(s)..."
            << std::endl;
  const fs::path log = c.work / "logs" / (target + ".log");
  const int code = RunLogged(argv, c, log);
  const std::string text = ReadFile(log);
  ReadStats(text, run);
  if (code != 0 && run.execs == 0) {
    run.failed_to_run = true;
    std::cout << "  did not run (exit " << code << "); see " << log.string() << "\n";
    return run;
  }

  std::map<std::string, int> signatures;
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(artifacts)) found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  for (const fs::path& artifact : found) {
    const std::string name = artifact.filename().string();
    const char* const* kind = std::find_if(std::begin(kFindingPrefixes), std::end(kFindingPrefixes),
                                           [&](const char* p) { return name.rfind(p, 0) == 0; });
    if (kind == std::end(kFindingPrefixes)) continue;
    fs::path input = artifact;
    if (std::string(*kind) == "crash-" || std::string(*kind) == "leak-") {
      const fs::path minimized = artifact.string() + ".min";
      RunLogged({binary.string(), kLimits[0], kLimits[1], "-minimize_crash=1",
                 "-max_total_time=" + std::to_string(std::min(c.seconds, kMaxMinimizeSeconds)),
                 "-exact_artifact_path=" + minimized.string(), artifact.string()},
                c, artifact.string() + ".minimize.log");
      if (fs::exists(minimized)) input = minimized;
    }
    const fs::path repro_log = artifact.string() + ".log";
    RunLogged({binary.string(), kLimits[0], kLimits[1], input.string()}, c, repro_log);
    const std::string summary = Summary(ReadFile(repro_log));
    if (signatures[Signature(summary)]++ >= kFindingsPerSignature) continue;
    std::cout << "  " << *kind << " " << summary << "\n";
    WriteFinding(c, target, *kind, ReadFile(input), summary);
    ++run.findings;
  }
  return run;
}

}  // namespace

int FuzzCommand(const Args& args) {
  CliArgs cli(args, {"--strict"},
              {"--backend", "--seconds", "--jobs", "--target", "--work", "--regressions"});
  if (cli.help()) return Usage("");
  Campaign c;
  c.backend = cli.Get("--backend").value_or(c.backend);
  c.seconds = cli.GetNumber("--seconds").value_or(c.seconds);
  c.jobs = cli.GetNumber("--jobs").value_or(c.jobs);
  c.strict = cli.Has("--strict");
  c.globs = cli.GetAll("--target");
  if (!cli.error().empty() || !cli.positionals().empty() || c.seconds == 0 || c.jobs == 0)
    return Usage(cli.error().empty() ? "bad arguments" : cli.error());
  const char* bin = std::getenv("OPCTS_FUZZ_BIN_DIR");
  c.bin = bin != nullptr && *bin != '\0' ? fs::path(bin) : SelfDir();
  c.work = cli.Get("--work").value_or((c.bin / "fuzz-work").string());
  c.regressions = cli.Get("--regressions").value_or(OPCTS_FUZZ_REGRESSIONS_DIR);

  const std::vector<std::string> built = BuiltTargets(c.bin);
  if (built.empty()) {
    std::cerr << "opcts fuzz: no fuzz targets in " << c.bin.string()
              << " (fuzz-targets.txt is missing). They need clang's libFuzzer; build them with\n"
                 "  cmake --preset fuzz -DOPCTS_VULKAN=OFF && cmake --build --preset fuzz\n"
                 "and run build/fuzz/opcts fuzz (or set OPCTS_FUZZ_BIN_DIR to that folder).\n";
    return 2;
  }
  std::vector<std::string> targets;
  for (const std::string& t : built) {
    const bool wanted =
        c.globs.empty() || std::any_of(c.globs.begin(), c.globs.end(), [&](const std::string& g) {
          return fnmatch(g.c_str(), t.c_str(), 0) == 0;
        });
    if (!wanted) continue;
    if (!fs::exists(c.bin / t)) {
      std::cerr << "opcts fuzz: " << (c.bin / t).string() << " is listed but not built\n";
      return 2;
    }
    targets.push_back(t);
  }
  if (targets.empty()) return Usage("no target matches --target");

  std::vector<TargetRun> runs;
  runs.reserve(targets.size());
  for (const std::string& t : targets) runs.push_back(Fuzz(c, t));
  std::cout << "\n"
            << std::left << std::setw(40) << "target" << std::right << std::setw(12) << "executions"
            << std::setw(10) << "exec/s" << std::setw(10) << "findings"
            << "\n";
  int findings = 0;
  bool broken = false;
  for (const TargetRun& r : runs) {
    std::cout << std::left << std::setw(40) << r.target << std::right << std::setw(12) << r.execs
              << std::setw(10) << static_cast<uint64_t>(r.exec_per_sec) << std::setw(10)
              << (r.failed_to_run ? std::string("error") : std::to_string(r.findings)) << "\n";
    findings += r.findings;
    broken = broken || r.failed_to_run;
  }
  std::cout << "backend " << c.backend << (c.strict ? " (strict)" : "") << ", " << c.seconds
            << " s per target, " << c.jobs << " job(s); " << findings << " finding(s)"
            << (findings ? " written to " + c.regressions.string() : "") << "\n";
  if (broken) return 2;
  return findings ? 1 : 0;
}

}  // namespace opcts
