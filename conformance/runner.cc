#include "conformance/runner.h"

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
#include "conformance/group_shrink.h"
#include "conformance/repro_command.h"
#include "conformance/stop_signal.h"
#include "conformance/worker.h"
#include "opcts/version.h"
#include "reports/journal.h"
#include "reports/status.h"
#include "reports/text_escape.h"
#include "reports/waivers.h"
#include "spec/spec_loader.h"

namespace opcts {
namespace {

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
    if (p.type == ParamType::kBool)
      a[p.name] = it->second != 0;
    else if (p.type == ParamType::kEnum && it->second >= 0 &&
             it->second < static_cast<int64_t>(p.enum_values.size()))
      a[p.name] = p.enum_values[it->second];
    else
      a[p.name] = it->second;
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
                    static_cast<unsigned long long>(total_),
                    static_cast<unsigned long long>(failures), rate, eta);
    } else {
      std::snprintf(line, sizeof line,
                    "progress: %llu/%llu cases, %llu failed, %.0f cases/s, ETA %.0fs\n",
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

using StatusCountsByOperator =
    std::map<std::pair<std::string, std::string>, std::map<Status, uint64_t>>;

// A run records no Waived case (waivers apply in the reports), so its column is left out.
void PrintSummary(const StatusCountsByOperator& counts, std::ostream& out) {
  size_t width = 8;
  for (const auto& [key, by_status] : counts) width = std::max(width, key.first.size() + 2);
  const int backend_width = static_cast<int>(width);
  out << "\n" << std::left << std::setw(backend_width) << "backend" << std::setw(28) << "operator";
  for (Status s : AllStatuses())
    if (s != Status::kWaived)
      out << std::right << std::setw(static_cast<int>(StatusName(s).size()) + 2) << StatusName(s);
  out << "\n";
  for (const auto& [key, by_status] : counts) {
    out << std::left << std::setw(backend_width) << key.first << std::setw(28) << key.second;
    for (Status s : AllStatuses()) {
      if (s == Status::kWaived) continue;
      auto it = by_status.find(s);
      out << std::right << std::setw(static_cast<int>(StatusName(s).size()) + 2)
          << (it == by_status.end() ? 0 : it->second);
    }
    out << "\n";
  }
}

}  // namespace

uint64_t MemoryLimitBytes(const RunOptions& options) {
  if (options.memory_limit_mib) return options.memory_limit_mib << 20;
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 2;
}

uint64_t StartLimitMs(const RunOptions& options) {
  return options.timeout_ms ? options.timeout_ms : 60000;
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
  std::string name;     // as given, without its own options: a built-in name or a path
  std::string options;  // its create() options
  BackendRecord info;   // info.name: the plugin's, with "@" and its own options if it had them
  std::string path;
  std::unique_ptr<Plugin> plugin;  // in-process only
  std::string start_failure;       // why it crashed or hung while loading; its cases get that
};

// The journal line of one case on `b`; its repro as the run ran it.
CaseRecord MakeRecord(const CaseRecipe& c, const Backend& b, const RunOptions& options,
                      CaseGroup group, const CaseOutcome& o) {
  CaseRecord r;
  r.id = c.id;
  r.backend = b.info.name;
  r.op = c.spec->name;
  r.dtype = std::string(DTypeName(c.dtype));
  r.level = c.level;
  r.group = group;
  r.layout = std::string(LayoutName(c.layout));
  r.values = c.value_tag;
  r.shape = c.shape;
  r.attributes = Attributes(c);
  r.status = o.status;
  r.message = o.message;
  r.behaviour = o.behaviour;
  r.max_error = o.max_error;
  r.bound = o.bound;
  r.ulp = o.ulp;
  r.duration_us = o.duration_us;
  r.repro = ReproCommand(b.path, {b.options, options.float_rules}, options.seed, c.id);
  return r;
}

// Everything a finished case goes to: the journal, the counts, the failure log, the progress.
// The verdict comes from the reports' model over every record (resumed ones included), so the
// run and `opcts report` on its journal never disagree.
class Results {
 public:
  Results(const RunOptions& options, std::ostream& out, std::ostream& err, JournalHeader header)
      : options_(options),
        out_(out),
        err_(err),
        header_(std::move(header)),
        progress_(header_.planned_cases, options.progress) {}

  bool Open(bool append) {
    if (JournalPath().empty()) return true;
    Result<JournalWriter> opened = JournalWriter::Open(JournalPath(), header_, append);
    if (!opened) {
      err_ << "opcts run: " << opened.error().message << "\n";
      return false;
    }
    journal_ = std::move(opened).value();
    return true;
  }

  // `replayed`: a record already in the resumed journal: counted, not written again.
  bool Add(const CaseRecord& r, bool replayed = false) {
    ++counts_[{r.backend, ToLower(r.op)}][r.status];
    records_.push_back(r);
    if (IsGateFailure(r.status, options_.strict)) {
      ++failures_;
      if (!replayed)
        out_ << StatusName(r.status) << " " << r.backend << " " << r.id << ": "
             << TerminalSafe(r.message) << "\n";
    }
    if (replayed) return ++replayed_, true;
    progress_.Update(records_.size(), failures_);
    if (journal_) {
      if (Result<void> appended = journal_->Append(r); !appended) {
        err_ << "opcts run: " << appended.error().message << "\n";
        return false;
      }
    }
    return true;
  }

  // A worker's memory over its cases (nothing for one that finished none).
  bool Add(const MemoryRecord& m) {
    if (m.cases == 0) return true;
    memory_.push_back(m);
    if (m.leaking) out_ << "backend " << TerminalSafe(m.backend) << ": " << DescribeLeak(m) << "\n";
    if (!journal_) return true;
    if (Result<void> appended = journal_->Append(m); !appended) {
      err_ << "opcts run: " << appended.error().message << "\n";
      return false;
    }
    return true;
  }
  // Those of the resumed journal: kept for the report, not written again.
  void Replay(std::vector<MemoryRecord> memory, std::vector<ShrunkRecord> shrunk) {
    memory_ = std::move(memory);
    shrunk_ = std::move(shrunk);
  }

  bool Add(const ShrunkRecord& s) {
    shrunk_.push_back(s);
    if (!journal_) return true;
    if (Result<void> appended = journal_->Append(s); !appended) {
      err_ << "opcts run: " << appended.error().message << "\n";
      return false;
    }
    return true;
  }

  // The report of the cases so far (failure groups for shrinking).
  Result<Report> Preview() const {
    return BuildReport({{"this run", Journal{header_, records_, {}, {}, {}}}}, {},
                       RunReportOptions(options_, 0));
  }

  RunResult Finish(double seconds, int exit_code, int stop_signal) {
    PrintSummary(counts_, out_);
    const uint64_t ran = records_.size() - replayed_;
    out_ << "\n"
         << ran << " case runs in " << std::fixed << std::setprecision(2) << seconds << " s ("
         << std::setprecision(0) << (seconds > 0 ? ran / seconds : 0) << " per second"
         << (options_.isolation ? ", isolated" : ", in process") << "); " << failures_
         << " failed the gate" << (options_.strict ? " (strict)" : "")
         << (replayed_ ? " (counting " + std::to_string(replayed_) + " resumed from the journal)"
                       : "")
         << "\n";
    Journal journal{header_, std::move(records_), std::move(memory_), std::move(shrunk_), {}};
    const Result<Report> report = BuildReport({{"this run", std::move(journal)}}, {},
                                              RunReportOptions(options_, stop_signal));
    RunResult result{0, ran + replayed_, failures_, stop_signal};
    if (!report) {  // a duplicate case id: the resume checks make this unreachable
      err_ << "opcts run: " << report.error().message << "\n";
      result.exit_code = 2;
      return result;
    }
    out_ << "\n" << RenderCoverageTable(*report);
    for (const BackendSummary& backend : report->backends)
      if (backend.platform_rule_passes)
        out_ << TerminalSafe(backend.info.name) << ": " << backend.platform_rule_passes
             << " case(s) passed only under the platform's float rules (--float-rules ieee "
                "fails them)\n";
    out_ << "gate " << (report->Passed() ? "passed" : "FAILED") << "\n";
    for (const std::string& reason : report->gate_reasons)
      out_ << "  - " << TerminalSafe(reason) << "\n";
    if (stop_signal)
      result.exit_code = 128 + stop_signal;
    else if (exit_code == 2)
      result.exit_code = 2;
    else
      result.exit_code = std::max(exit_code, report->Passed() ? 0 : 1);
    return result;
  }

 private:
  const std::string& JournalPath() const {
    return options_.resume.empty() ? options_.journal : options_.resume;
  }
  static std::string ToLower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  const RunOptions& options_;
  std::ostream& out_;
  std::ostream& err_;
  JournalHeader header_;
  Progress progress_;
  std::optional<JournalWriter> journal_;
  StatusCountsByOperator counts_;
  std::vector<CaseRecord> records_;
  std::vector<MemoryRecord> memory_;
  std::vector<ShrunkRecord> shrunk_;
  uint64_t failures_ = 0, replayed_ = 0;
};

// Cases [index] still to run on `backend` (a resumed run skips those already journaled).
std::vector<size_t> Pending(const std::vector<CaseRecipe>& cases, const std::string& backend,
                            const std::set<std::pair<std::string, std::string>>& done) {
  std::vector<size_t> pending;
  for (size_t i = 0; i < cases.size(); ++i)
    if (!done.count({cases[i].id, backend})) pending.push_back(i);
  return pending;
}

enum class Stop { kDone, kJournalFailed, kSignalled };

Stop RunInProcess(const std::vector<CaseRecipe>& cases, std::vector<Backend>& backends,
                  const RunOptions& options,
                  const std::set<std::pair<std::string, std::string>>& done, Results& results) {
  for (const CaseRecipe& c : cases) {
    if (StopSignal()) return Stop::kSignalled;
    PreparedCase prepared(c);  // the reference runs once, shared by the backends
    for (Backend& b : backends) {
      if (done.count({c.id, b.info.name})) continue;
      const CaseVerdict v =
          RunCase(*b.plugin, prepared, GroupFor(c, {b.info.feature_level, b.info.extra_support}),
                  {.float_rules = options.float_rules});
      if (!results.Add(MakeRecord(c, b, options, v.group, v.outcome))) return Stop::kJournalFailed;
    }
  }
  return Stop::kDone;
}

Stop RunIsolated(const std::vector<CaseRecipe>& cases, const Backend& b,
                 std::unique_ptr<Worker> worker, const RunOptions& options,
                 const std::set<std::pair<std::string, std::string>>& done, Results& results) {
  const std::vector<size_t> pending = Pending(cases, b.info.name, done);
  const BackendClaims claims{b.info.feature_level, b.info.extra_support};
  const auto crash = [&](size_t index, const std::string& message) {
    const CaseRecipe& c = cases[index];
    CaseOutcome o;
    o.status = Status::kCrash;
    o.message = message;
    return results.Add(MakeRecord(c, b, options, GroupFor(c, claims), o));
  };
  // A backend that cannot start (at all, or twice in a row after a crash) is not retried per
  // case: each remaining case is recorded once with the reason.
  std::string given_up =
      b.start_failure.empty() ? "" : "the backend did not start: " + b.start_failure;
  int failed_starts = 0;
  // A worker's end: its memory record first.
  const auto retire = [&] {
    const bool written = results.Add(worker->MemorySummary(b.info.name));
    worker.reset();
    return written;
  };
  size_t next = 0;
  while (next < pending.size()) {
    if (StopSignal()) return Stop::kSignalled;
    if (!given_up.empty()) {
      if (!crash(pending[next++], given_up)) return Stop::kJournalFailed;
      continue;
    }
    if (!worker) {
      Worker::StartError error;
      worker = Worker::Start(cases, b.name, b.options, options.float_rules,
                             std::chrono::milliseconds(StartLimitMs(options)), &error);
      if (StopSignal()) return Stop::kSignalled;
      if (!worker) {  // the case in line gets the blame, so the run always moves on
        if (++failed_starts == 2)
          given_up = "the backend failed to restart twice (last: " + error.message + "); not run";
        if (!crash(pending[next++], "could not restart the worker: " + error.message))
          return Stop::kJournalFailed;
        continue;
      }
      failed_starts = 0;
    }
    worker->set_memory_limit(MemoryLimitBytes(options));
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
      const Worker::Event event =
          worker->Next(std::chrono::milliseconds(TimeLimitMs(c, options)), &result, &why);
      if (event == Worker::Event::kInterrupted)
        return Stop::kSignalled;  // the case in flight is not judged
      if (event == Worker::Event::kResult && result.index != pending[next]) {
        why =
            "the worker answered for case " + std::to_string(result.index) + " instead of " + c.id;
      } else if (event == Worker::Event::kResult) {
        if (!results.Add(MakeRecord(c, b, options, result.group, result.outcome)))
          return Stop::kJournalFailed;
        if (!worker->exiting()) continue;
        ++next;
        if (!retire()) return Stop::kJournalFailed;
        break;
      }
      CaseOutcome o;
      o.status = event == Worker::Event::kTimedOut      ? Status::kTimeout
                 : event == Worker::Event::kMemoryLimit ? Status::kMemoryLimit
                                                        : Status::kCrash;
      o.message = why;
      o.duration_us = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                std::chrono::steady_clock::now() - start)
                                                .count());
      if (!results.Add(MakeRecord(c, b, options, GroupFor(c, claims), o)) || !retire())
        return Stop::kJournalFailed;
      ++next;
      break;
    }
  }
  if (worker && !retire()) return Stop::kJournalFailed;
  return Stop::kDone;
}

// The smallest case of each failure group shrunk (group_shrink.h) and journaled. Forks: only
// for isolated runs, whose process holds no backend (and so none of its threads).
Stop ShrinkGroups(const std::vector<CaseRecipe>& cases, const std::vector<Backend>& backends,
                  const RunOptions& options, Results& results, std::ostream& err) {
  const Result<Report> report = results.Preview();
  if (!report || report->failure_groups.empty()) return Stop::kDone;
  std::map<std::string, ShrinkPlugin> plugins;
  for (const Backend& b : backends)
    if (b.start_failure.empty()) plugins[b.info.name] = {b.path, b.options};
  GroupShrinkOptions shrink{options.shrink_dir,
                            {.strict = options.strict, .float_rules = options.float_rules}};
  for (const ShrunkRecord& s : ShrinkFailureGroups(*report, cases, plugins, shrink, err))
    if (!results.Add(s)) return Stop::kJournalFailed;
  return StopSignal() ? Stop::kSignalled : Stop::kDone;
}

// Loads each backend (in a worker, or here); prints its claims. Fills `backends`, `workers`
// and the header; returns 0, or 1 / 2 for an unavailable / broken backend (or two that the
// records could not tell apart).
int StartBackends(const std::vector<std::string>& names, const std::vector<CaseRecipe>& cases,
                  const RunOptions& options, std::vector<Backend>& backends,
                  std::vector<std::unique_ptr<Worker>>& workers, JournalHeader& header,
                  std::ostream& out, std::ostream& err) {
  int exit_code = 0;
  for (const std::string& given : names) {
    const BackendArg arg = ParseBackendArg(given, options.backend_options);
    const std::string& name = arg.name_or_path;
    Backend b{name, arg.options, {}, {}, nullptr, {}};
    std::string error;
    bool unavailable = false;
    std::unique_ptr<Worker> worker;
    if (options.isolation) {
      Worker::StartError start_error;
      worker = Worker::Start(cases, name, b.options, options.float_rules,
                             std::chrono::milliseconds(StartLimitMs(options)), &start_error);
      if (worker) {
        b.info = worker->info();
        b.path = worker->plugin_path();
      } else if (start_error.crashed) {
        // A backend fault like any other: recorded on its cases, the run goes on (exit 1).
        err << "backend " << TerminalSafe(given)
            << ": CRASHED while loading: " << TerminalSafe(start_error.message) << "\n";
        b.info = {name, "", "(did not start)", "", {}, ""};
        b.path = name;
        b.start_failure = start_error.message;
      }
      error = start_error.message;
      unavailable = start_error.unavailable;
    } else {
      PluginLoad load = LoadPlugin(name, b.options);
      if (load.ok()) {
        const opcts_backend_info& i = (*load)->info();
        b.info = {i.name,
                  i.version,
                  i.device,
                  (*load)->FeatureLevel(),
                  (*load)->ExtraSupport(),
                  i.details ? i.details : ""};
        b.path = (*load)->path();
        b.plugin = std::move(load).value();
      } else {
        error = load.error().message;
        unavailable = IsUnavailable(load);
      }
    }
    if (b.info.name.empty()) {
      err << "backend " << TerminalSafe(given) << ": "
          << (unavailable ? "UNAVAILABLE: " : "ERROR: ") << TerminalSafe(error) << "\n";
      if (!arg.own_options && !arg.options.empty() && names.size() > 1)
        err << "  (--backend-options reaches every backend of the run; NAME@OPTIONS gives one "
               "backend its own)\n";
      if (!(unavailable && options.allow_unavailable))
        exit_code = std::max(exit_code, unavailable ? 1 : 2);
      continue;
    }
    b.info.name = arg.Label(b.info.name);
    // The records name a backend by this name alone: a second one would merge into the first.
    if (std::any_of(backends.begin(), backends.end(),
                    [&](const Backend& other) { return other.info.name == b.info.name; })) {
      err << "backend " << TerminalSafe(given) << ": ERROR: the run already has a backend named '"
          << TerminalSafe(b.info.name)
          << "', and their records could not be told apart; give it once, or each its own "
             "options (NAME@OPTIONS)\n";
      exit_code = 2;
      continue;
    }
    if (b.start_failure.empty()) {
      std::string extra;
      for (const std::string& e : b.info.extra_support) extra += " + " + e;
      out << "backend " << TerminalSafe(b.info.name) << " " << TerminalSafe(b.info.version)
          << " on " << TerminalSafe(b.info.device) << ": claims feature level "
          << TerminalSafe(b.info.feature_level) << TerminalSafe(extra) << "\n";
      if (!b.info.details.empty()) out << "  " << TerminalSafe(b.info.details) << "\n";
    }
    header.backends.push_back(b.info);
    backends.push_back(std::move(b));
    workers.push_back(std::move(worker));
  }
  return exit_code;
}

// The records of the journal to continue, checked against this run.
Result<Journal> ReadResumed(const std::string& path, const JournalHeader& header,
                            std::set<std::pair<std::string, std::string>>& done,
                            std::ostream& err) {
  OPCTS_ASSIGN_OR_RETURN(Journal journal, ReadJournal(path));
  if (std::string mismatch = ResumeMismatch(journal.header, header); !mismatch.empty())
    return InvalidInput(path + " belongs to another run: " + mismatch +
                        "; give the same options to resume it");
  for (const CaseRecord& r : journal.cases)
    if (!done.insert({r.id, r.backend}).second)
      return InvalidInput(
          path + " holds case " + r.id + " on backend " + r.backend +
          " twice; it is not a journal opcts wrote (merge shards with `opcts report merge`)");
  for (const std::string& w : journal.warnings) err << "warning: " << w << "\n";
  return journal;
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

ReportOptions RunReportOptions(const RunOptions& options, int stop_signal) {
  ReportOptions report{options.strict, TodayUtc(), options.required, ""};
  if (stop_signal)
    report.interrupted = std::string("interrupted by ") + StopSignalName(stop_signal);
  return report;
}

std::map<std::string, std::string> RecordedOptions(const RunOptions& options) {
  return {
      {"backend_options", options.backend_options},
      {"float_rules", std::string(FloatRulesName(options.float_rules))},
      {"timeout_ms", options.timeout_ms ? std::to_string(options.timeout_ms) : "default"},
      {"memory_limit_mib", std::to_string(MemoryLimitBytes(options) >> 20)},
      {"max_cases", options.filter.max_cases ? std::to_string(options.filter.max_cases) : "none"}};
}

std::string ResumeMismatch(const JournalHeader& resumed, const JournalHeader& now) {
  if (resumed.seed != now.seed)
    return "seed " + std::to_string(resumed.seed) + " in the journal, " + std::to_string(now.seed) +
           " now";
  if (resumed.shard_index != now.shard_index || resumed.shard_count != now.shard_count)
    return "shard " + std::to_string(resumed.shard_index) + "/" +
           std::to_string(resumed.shard_count) + " in the journal, " +
           std::to_string(now.shard_index) + "/" + std::to_string(now.shard_count) + " now";
  const auto compare = [](const char* what, const std::map<std::string, std::string>& a,
                          const std::map<std::string, std::string>& b) -> std::string {
    std::set<std::string> keys;
    for (const auto& [k, v] : a) keys.insert(k);
    for (const auto& [k, v] : b) keys.insert(k);
    for (const std::string& k : keys) {
      const auto x = a.find(k), y = b.find(k);
      const std::string was = x == a.end() ? "(none)" : Quoted(x->second);
      const std::string is = y == b.end() ? "(none)" : Quoted(y->second);
      if (was != is)
        return std::string(what) + " " + k + ": " + was + " in the journal, " + is + " now";
    }
    return "";
  };
  if (std::string d = compare("filter", resumed.filters, now.filters); !d.empty()) return d;
  if (std::string d = compare("option", resumed.options, now.options); !d.empty()) return d;
  const auto describe = [](const BackendRecord& b) {
    std::string extra;
    for (const std::string& e : b.extra_support) extra += " +" + e;
    return b.name + " " + b.version + " on " + b.device + " at level " + b.feature_level + extra;
  };
  std::string was, is;
  for (const BackendRecord& b : resumed.backends) was += (was.empty() ? "" : ", ") + describe(b);
  for (const BackendRecord& b : now.backends) is += (is.empty() ? "" : ", ") + describe(b);
  if (was != is) return "backends " + Quoted(was) + " in the journal, " + Quoted(is) + " now";
  return "";
}

RunResult RunConformance(const SpecSet& specs, const RunOptions& options, std::ostream& out,
                         std::ostream& err) {
  std::vector<std::string> names =
      options.backends.empty() ? BuiltinBackendNames() : options.backends;
  if (names.empty()) {
    err << "opcts run: no backends (none given, and no built-ins in " << BuiltinPluginDir()
        << ")\n";
    return {2};
  }
  const std::vector<CaseRecipe> cases = SelectCases(specs, options.seed, options.filter);
  if (cases.empty()) {
    err << "opcts run: no case matches " << FilterText(options.filter) << " (seed " << options.seed
        << "): a run of nothing proves nothing; `opcts list --cases` lists the ids\n";
    return {2};
  }
  JournalHeader header;
  header.opcts_version = OPCTS_VERSION_STRING;
  header.started = Now();
  header.seed = options.seed;
  header.shard_index = options.filter.shard_index;
  header.shard_count = options.filter.shard_count;
  header.filters = options.filter.Describe();
  header.options = RecordedOptions(options);

  std::vector<Backend> backends;
  std::vector<std::unique_ptr<Worker>> workers;
  const int exit_code = StartBackends(names, cases, options, backends, workers, header, out, err);
  if (StopSignal()) return {128 + StopSignal(), 0, 0, StopSignal()};
  if (exit_code == 2 || backends.empty()) return {exit_code ? exit_code : 2};

  // A resumed run continues its journal: same selection, and its cases are not run again.
  std::set<std::pair<std::string, std::string>> done;
  Journal replayed;
  if (!options.resume.empty()) {
    Result<Journal> resumed = ReadResumed(options.resume, header, done, err);
    if (!resumed) {
      err << "opcts run --resume: " << resumed.error().message << "\n";
      return {2};
    }
    replayed = std::move(resumed).value();
    out << "resuming " << options.resume << ": " << done.size() << " case runs already journaled\n";
  }

  header.planned_cases = cases.size() * backends.size();
  Results results(options, out, err, header);
  if (!results.Open(!options.resume.empty())) return {2};
  for (const CaseRecord& r : replayed.cases) results.Add(r, /*replayed=*/true);
  results.Replay(std::move(replayed.memory), std::move(replayed.shrunk));
  out << "running " << cases.size() << " cases on " << backends.size() << " backend(s)"
      << (options.isolation ? " in worker processes" : " in this process")
      << ", float rules: " << FloatRulesName(options.float_rules) << "\n";
  out.flush();  // the header lines come before the progress display (stderr)
  const auto start = std::chrono::steady_clock::now();
  Stop stop = Stop::kDone;
  if (options.isolation) {
    for (size_t i = 0; i < backends.size() && stop == Stop::kDone; ++i)
      stop = RunIsolated(cases, backends[i], std::move(workers[i]), options, done, results);
  } else {
    stop = RunInProcess(cases, backends, options, done, results);
  }
  workers.clear();  // stops the workers (and their process groups) before the verdict
  if (stop == Stop::kDone && options.isolation && !options.shrink_dir.empty())
    stop = ShrinkGroups(cases, backends, options, results, err);
  if (stop == Stop::kSignalled)
    err << "opcts run: " << StopSignalName(StopSignal()) << " received; stopped the workers\n";
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return results.Finish(seconds, stop == Stop::kJournalFailed ? 2 : exit_code,
                        stop == Stop::kSignalled ? StopSignal() : 0);
}

}  // namespace opcts
