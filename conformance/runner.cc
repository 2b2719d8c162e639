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

#include "conformance/case_generator.h"
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

bool Claims(const Plugin& plugin, const OperatorSpec& spec, const std::string& level) {
  if (level.empty()) return false;
  if (spec.scheme == LevelScheme::kOpenVINO) {
    const std::vector<std::string> extra = plugin.ExtraSupport();
    return std::find(extra.begin(), extra.end(), "openvino." + level) != extra.end();
  }
  const int claimed = LevelIndex(LevelScheme::kDirectML, plugin.FeatureLevel());
  return claimed >= 0 && LevelIndex(LevelScheme::kDirectML, level) <= claimed;
}

RunResult RunConformance(const SpecSet& specs, const RunOptions& options, std::ostream& out) {
  RunResult result;
  std::vector<std::string> names = options.backends.empty() ? BuiltinBackendNames() : options.backends;
  if (names.empty()) {
    out << "opcts run: no backends (none given, and no built-ins in " << BuiltinPluginDir() << ")\n";
    return {2};
  }
  std::vector<std::unique_ptr<Plugin>> plugins;
  JournalHeader header;
  header.opcts_version = "0.1.0";
  header.started = Now();
  header.seed = options.seed;
  header.shard_index = options.filter.shard_index;
  header.shard_count = options.filter.shard_count;
  header.filters = {{"op", options.filter.op}, {"dtype", options.filter.dtype},
                    {"level", options.filter.level}, {"id", options.filter.id}};
  for (const std::string& name : names) {
    PluginLoad load = LoadPlugin(name, options.backend_options);
    if (!load.plugin) {
      out << "backend " << name << ": " << (load.unavailable ? "UNAVAILABLE: " : "ERROR: ") << load.error << "\n";
      if (!(load.unavailable && options.allow_unavailable)) result.exit_code = load.unavailable ? 1 : 2;
      continue;
    }
    const opcts_backend_info& info = load.plugin->info();
    out << "backend " << info.name << " " << info.version << " on " << info.device << ": claims feature level "
        << load.plugin->FeatureLevel() << (info.extra_support && *info.extra_support ? std::string(" + ") + info.extra_support : "")
        << "\n";
    if (info.details && *info.details) out << "  " << info.details << "\n";
    header.backends.push_back({info.name, info.version, info.device, load.plugin->FeatureLevel(),
                               load.plugin->ExtraSupport(), info.details ? info.details : ""});
    plugins.push_back(std::move(load.plugin));
  }
  if (result.exit_code == 2 || plugins.empty()) return {result.exit_code ? result.exit_code : 2};

  const std::vector<CaseRecipe> cases = SelectCases(specs, options.seed, options.filter);
  header.planned_cases = cases.size() * plugins.size();
  std::optional<JournalWriter> journal;
  if (!options.journal.empty()) {
    auto opened = JournalWriter::Open(options.journal, header, /*append=*/false);
    if (!opened.value) {
      out << "opcts run: " << opened.error << "\n";
      return {2};
    }
    journal = std::move(opened.value);
  }
  out << "running " << cases.size() << " cases on " << plugins.size() << " backend(s)\n";

  std::map<std::pair<std::string, std::string>, std::map<std::string, uint64_t>> counts;
  Progress progress(cases.size(), options.progress);
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseRecipe& c = cases[i];
    const Operation op = Materialize(c);
    std::optional<ReferenceResult> expected;  // computed once, shared by the backends
    for (const auto& plugin : plugins) {
      CaseGroup group = CaseGroup::kInvalid;
      if (c.group == "valid") group = Claims(*plugin, *c.spec, c.level) ? CaseGroup::kValid : CaseGroup::kUnclaimed;
      if (group != CaseGroup::kInvalid && !expected)
        expected = (*FindReferenceKernel(c.spec->reference))(op);
      const CaseOutcome o = ExecuteCase(*plugin, op, group, expected ? &*expected : nullptr);
      ++counts[{plugin->info().name, OperatorKey(*c.spec)}][o.status];
      ++result.cases;
      const bool failed = IsGateFailure(o.status, options.strict);
      if (failed) {
        ++result.failures;
        out << o.status << " " << plugin->info().name << " " << c.id << ": " << o.message << "\n";
      }
      if (journal) {
        CaseRecord r;
        r.id = c.id;
        r.backend = plugin->info().name;
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
        r.repro = "opcts repro --backend " + plugin->path() + " --seed " + std::to_string(options.seed) + " " + c.id;
        if (!journal->Append(r)) {
          out << "opcts run: cannot write the journal " << options.journal << "\n";
          return {2};
        }
      }
    }
    progress.Update(i + 1, result.failures);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PrintSummary(counts, out);
  out << "\n" << result.cases << " case runs in " << std::fixed << std::setprecision(2) << seconds << " s ("
      << std::setprecision(0) << (seconds > 0 ? result.cases / seconds : 0) << " per second); "
      << result.failures << " failed the gate" << (options.strict ? " (strict)" : "") << "\n";
  if (result.failures && result.exit_code == 0) result.exit_code = 1;
  return result;
}

}  // namespace opcts
