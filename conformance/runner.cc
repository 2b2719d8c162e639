#include "conformance/runner.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "conformance/case_generator.h"
#include "conformance/worker.h"
#include "reports/journal.h"
#include "reports/status.h"
#include "spec/spec_loader.h"

namespace opcts {
namespace {

bool Glob(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

std::string Now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

nlohmann::json Attributes(const CaseRecipe& c) {
  nlohmann::json a = nlohmann::json::object();
  for (const ParamSpec& p : c.spec->params) {
    auto it = c.params.find(p.name);
    if (it == c.params.end()) continue;
    if (p.type == ParamType::kBool) a[p.name] = it->second != 0;
    else if (p.type == ParamType::kEnum && it->second >= 0 && it->second < static_cast<int64_t>(p.enum_values.size()))
      a[p.name] = p.enum_values[it->second];
    else a[p.name] = it->second;
  }
  for (const auto& [name, t] : c.tensors)
    if (t.values == Values::kScalar) a[name] = t.scalar;
  if (c.in_place) a["in_place"] = true;
  return a;
}

// Live progress on a terminal, a plain line every few seconds otherwise.
class Progress {
 public:
  Progress(uint64_t total, bool enabled) : total_(total), enabled_(enabled), tty_(isatty(2)) {}
  void Update(uint64_t done, uint64_t failures) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (since < (tty_ ? 0.2 : 5.0) && done != total_) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed > 0 ? done / elapsed : 0;
    const double eta = rate > 0 ? (total_ - done) / rate : 0;
    char line[160];
    if (tty_) {
      const int width = 30, filled = total_ ? static_cast<int>(width * done / total_) : width;
      std::snprintf(line, sizeof line, "\r[%-*s] %llu/%llu  %llu failed  %.0f/s  ETA %.0fs ", width,
                    std::string(filled, '#').c_str(), static_cast<unsigned long long>(done),
                    static_cast<unsigned long long>(total_), static_cast<unsigned long long>(failures), rate, eta);
    } else {
      std::snprintf(line, sizeof line, "progress: %llu/%llu cases, %llu failed, %.0f cases/s, ETA %.0fs\n",
                    static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                    static_cast<unsigned long long>(failures), rate, eta);
    }
    std::fputs(line, stderr);
    if (tty_ && done == total_) std::fputs("\n", stderr);
  }

 private:
  uint64_t total_;
  bool enabled_, tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

void PrintSummary(const std::map<std::pair<std::string, std::string>, std::map<std::string, uint64_t>>& counts,
                  std::ostream& out) {
  const std::vector<std::string_view>& statuses = KnownStatuses();
  size_t width = 8;
  for (const auto& [key, by_status] : counts) width = std::max(width, key.first.size() + 2);
  const int backend_width = static_cast<int>(width);
  out << "\n" << std::left << std::setw(backend_width) << "backend" << std::setw(28) << "operator";
  for (std::string_view s : statuses)
    if (s != "Waived") out << std::right << std::setw(static_cast<int>(s.size()) + 2) << s;
  out << "\n";
  for (const auto& [key, by_status] : counts) {
    out << std::left << std::setw(backend_width) << key.first << std::setw(28) << key.second;
    for (std::string_view s : statuses) {
      if (s == "Waived") continue;
      auto it = by_status.find(std::string(s));
      out << std::right << std::setw(static_cast<int>(s.size()) + 2) << (it == by_status.end() ? 0 : it->second);
    }
    out << "\n";
  }
}

}  // namespace

bool CaseFilter::Matches(const CaseRecipe& c) const {
  return (Glob(op, OperatorKey(*c.spec)) || Glob(op, c.spec->name)) &&
         (Glob(dtype, std::string(DTypeName(c.dtype))) || Glob(dtype, std::string(DTypeShortName(c.dtype)))) &&
         Glob(level, c.level) && Glob(id, c.id);
}

std::vector<CaseRecipe> SelectCases(const SpecSet& specs, uint64_t seed, const CaseFilter& filter) {
  std::vector<CaseRecipe> selected;
  uint64_t index = 0;
  for (CaseRecipe& c : GenerateCases(specs, {seed})) {
    if (!filter.Matches(c)) continue;
    if (index++ % filter.shard_count != filter.shard_index) continue;
    selected.push_back(std::move(c));
    if (filter.max_cases && selected.size() >= filter.max_cases) break;
  }
  return selected;
}

bool Claims(const BackendClaims& claims, const OperatorSpec& spec, const std::string& level) {
  if (level.empty()) return false;
  if (spec.scheme == LevelScheme::kOpenVINO)
    return std::find(claims.extra_support.begin(), claims.extra_support.end(), "openvino." + level) !=
           claims.extra_support.end();
  const int claimed = LevelIndex(LevelScheme::kDirectML, claims.feature_level);
  return claimed >= 0 && LevelIndex(LevelScheme::kDirectML, level) <= claimed;
}

bool Claims(const Plugin& plugin, const OperatorSpec& spec, const std::string& level) {
  return Claims(BackendClaims{plugin.FeatureLevel(), plugin.ExtraSupport()}, spec, level);
}

CaseGroup GroupFor(const CaseRecipe& c, const BackendClaims& claims) {
  if (c.group != "valid") return CaseGroup::kInvalid;
  return Claims(claims, *c.spec, c.level) ? CaseGroup::kValid : CaseGroup::kUnclaimed;
}

CaseRecord MakeRecord(const CaseRecipe& c, const std::string& backend, const std::string& plugin_path,
                      uint64_t seed, CaseGroup group, const CaseOutcome& o) {
  CaseRecord r;
  r.id = c.id;
  r.backend = backend;
  r.op = c.spec->name;
  r.dtype = std::string(DTypeName(c.dtype));
  r.level = c.level;
  r.group = group == CaseGroup::kValid ? "valid" : group == CaseGroup::kUnclaimed ? "unclaimed" : "invalid";
  r.layout = c.layout;
  r.values = c.value_tag;
  r.shape = c.shape;
  r.attributes = Attributes(c);
  r.status = o.status;
  r.message = o.message;
  r.max_error = o.max_error;
  r.bound = o.bound;
  r.ulp = o.ulp;
  r.duration_us = o.duration_us;
  r.repro = "opcts repro --backend " + plugin_path + " --seed " + std::to_string(seed) + " " + c.id;
  return r;
}

uint64_t TimeLimitMs(const CaseRecipe& c, const RunOptions& options) {
  if (options.timeout_ms) return options.timeout_ms;
  uint64_t elements = 0;
  for (const auto& [name, t] : c.tensors) elements += ElementCount(t.desc);
  return 5000 + elements / 1000;
}

namespace {

// One backend of the run: in this process (a loaded plugin) or behind worker processes.
struct Backend {
  std::string name;  // as given: a built-in name or a path
  BackendRecord info;
  std::string path;
  std::unique_ptr<Plugin> plugin;  // in-process only
};

// Everything a finished case goes to: the journal, the counts, the failure log, the progress.
class Results {
 public:
  Results(const RunOptions& options, std::ostream& out, uint64_t total)
      : options_(options), out_(out), progress_(total, options.progress) {}

  bool Open(const JournalHeader& header, bool append) {
    const std::string& path = options_.resume.empty() ? options_.journal : options_.resume;
    if (path.empty()) return true;
    auto opened = JournalWriter::Open(path, header, append);
    if (!opened.value) {
      out_ << "opcts run: " << opened.error << "\n";
      return false;
    }
    journal_ = std::move(opened.value);
    return true;
  }

  // `replayed`: a record already in the resumed journal: counted, not written again.
  bool Add(const CaseRecord& r, bool replayed = false) {
    ++counts_[{r.backend, ToLower(r.op)}][r.status];
    ++result_.cases;
    if (IsGateFailure(r.status, options_.strict)) {
      ++result_.failures;
      if (!replayed) out_ << r.status << " " << r.backend << " " << r.id << ": " << r.message << "\n";
    }
    if (replayed) return ++replayed_, true;
    progress_.Update(result_.cases, result_.failures);
    if (journal_ && !journal_->Append(r)) {
      out_ << "opcts run: cannot write the journal\n";
      return false;
    }
    return true;
  }

  RunResult Finish(double seconds, int exit_code) {
    PrintSummary(counts_, out_);
    const uint64_t ran = result_.cases - replayed_;
    out_ << "\n" << ran << " case runs in " << std::fixed << std::setprecision(2) << seconds << " s ("
         << std::setprecision(0) << (seconds > 0 ? ran / seconds : 0) << " per second"
         << (options_.isolation ? ", isolated" : ", in process") << "); " << result_.failures
         << " failed the gate" << (options_.strict ? " (strict)" : "")
         << (replayed_ ? " (counting " + std::to_string(replayed_) + " resumed from the journal)" : "") << "\n";
    result_.exit_code = exit_code ? exit_code : (result_.failures ? 1 : 0);
    return result_;
  }

 private:
  static std::string ToLower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  const RunOptions& options_;
  std::ostream& out_;
  Progress progress_;
  std::optional<JournalWriter> journal_;
  std::map<std::pair<std::string, std::string>, std::map<std::string, uint64_t>> counts_;
  RunResult result_;
  uint64_t replayed_ = 0;
};

// Cases [index] still to run on `backend` (a resumed run skips those already journaled).
std::vector<size_t> Pending(const std::vector<CaseRecipe>& cases, const std::string& backend,
                            const std::set<std::pair<std::string, std::string>>& done) {
  std::vector<size_t> pending;
  for (size_t i = 0; i < cases.size(); ++i)
    if (!done.count({cases[i].id, backend})) pending.push_back(i);
  return pending;
}

bool RunInProcess(const std::vector<CaseRecipe>& cases, std::vector<Backend>& backends, const RunOptions& options,
                  const std::set<std::pair<std::string, std::string>>& done, Results& results) {
  for (const CaseRecipe& c : cases) {
    const Operation op = Materialize(c);
    std::optional<ReferenceResult> expected;  // computed once, shared by the backends
    for (Backend& b : backends) {
      if (done.count({c.id, b.info.name})) continue;
      const CaseGroup group = GroupFor(c, {b.info.feature_level, b.info.extra_support});
      if (group != CaseGroup::kInvalid && !expected) expected = (*FindReferenceKernel(c.spec->reference))(op);
      const CaseOutcome o = ExecuteCase(*b.plugin, op, group, expected ? &*expected : nullptr);
      if (!results.Add(MakeRecord(c, b.info.name, b.path, options.seed, group, o))) return false;
    }
  }
  return true;
}

bool RunIsolated(const std::vector<CaseRecipe>& cases, const Backend& b, std::unique_ptr<Worker> worker,
                 const RunOptions& options, const std::set<std::pair<std::string, std::string>>& done,
                 Results& results) {
  const std::vector<size_t> pending = Pending(cases, b.info.name, done);
  const BackendClaims claims{b.info.feature_level, b.info.extra_support};
  size_t next = 0;
  while (next < pending.size()) {
    if (!worker) {
      Worker::StartError error;
      worker = Worker::Start(cases, b.name, options.backend_options, &error);
      if (!worker) {  // the case in line gets the blame, so the run always moves on
        const CaseRecipe& c = cases[pending[next++]];
        CaseOutcome o;
        o.status = "Crash";
        o.message = "could not restart the worker: " + error.message;
        if (!results.Add(MakeRecord(c, b.info.name, b.path, options.seed, GroupFor(c, claims), o))) return false;
        continue;
      }
    }
    // Contiguous runs of pending cases, sent at once: the worker streams their results.
    for (size_t i = next; i < pending.size();) {
      size_t j = i + 1;
      while (j < pending.size() && pending[j] == pending[j - 1] + 1) ++j;
      worker->Run(pending[i], pending[j - 1] + 1);
      i = j;
    }
    for (; next < pending.size(); ++next) {
      const CaseRecipe& c = cases[pending[next]];
      Worker::Result result;
      std::string why;
      const auto start = std::chrono::steady_clock::now();
      const Worker::Event event = worker->Next(std::chrono::milliseconds(TimeLimitMs(c, options)), &result, &why);
      if (event == Worker::Event::kResult && result.index != pending[next]) {
        why = "the worker answered for case " + std::to_string(result.index) + " instead of " + c.id;
      } else if (event == Worker::Event::kResult) {
        if (!results.Add(MakeRecord(c, b.info.name, b.path, options.seed, result.group, result.outcome))) return false;
        continue;
      }
      CaseOutcome o;
      o.status = event == Worker::Event::kTimedOut ? "Timeout" : "Crash";
      o.message = why;
      o.duration_us = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - start).count());
      if (!results.Add(MakeRecord(c, b.info.name, b.path, options.seed, GroupFor(c, claims), o))) return false;
      worker.reset();
      ++next;
      break;
    }
  }
  return true;
}

}  // namespace

RunResult RunConformance(const SpecSet& specs, const RunOptions& options, std::ostream& out) {
  std::vector<std::string> names = options.backends.empty() ? BuiltinBackendNames() : options.backends;
  if (names.empty()) {
    out << "opcts run: no backends (none given, and no built-ins in " << BuiltinPluginDir() << ")\n";
    return {2};
  }
  JournalHeader header;
  header.opcts_version = "0.1.0";
  header.started = Now();
  header.seed = options.seed;
  header.shard_index = options.filter.shard_index;
  header.shard_count = options.filter.shard_count;
  header.filters = {{"op", options.filter.op}, {"dtype", options.filter.dtype},
                    {"level", options.filter.level}, {"id", options.filter.id}};

  // A resumed run continues its journal: same selection, and its cases are not run again.
  std::set<std::pair<std::string, std::string>> done;
  std::vector<CaseRecord> replayed;
  if (!options.resume.empty()) {
    auto journal = ReadJournal(options.resume);
    if (!journal.value) {
      out << "opcts run --resume: " << journal.error << "\n";
      return {2};
    }
    const JournalHeader& old = journal.value->header;
    if (old.seed != header.seed || old.filters != header.filters || old.shard_index != header.shard_index ||
        old.shard_count != header.shard_count) {
      out << "opcts run --resume: " << options.resume
          << " was written with other --seed, filters or --shard; give the same options to resume it\n";
      return {2};
    }
    for (const CaseRecord& r : journal.value->cases) done.insert({r.id, r.backend});
    replayed = std::move(journal.value->cases);
    for (const std::string& w : journal.value->warnings) out << "warning: " << w << "\n";
    out << "resuming " << options.resume << ": " << done.size() << " case runs already journaled\n";
  }

  int exit_code = 0;
  std::vector<Backend> backends;
  std::vector<std::unique_ptr<Worker>> workers;
  const std::vector<CaseRecipe> cases = SelectCases(specs, options.seed, options.filter);
  for (const std::string& name : names) {
    Backend b{name, {}, {}, nullptr};
    std::string error;
    bool unavailable = false;
    std::unique_ptr<Worker> worker;
    if (options.isolation) {
      Worker::StartError start_error;
      worker = Worker::Start(cases, name, options.backend_options, &start_error);
      if (worker) {
        b.info = worker->info();
        b.path = worker->plugin_path();
      }
      error = start_error.message;
      unavailable = start_error.unavailable;
    } else {
      PluginLoad load = LoadPlugin(name, options.backend_options);
      if (load.plugin) {
        const opcts_backend_info& i = load.plugin->info();
        b.info = {i.name, i.version, i.device, load.plugin->FeatureLevel(), load.plugin->ExtraSupport(),
                  i.details ? i.details : ""};
        b.path = load.plugin->path();
        b.plugin = std::move(load.plugin);
      }
      error = load.error;
      unavailable = load.unavailable;
    }
    if (b.info.name.empty()) {
      out << "backend " << name << ": " << (unavailable ? "UNAVAILABLE: " : "ERROR: ") << error << "\n";
      if (!(unavailable && options.allow_unavailable)) exit_code = std::max(exit_code, unavailable ? 1 : 2);
      continue;
    }
    std::string extra;
    for (const std::string& e : b.info.extra_support) extra += " + " + e;
    out << "backend " << b.info.name << " " << b.info.version << " on " << b.info.device << ": claims feature level "
        << b.info.feature_level << extra << "\n";
    if (!b.info.details.empty()) out << "  " << b.info.details << "\n";
    header.backends.push_back(b.info);
    backends.push_back(std::move(b));
    workers.push_back(std::move(worker));
  }
  if (exit_code == 2 || backends.empty()) return {exit_code ? exit_code : 2};

  header.planned_cases = cases.size() * backends.size();
  Results results(options, out, header.planned_cases);
  if (!results.Open(header, !options.resume.empty())) return {2};
  for (const CaseRecord& r : replayed) results.Add(r, /*replayed=*/true);
  out << "running " << cases.size() << " cases on " << backends.size() << " backend(s)"
      << (options.isolation ? " in worker processes" : " in this process") << "\n";
  const auto start = std::chrono::steady_clock::now();
  bool written = true;
  if (options.isolation) {
    for (size_t i = 0; i < backends.size() && written; ++i)
      written = RunIsolated(cases, backends[i], std::move(workers[i]), options, done, results);
  } else {
    written = RunInProcess(cases, backends, options, done, results);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return results.Finish(seconds, written ? exit_code : 2);
}

}  // namespace opcts
