// Which generated cases a run, list or repro takes: the command line's filters, checked.
//
// Repeated filters of one kind are a union (`--dtype f16 --dtype f32`); different kinds
// intersect; `--exclude` drops ids; `--case-list FILE` keeps only the ids or globs it lists
// (one per line, `#` comments), as VK-CTS's --deqp-caselist-file. Values are validated against
// the specs: an unknown dtype, operator or level is a usage error that lists the valid ones.
//
//   CaseFilter f;
//   if (Result<void> read = ReadCaseFilter(args, specs, env, f, seed); !read) ...
//   read.error().message for (const CaseRecipe& c : SelectCases(specs, seed, f)) ...
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/cli_args.h"
#include "base/result.h"
#include "conformance/case.h"
#include "conformance/spec_set.h"

namespace opcts {

struct CaseFilter {
  // Globs; an empty list matches everything. dtype, op and level match case-insensitively.
  std::vector<std::string> ops, dtypes, levels, ids, excludes;
  std::vector<std::string> case_list;  // ids or globs; empty: no list given
  std::string case_list_file;          // where case_list came from ("" when none)
  uint32_t shard_index = 0, shard_count = 1;
  uint64_t max_cases = 0;  // 0: no budget

  bool Matches(const CaseRecipe& c) const;
  // The filters as they appear in the journal header and in messages: {"dtype": "f16,f32"}.
  std::map<std::string, std::string> Describe() const;
};

// Whether `glob` names the operator: its key ("dml_scatter_nd") or name, in any case.
bool OperatorMatches(const std::string& glob, const OperatorSpec& spec);

// Reads an environment variable; injectable for tests.
using EnvLookup = std::function<const char*(const char*)>;
const char* ProcessEnvironment(const char* name);  // std::getenv

// Reads --op --dtype --level --id --exclude --case-list --max-cases --shard (and --seed into
// `seed`) from `args`, validating each against `specs`. Without --shard, the test runners'
// sharding variables select the shard: GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX, then Bazel's
// TEST_TOTAL_SHARDS/TEST_SHARD_INDEX; TEST_SHARD_STATUS_FILE, when set, is touched to say
// sharding is supported. An error is a usage error (kIo for an unreadable --case-list).
Result<void> ReadCaseFilter(CliArgs& args, const SpecSet& specs, const EnvLookup& env,
                            CaseFilter& filter, uint64_t& seed);

// "I/N" with 0 <= I < N < 2^32.
Result<void> ParseShard(const std::string& text, uint32_t& index, uint32_t& count);

// The cases a run with these options would execute, in order (filters and shard applied).
std::vector<CaseRecipe> SelectCases(const SpecSet& specs, uint64_t seed, const CaseFilter& filter);

// "--op X --dtype f16 --exclude ..." for a message about an empty selection.
std::string FilterText(const CaseFilter& filter);

}  // namespace opcts
