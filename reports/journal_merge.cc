#include "reports/journal_merge.h"

#include <map>
#include <unordered_map>

namespace opcts {
namespace {

std::string BackendNames(const JournalHeader& header) {
  std::string names;
  for (const auto& backend : header.backends) {
    names += (names.empty() ? "" : ", ") + backend.name + "@" + backend.feature_level;
  }
  return names;
}

// The first difference that shows two shards are not from the same run, or "".
std::string RunMismatch(const JournalHeader& a, const JournalHeader& b) {
  if (a.shard_count != b.shard_count) {
    return "shard count " + std::to_string(b.shard_count) + " (expected " +
           std::to_string(a.shard_count) + ")";
  }
  if (a.seed != b.seed) {
    return "seed " + std::to_string(b.seed) + " (expected " + std::to_string(a.seed) + ")";
  }
  if (a.filters != b.filters) return "different filters";
  if (a.options != b.options) return "different options";
  if (BackendNames(a) != BackendNames(b)) {
    return "backends [" + BackendNames(b) + "] (expected [" + BackendNames(a) + "])";
  }
  return "";
}

}  // namespace

Result<Journal> MergeShards(const std::vector<SourcedJournal>& shards) {
  if (shards.empty()) return InvalidInput("no shard journals given");
  const JournalHeader& first = shards.front().journal.header;
  std::map<uint32_t, const SourcedJournal*> by_index;
  for (const auto& shard : shards) {
    const JournalHeader& header = shard.journal.header;
    if (std::string mismatch = RunMismatch(first, header); !mismatch.empty()) {
      return InvalidInput(shard.source + ": not a shard of the same run as " +
                          shards.front().source + ": " + mismatch);
    }
    const auto [it, inserted] = by_index.emplace(header.shard_index, &shard);
    if (!inserted) {
      return InvalidInput("shard " + std::to_string(header.shard_index) + "/" +
                          std::to_string(header.shard_count) +
                          " given twice: " + it->second->source + " and " + shard.source);
    }
  }
  std::string missing;
  for (uint32_t i = 0; i < first.shard_count; ++i) {
    if (!by_index.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  }
  if (!missing.empty()) {
    return InvalidInput("missing shard(s) " + missing + " of " + std::to_string(first.shard_count) +
                        " (shards are numbered 0 to " + std::to_string(first.shard_count - 1) +
                        ")");
  }

  Journal merged;
  merged.header = by_index.begin()->second->journal.header;
  merged.header.shard_index = 0;
  merged.header.shard_count = 1;
  merged.header.planned_cases = 0;
  std::unordered_map<std::string, const std::string*> seen;  // backend + '\n' + id -> source
  for (const auto& [index, shard] : by_index) {
    const JournalHeader& header = shard->journal.header;
    merged.header.planned_cases += header.planned_cases;
    if (merged.header.started.empty() ||
        (!header.started.empty() && header.started < merged.header.started)) {
      merged.header.started = header.started;  // ISO 8601 times sort as strings
    }
    merged.warnings.insert(merged.warnings.end(), shard->journal.warnings.begin(),
                           shard->journal.warnings.end());
    merged.memory.insert(merged.memory.end(), shard->journal.memory.begin(),
                         shard->journal.memory.end());
    merged.shrunk.insert(merged.shrunk.end(), shard->journal.shrunk.begin(),
                         shard->journal.shrunk.end());
    for (const auto& record : shard->journal.cases) {
      const auto [it, inserted] = seen.emplace(record.backend + '\n' + record.id, &shard->source);
      if (!inserted) {
        return InvalidInput(shard->source + ": case \"" + record.id + "\" on backend \"" +
                            record.backend + "\" is also in " + *it->second +
                            " (shards must not overlap)");
      }
      merged.cases.push_back(record);
    }
  }
  return merged;
}

}  // namespace opcts
