// Joins the journals of one sharded run (`opcts run --shard I/N`) into one unsharded journal
// for `opcts report merge`. Refuses anything that would make the result lie: a missing or
// repeated shard, shards of different runs (count, seed, filters, options, backends), a case
// twice.
#pragma once

#include <vector>

#include "reports/journal.h"

namespace opcts {

// The merged journal: shard 0 of 1, planned_cases summed, the earliest start, cases in shard
// order. Warnings of the inputs (torn last lines) carry over. Shards that cannot be merged are
// ErrorCode::kInvalidInput.
Result<Journal> MergeShards(const std::vector<SourcedJournal>& shards);

}  // namespace opcts
