#include "conformance/case_filter.h"

#include <fnmatch.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>

#include "conformance/case_generator.h"

namespace opcts {
namespace {

bool Glob(const std::string& pattern, const std::string& text, bool casefold = false) {
  return fnmatch(pattern.c_str(), text.c_str(), casefold ? FNM_CASEFOLD : 0) == 0;
}

// A case passes a filter kind when the kind is not given or any of its globs matches any name.
bool AnyMatches(const std::vector<std::string>& globs, const std::vector<std::string>& names,
                bool casefold) {
  if (globs.empty()) return true;
  for (const std::string& g : globs)
    for (const std::string& n : names)
      if (Glob(g, n, casefold)) return true;
  return false;
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string joined;
  for (const std::string& item : items) joined += (joined.empty() ? "" : separator) + item;
  return joined;
}

// Each value must name (or, as a glob, match) at least one of `valid`.
Result<void> Validate(const char* option, const std::vector<std::string>& values,
                      const std::vector<std::string>& valid, const std::string& valid_text) {
  for (const std::string& v : values)
    if (!AnyMatches({v}, valid, /*casefold=*/true))
      return InvalidInput(std::string("unknown ") + option + " '" + v +
                          "'; valid values: " + valid_text);
  return {};
}

Result<void> ValidateFilter(const SpecSet& specs, const CaseFilter& f) {
  std::vector<std::string> dtypes, ops, levels;
  std::string dtype_text;
  for (DType t : kAllDTypes) {
    dtypes.push_back(std::string(DTypeName(t)));
    dtypes.push_back(std::string(DTypeShortName(t)));
    dtype_text +=
        (dtype_text.empty() ? "" : ", ") + dtypes.back() + " (" + dtypes[dtypes.size() - 2] + ")";
  }
  std::set<std::string> level_set;
  for (const OperatorSpec& s : specs.specs) {
    ops.push_back(OperatorKey(s));
    ops.push_back(s.name);
    for (const SupportLevel& l : s.support) level_set.insert(l.level);
  }
  levels.assign(level_set.begin(), level_set.end());
  OPCTS_TRY(Validate("--dtype", f.dtypes, dtypes, dtype_text + " (any case)"));
  OPCTS_TRY(Validate("--op", f.ops, ops, Join(ops, ", ")));
  return Validate("--level", f.levels, levels, Join(levels, ", "));
}

// Lines of a case list: an id or glob each; blank lines and `#` comments skipped.
Result<std::vector<std::string>> ReadCaseList(const std::string& path) {
  std::vector<std::string> entries;
  std::ifstream file(path);
  if (!file) return IoError("--case-list: cannot read " + path);
  std::string line;
  for (size_t number = 1; std::getline(file, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const size_t last = line.find_last_not_of(" \t\r");
    const std::string entry = line.substr(first, last - first + 1);
    if (entry.find_first_of(" \t") != std::string::npos)
      return InvalidInput(path + ":" + std::to_string(number) +
                          ": one case id or glob per line, not '" + entry + "'");
    entries.push_back(entry);
  }
  if (file.bad()) return IoError("--case-list: cannot read " + path);
  if (entries.empty()) return InvalidInput("--case-list: " + path + " lists no case");
  return entries;
}

std::optional<uint64_t> ParseNumber(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return value;
}

// The shard from the test runners' variables when --shard is absent.
Result<void> ReadEnvShard(const EnvLookup& env, CaseFilter& filter) {
  for (const auto& [total_name, index_name] : {std::pair{"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"},
                                               {"TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX"}}) {
    const char* total = env(total_name);
    const char* index = env(index_name);
    if (!total && !index) continue;
    if (!total || !index)
      return InvalidInput(std::string(total ? index_name : total_name) + " is not set, but " +
                          (total ? total_name : index_name) + " is");
    const Result<void> shard =
        ParseShard(std::string(index) + "/" + total, filter.shard_index, filter.shard_count);
    if (!shard)
      return InvalidInput(std::string(index_name) + "/" + total_name + ": " +
                          shard.error().message);
    break;
  }
  if (const char* status_file = env("TEST_SHARD_STATUS_FILE"); status_file && *status_file) {
    std::ofstream touch(status_file, std::ios::app);
    if (!touch) return IoError(std::string("cannot touch TEST_SHARD_STATUS_FILE ") + status_file);
  }
  return {};
}

}  // namespace

const char* ProcessEnvironment(const char* name) { return std::getenv(name); }

bool OperatorMatches(const std::string& glob, const OperatorSpec& spec) {
  return AnyMatches({glob}, {OperatorKey(spec), spec.name}, /*casefold=*/true);
}

bool CaseFilter::Matches(const CaseRecipe& c) const {
  const std::vector<std::string> dtype_names = {std::string(DTypeName(c.dtype)),
                                                std::string(DTypeShortName(c.dtype))};
  if (!AnyMatches(ops, {OperatorKey(*c.spec), c.spec->name}, true) ||
      !AnyMatches(dtypes, dtype_names, true) || !AnyMatches(levels, {c.level}, true) ||
      !AnyMatches(ids, {c.id}, false) || !AnyMatches(case_list, {c.id}, false))
    return false;
  return excludes.empty() || !AnyMatches(excludes, {c.id}, false);
}

std::map<std::string, std::string> CaseFilter::Describe() const {
  const auto globs = [](const std::vector<std::string>& items) {
    return items.empty() ? std::string(1, '*') : Join(items, ",");
  };
  std::map<std::string, std::string> d = {
      {"op", globs(ops)}, {"dtype", globs(dtypes)}, {"level", globs(levels)}, {"id", globs(ids)}};
  if (!excludes.empty()) d["exclude"] = Join(excludes, ",");
  if (!case_list.empty())
    d["case_list"] = case_list_file + " (" + std::to_string(case_list.size()) + " entries, hash " +
                     std::to_string(StableHash(Join(case_list, "\n"))) + ")";
  return d;
}

std::string FilterText(const CaseFilter& f) {
  std::string text;
  const auto add = [&](const char* option, const std::vector<std::string>& values) {
    for (const std::string& v : values)
      text += std::string(text.empty() ? "" : " ") + option + " " + v;
  };
  add("--op", f.ops);
  add("--dtype", f.dtypes);
  add("--level", f.levels);
  add("--id", f.ids);
  add("--exclude", f.excludes);
  if (!f.case_list_file.empty()) add("--case-list", {f.case_list_file});
  if (f.shard_count > 1)
    add("--shard", {std::to_string(f.shard_index) + "/" + std::to_string(f.shard_count)});
  return text.empty() ? "(no filter)" : text;
}

Result<void> ParseShard(const std::string& text, uint32_t& index, uint32_t& count) {
  const Error usage = InvalidInput("a shard is I/N with 0 <= I < N, not '" + text + "'");
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return usage;
  const auto i = ParseNumber(text.substr(0, slash)), n = ParseNumber(text.substr(slash + 1));
  if (!i || !n || *n == 0 || *i >= *n) return usage;
  if (*n > std::numeric_limits<uint32_t>::max())
    return InvalidInput("a shard count above " +
                        std::to_string(std::numeric_limits<uint32_t>::max()) +
                        " is not supported, not '" + text + "'");
  index = static_cast<uint32_t>(*i);
  count = static_cast<uint32_t>(*n);
  return {};
}

Result<void> ReadCaseFilter(CliArgs& args, const SpecSet& specs, const EnvLookup& env,
                            CaseFilter& filter, uint64_t& seed) {
  filter.ops = args.GetAll("--op");
  filter.dtypes = args.GetAll("--dtype");
  filter.levels = args.GetAll("--level");
  filter.ids = args.GetAll("--id");
  filter.excludes = args.GetAll("--exclude");
  seed = args.GetNumber("--seed").value_or(1);
  filter.max_cases = args.GetNumber("--max-cases").value_or(0);
  if (!args.error().empty()) return InvalidInput(args.error());
  if (args.Get("--max-cases") && filter.max_cases == 0)
    return InvalidInput(
        "--max-cases 0 would run nothing; give at least 1, or leave it out for no limit");
  OPCTS_TRY(ValidateFilter(specs, filter));
  if (const auto list = args.Get("--case-list")) {
    if (args.GetAll("--case-list").size() > 1) return InvalidInput("give --case-list once");
    filter.case_list_file = *list;
    OPCTS_ASSIGN_OR_RETURN(filter.case_list, ReadCaseList(*list));
  }
  if (const auto shard = args.Get("--shard")) {
    if (args.GetAll("--shard").size() > 1) return InvalidInput("give --shard once");
    if (Result<void> parsed = ParseShard(*shard, filter.shard_index, filter.shard_count); !parsed)
      return InvalidInput("--shard: " + parsed.error().message);
    return {};
  }
  return ReadEnvShard(env, filter);
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

}  // namespace opcts
