#include "fuzz/campaign.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include <fuzzer/FuzzedDataProvider.h>

#include "base/shell_word.h"
#include "conformance/case_generator.h"
#include "conformance/case_run.h"
#include "conformance/repro_command.h"
#include "fuzz/embedded_specs.h"
#include "fuzz/finding_vector.h"
#include "fuzz/fuzz_case.h"
#include "fuzz/libfuzzer_log.h"
#include "fuzz/process_pool.h"
#include "reports/text_escape.h"

namespace fs = std::filesystem;

namespace opcts {
namespace {

constexpr const char* kTargetPrefix = "opcts_fuzz_";
constexpr const char* kFindingPrefixes[] = {"crash-", "leak-", "timeout-", "oom-"};
// One input running longer is a hang. Targets use tens of MiB; at the memory limit libFuzzer
// prints a heap profile, which takes minutes for a heap of millions of small blocks at the
// default 2048 MiB.
const std::string kTimeoutFlag = "-timeout=5", kRssFlag = "-rss_limit_mb=1024";
// A window shorter than this is not worth a (re)start: loading the corpus takes about a second.
constexpr double kMinWindowSeconds = 2;
// Restarts of one window after findings: a target that crashes on every input must not spin.
constexpr uint64_t kMaxRestarts = 100;
// Shares of the triage time: minimizing ends at 60 %, merging corpora at 90 %.
constexpr double kMinimizeShare = 0.6, kMergeShare = 0.9;
constexpr double kMaxMinimizeSeconds = 10;

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

const OperatorSpec* DifferentialSpec(const std::string& target) {
  for (const OperatorSpec& spec : EmbeddedSpecSet().specs)
    if (target == kTargetPrefix + OperatorKey(spec)) return &spec;
  return nullptr;
}

// A differential finding as a vector (FuzzFinding); nullopt when the bytes make no case (kept
// raw).
std::optional<TestVector> AsVector(const OperatorSpec& spec, const std::string& bytes,
                                   const std::string& source) {
  FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  std::optional<Operation> op = DecodeOperation(spec, fdp);
  if (!op) return std::nullopt;
  PreparedCase prepared(std::move(*op));
  return FuzzFinding(prepared, bytes, source);
}

// A finding as its process reported it.
struct RawFinding {
  size_t target = 0;
  fs::path input;
  std::string signature, summary;
  double seen = 0;
};

// One fuzzing window of one target: its processes, one after another.
struct Window {
  size_t target = 0;
  double end = 0;
  uint64_t restarts = 0;
  double started = 0;  // of the process running now
  ProcessLog log;
};

class CampaignRun {
 public:
  CampaignRun(const CampaignOptions& o, std::ostream& progress)
      : o_(o), progress_(progress), start_(ProcessPool::Clock::now()) {}

  FuzzCampaign Run();

 private:
  fs::path Corpus(const std::string& target) const {
    return (o_.corpus_dir.empty() ? o_.work / "corpus" : o_.corpus_dir) / target;
  }
  std::map<std::string, std::string> Environment(const std::string& hits) const;
  Command FuzzCommand(size_t window);
  void Fuzz();
  void CollectHits();
  void Minimize(double until);
  void MergeCorpora(double until);
  void Keep(CampaignFinding& finding, const RawFinding& raw);

  const CampaignOptions& o_;
  std::ostream& progress_;
  ProcessPool::Clock::time_point start_;
  FuzzCampaign c_;
  std::vector<Window> windows_;
  std::vector<RawFinding> raw_;
  uint64_t processes_ = 0;
  std::map<std::string, size_t> new_;  // signature -> index in c_.findings
  std::map<std::string, RawFinding> representative_;
};

std::map<std::string, std::string> CampaignRun::Environment(const std::string& hits) const {
  std::map<std::string, std::string> env = {{"OPCTS_FUZZ_BACKEND", o_.backend},
                                            {"OPCTS_FUZZ_BACKEND_OPTIONS", o_.backend_options},
                                            {"OPCTS_FUZZ_STRICT", o_.strict ? "1" : "0"},
                                            {"OPCTS_FUZZ_KNOWN", (o_.work / "known.tsv").string()},
                                            {"OPCTS_FUZZ_REGRESSIONS", o_.regressions.string()},
                                            {"OPCTS_FUZZ_HITS", hits}};
  if (!o_.waivers.empty()) env["OPCTS_FUZZ_WAIVERS"] = o_.waivers;
  return env;
}

// Its -max_total_time is added when it starts (StartWindow): what is left of the window.
Command CampaignRun::FuzzCommand(size_t window) {
  const std::string& target = o_.targets[windows_[window].target];
  const fs::path seeds = o_.bin / "fuzz-seeds" / target;
  Command c;
  c.job = window;
  c.deadline = windows_[window].end + 1;  // libFuzzer stops itself; this is the backstop
  c.log = (o_.work / "logs" / (target + ".log")).string();
  c.env = Environment(
      (o_.work / "hits" / (target + "." + std::to_string(processes_++) + ".tsv")).string());
  c.argv = {(o_.bin / target).string(), kTimeoutFlag, kRssFlag,
            "-artifact_prefix=" + (o_.work / "artifacts" / target).string() + "/",
            "-print_final_stats=1"};
  if (fs::exists(seeds.string() + ".dict")) c.argv.push_back("-dict=" + seeds.string() + ".dict");
  c.argv.push_back(Corpus(target).string());
  if (fs::exists(seeds)) c.argv.push_back(seeds.string());
  return c;
}

void CampaignRun::Fuzz() {
  const Windows plan = PlanWindows(o_.seconds, o_.jobs, o_.targets.size());
  for (size_t t = 0; t < o_.targets.size(); ++t)
    for (uint64_t p = 0; p < plan.parts; ++p) {
      windows_.emplace_back();
      windows_.back().target = t;
    }
  ProcessPool pool(o_.jobs, start_);
  for (size_t i = 0; i < windows_.size(); ++i) {
    const uint64_t round = i / o_.jobs;  // windows of one round run side by side
    windows_[i].end = static_cast<double>(round + 1) * plan.length;
    pool.Add(FuzzCommand(i));
  }
  progress_ << "opcts fuzz: " << o_.seconds << " s of fuzzing: " << o_.targets.size()
            << " target(s) in windows of " << std::fixed << std::setprecision(1) << plan.length
            << " s on " << o_.jobs << " process(es); then triage, at most " << std::setprecision(0)
            << o_.triage_seconds << " s" << std::endl;
  std::vector<bool> announced(o_.targets.size());
  std::vector<int> last_exit(o_.targets.size());
  std::vector<std::string> start_error(o_.targets.size());  // the last "cannot start" reason
  pool.Run(
      [&](Command& c, double t) {
        Window& w = windows_[c.job];
        w.started = t;
        w.log = ProcessLog();
        const double left = std::max(1.0, std::floor(w.end - t));
        c.argv.insert(c.argv.begin() + 1,
                      "-max_total_time=" + std::to_string(static_cast<uint64_t>(left)));
      },
      [&](size_t job, double t, std::string_view line) {
        Window& w = windows_[job];
        if (!announced[w.target]) {
          announced[w.target] = true;
          progress_ << std::setprecision(1) << "  " << t << " s: fuzzing " << o_.targets[w.target]
                    << std::endl;
        }
        w.log.Read(t, line);
      },
      [&](size_t job, int code, double t) -> std::optional<Command> {
        Window& w = windows_[job];
        TargetCampaign& target = c_.targets[w.target];
        target.executions += w.log.executions;
        target.seconds += t - w.started;
        ++target.processes;
        target.coverage.insert(target.coverage.end(), w.log.coverage.begin(), w.log.coverage.end());
        const std::string name = fs::path(w.log.artifact).filename().string();
        const bool finding = std::any_of(std::begin(kFindingPrefixes), std::end(kFindingPrefixes),
                                         [&](const char* p) { return name.rfind(p, 0) == 0; });
        bool again = finding;
        if (finding && fs::exists(w.log.artifact)) {
          RawFinding raw{w.target, w.log.artifact, w.log.Signature(o_.targets[w.target]),
                         w.log.summary, w.log.found_at >= 0 ? w.log.found_at : t};
          if (!representative_.count(raw.signature))
            progress_ << std::setprecision(1) << "  " << raw.seen << " s: " << o_.targets[w.target]
                      << ": new: " << raw.signature << std::endl;
          // A crash the target cannot count as known (a sanitizer's, not a mismatch) seen again
          // would be found again at once: the window stops rather than spin.
          else if (w.log.signature.empty())
            again = false;
          representative_.emplace(raw.signature, raw);
          raw_.push_back(raw);
        }
        last_exit[w.target] = code;
        if (!w.log.start_error.empty()) start_error[w.target] = w.log.start_error;
        if (!again || t + kMinWindowSeconds > w.end || ++w.restarts > kMaxRestarts)
          return std::nullopt;
        return FuzzCommand(job);
      });
  c_.fuzz_seconds = pool.Now();
  // A target that executed no input proved nothing: the campaign must not pass on it.
  for (size_t i = 0; i < c_.targets.size(); ++i)
    if (c_.targets[i].executions == 0)
      c_.targets[i].error =
          "executed no input (last exit " + std::to_string(last_exit[i]) + ")" +
          (start_error[i].empty() ? "" : ": it could not start: " + start_error[i]) + "; see " +
          (o_.work / "logs" / (o_.targets[i] + ".log")).string();
  // The best coverage so far over time: windows of one target side by side interleave, and a
  // restart starts again from what its corpus covers.
  for (TargetCampaign& t : c_.targets) {
    std::stable_sort(
        t.coverage.begin(), t.coverage.end(),
        [](const CoveragePoint& a, const CoveragePoint& b) { return a.seconds < b.seconds; });
    for (size_t i = 1; i < t.coverage.size(); ++i)
      t.coverage[i].cov = std::max(t.coverage[i].cov, t.coverage[i - 1].cov);
  }
}

// Known findings, and the later inputs of new ones, as the processes counted them.
void CampaignRun::CollectHits() {
  std::map<std::pair<std::string, std::string>, std::pair<std::string, uint64_t>> hits;
  if (fs::is_directory(o_.work / "hits"))
    for (const auto& entry : fs::directory_iterator(o_.work / "hits")) {
      if (entry.path().extension() != ".tsv") continue;
      const std::string file = entry.path().filename().string();
      const std::string target = file.substr(0, file.find('.'));
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) {
        const size_t a = line.find('\t'), b = line.rfind('\t');
        if (a == std::string::npos || a == b) continue;
        auto& [where, count] = hits[{line.substr(0, a), line.substr(a + 1, b - a - 1)}];
        where = target;
        count += std::strtoull(line.c_str() + b + 1, nullptr, 10);
      }
    }
  for (const auto& [key, value] : hits) {
    const auto& [signature, source] = key;
    if (const auto found = new_.find(signature); found != new_.end()) {
      c_.findings[found->second].count += value.second;
      continue;
    }
    CampaignFinding known;
    known.signature = signature;
    known.target = value.first;
    // "new" without an input: a process recorded it but was stopped before writing the input.
    known.known = source == "new" ? "" : source;
    if (source == "new") known.minimized = "its input was not written (the process was stopped)";
    known.count = value.second;
    c_.findings.push_back(known);
  }
}

void CampaignRun::Minimize(double until) {
  std::vector<std::string> signatures;
  for (const auto& [signature, raw] : representative_) {
    CampaignFinding& f = c_.findings[new_.at(signature)];
    const std::string kind = fs::path(raw.input).filename().string();
    if (kind.rfind("crash-", 0) != 0 && kind.rfind("leak-", 0) != 0)
      f.minimized = "not minimized (a " + kind.substr(0, kind.find('-')) + " is kept as found)";
    else
      signatures.push_back(signature);
  }
  if (signatures.empty()) return;
  ProcessPool pool(o_.jobs, start_);
  const double now = pool.Now();
  const double each =
      std::min(kMaxMinimizeSeconds, std::max(1.0, (until - now) * static_cast<double>(o_.jobs) /
                                                      static_cast<double>(signatures.size())));
  std::map<size_t, double> started;
  for (size_t i = 0; i < signatures.size(); ++i) {
    const RawFinding& raw = representative_.at(signatures[i]);
    const std::string& target = o_.targets[raw.target];
    Command c;
    c.job = i;
    c.deadline = until;
    c.log = raw.input.string() + ".minimize.log";
    c.env = Environment((o_.work / "hits" / "minimize.ignored").string());
    // Pinned to its signature: a smaller input failing another way is not this finding.
    if (DifferentialSpec(target) != nullptr) c.env["OPCTS_FUZZ_ONLY"] = signatures[i];
    c.argv = {(o_.bin / target).string(),
              kTimeoutFlag,
              kRssFlag,
              "-minimize_crash=1",
              "-max_total_time=" + std::to_string(static_cast<uint64_t>(each)),
              "-exact_artifact_path=" + raw.input.string() + ".min",
              raw.input.string()};
    pool.Add(std::move(c));
  }
  pool.Run(
      [&](Command& c, double t) {
        started[c.job] = t;
        progress_ << std::setprecision(1) << "  " << t << " s: minimizing " << c.job + 1 << "/"
                  << signatures.size() << ": " << signatures[c.job] << std::endl;
      },
      [](size_t, double, std::string_view) {},
      [&](size_t job, int, double t) -> std::optional<Command> {
        const RawFinding& raw = representative_.at(signatures[job]);
        CampaignFinding& f = c_.findings[new_.at(signatures[job])];
        const fs::path min = raw.input.string() + ".min";
        const uint64_t from = fs::file_size(raw.input);
        std::error_code ec;
        const uint64_t to = fs::exists(min, ec) ? fs::file_size(min, ec) : from;
        f.minimized = std::to_string(from) + " → " + std::to_string(to) + " bytes in " +
                      std::to_string(static_cast<int>(std::lround(t - started[job]))) + " s";
        return std::nullopt;
      });
}

void CampaignRun::MergeCorpora(double until) {
  if (o_.corpus_dir.empty()) {
    for (TargetCampaign& t : c_.targets) t.corpus = "fresh, not kept";
    return;
  }
  ProcessPool pool(o_.jobs, start_);
  for (size_t i = 0; i < o_.targets.size(); ++i) {
    const fs::path corpus = Corpus(o_.targets[i]), merged = corpus.string() + ".merged";
    fs::remove_all(merged);
    fs::create_directories(merged);
    Command c;
    c.job = i;
    c.deadline = until;
    c.log = (o_.work / "logs" / (o_.targets[i] + ".merge.log")).string();
    c.env = Environment((o_.work / "hits" / "merge.ignored").string());
    c.argv = {(o_.bin / o_.targets[i]).string(),
              kTimeoutFlag,
              kRssFlag,
              "-merge=1",
              merged.string(),
              corpus.string()};
    pool.Add(std::move(c));
  }
  progress_ << std::setprecision(1) << "  " << pool.Now() << " s: merging the corpora in "
            << o_.corpus_dir.string() << std::endl;
  pool.Run([](Command&, double) {}, [](size_t, double, std::string_view) {},
           [&](size_t job, int code, double) -> std::optional<Command> {
             const fs::path corpus = Corpus(o_.targets[job]), merged = corpus.string() + ".merged";
             TargetCampaign& t = c_.targets[job];
             const auto count = [](const fs::path& dir) {
               return static_cast<uint64_t>(std::distance(fs::directory_iterator(dir), {}));
             };
             const uint64_t before = count(corpus);
             if (code == 0) {
               fs::remove_all(corpus);
               fs::rename(merged, corpus);
               t.corpus = "merged " + std::to_string(before) + " → " +
                          std::to_string(count(corpus)) + " inputs, kept";
             } else {
               fs::remove_all(merged);
               t.corpus = "kept unmerged (the merge " +
                          std::string(code >= 128 ? "ran out of triage time" : "failed") + ")";
             }
             return std::nullopt;
           });
}

// The finding's input (minimized where that worked) into the regression corpus and the report:
// a differential one as a vector, anything else raw.
void CampaignRun::Keep(CampaignFinding& f, const RawFinding& raw) {
  const std::string& target = o_.targets[raw.target];
  const fs::path min = raw.input.string() + ".min";
  std::error_code ec;
  fs::path input = fs::exists(min, ec) && fs::file_size(min, ec) > 0 ? min : raw.input;
  const std::string bytes = ReadBytes(input);
  f.input = input.string();
  f.input_bytes = bytes.size();
  const fs::path findings = o_.report_dir / "findings";
  if (!o_.report_dir.empty()) fs::create_directories(findings);
  const std::string source =
      "opcts fuzz " + target + " --backend " + o_.backend + ", first seen as: " + raw.summary;
  if (const OperatorSpec* spec = DifferentialSpec(target)) {
    if (const std::optional<TestVector> v = AsVector(*spec, bytes, source)) {
      const std::string json = VectorToJson(*v).dump(1) + "\n";
      fs::create_directories(o_.regressions);
      const fs::path kept = o_.regressions / (v->name + ".json");
      std::ofstream(kept) << json;
      f.vector = kept.string();
      if (!o_.report_dir.empty()) {
        std::ofstream(findings / (v->name + ".json")) << json;
        f.vector = "findings/" + v->name + ".json";
      }
      f.repro = VectorsCommand(o_.backend, {o_.backend_options, FloatRules::kPlatform}, f.vector);
      return;
    }
  }
  const std::string name = fs::path(raw.input).filename().string();
  const fs::path dir = o_.regressions / target;
  fs::create_directories(dir);
  const fs::path kept = dir / (name.substr(0, name.find('-') + 1) + InputHash(bytes));
  std::ofstream(kept, std::ios::binary) << bytes;
  f.input = kept.string();
  if (!o_.report_dir.empty()) {
    std::ofstream(findings / (target + "." + kept.filename().string()), std::ios::binary) << bytes;
    f.input = "findings/" + target + "." + kept.filename().string();
  }
  f.repro = "OPCTS_FUZZ_BACKEND=" + ShellWord(o_.backend) +
            (o_.backend_options.empty()
                 ? ""
                 : " OPCTS_FUZZ_BACKEND_OPTIONS=" + ShellWord(o_.backend_options)) +
            " " + ShellWord((o_.bin / target).string()) + " " + ShellWord(f.input);
}

FuzzCampaign CampaignRun::Run() {
  c_.backend = o_.backend;
  c_.backend_options = o_.backend_options;
  c_.strict = o_.strict;
  c_.seconds = o_.seconds;
  c_.jobs = o_.jobs;
  c_.started = UtcNow();
  c_.triage_limit = o_.triage_seconds;
  for (const char* dir : {"artifacts", "hits", "logs"}) fs::remove_all(o_.work / dir);
  if (o_.corpus_dir.empty()) fs::remove_all(o_.work / "corpus");
  for (const std::string& t : o_.targets) {
    fs::create_directories(o_.work / "artifacts" / t);
    fs::create_directories(Corpus(t));
    c_.targets.emplace_back();
    c_.targets.back().target = t;
  }
  fs::create_directories(o_.work / "hits");
  fs::create_directories(o_.work / "logs");
  std::ofstream(o_.work / "known.tsv", std::ios::trunc).close();

  Fuzz();
  const double triage_end = c_.fuzz_seconds + o_.triage_seconds;
  progress_ << std::setprecision(1) << "  " << c_.fuzz_seconds << " s: fuzzing done; triage of "
            << raw_.size() << " finding input(s) in " << representative_.size()
            << " new signature(s)" << std::endl;
  for (const auto& [signature, raw] : representative_) {
    CampaignFinding f;
    f.signature = signature;
    f.target = o_.targets[raw.target];
    f.summary = raw.summary;
    f.first_seen = raw.seen;
    for (const RawFinding& r : raw_)
      if (r.signature == signature) {
        ++f.count;
        f.first_seen = std::min(f.first_seen, r.seen);
      }
    new_[signature] = c_.findings.size();
    c_.findings.push_back(f);
  }
  // The smallest input of each signature represents it.
  for (const RawFinding& r : raw_) {
    RawFinding& best = representative_.at(r.signature);
    std::error_code ec;
    if (fs::file_size(r.input, ec) < fs::file_size(best.input, ec)) best = r;
  }
  CollectHits();
  Minimize(c_.fuzz_seconds + kMinimizeShare * o_.triage_seconds);
  MergeCorpora(c_.fuzz_seconds + kMergeShare * o_.triage_seconds);
  for (const auto& [signature, raw] : representative_) Keep(c_.findings[new_.at(signature)], raw);
  for (TargetCampaign& t : c_.targets)
    t.corpus_files = static_cast<uint64_t>(
        std::distance(fs::directory_iterator(Corpus(t.target)), fs::directory_iterator()));
  std::stable_sort(c_.findings.begin(), c_.findings.end(),
                   [](const CampaignFinding& a, const CampaignFinding& b) {
                     return a.known.empty() > b.known.empty();
                   });
  const double end = std::chrono::duration<double>(ProcessPool::Clock::now() - start_).count();
  c_.triage_seconds = end - c_.fuzz_seconds;
  if (end > triage_end)
    progress_ << "  triage took " << c_.triage_seconds << " s, over its limit" << std::endl;
  return c_;
}

}  // namespace

Windows PlanWindows(uint64_t seconds, uint64_t jobs, size_t targets) {
  Windows w;
  if (targets == 0 || jobs == 0) return w;
  w.parts = std::max<uint64_t>(1, (jobs + targets - 1) / targets);
  const uint64_t windows = targets * w.parts;
  const uint64_t rounds = (windows + jobs - 1) / jobs;
  w.length = static_cast<double>(seconds) / static_cast<double>(rounds);
  return w;
}

FuzzCampaign RunCampaign(const CampaignOptions& options, std::ostream& progress) {
  return CampaignRun(options, progress).Run();
}

}  // namespace opcts
