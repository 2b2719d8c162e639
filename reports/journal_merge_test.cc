#include "reports/journal_merge.h"

#include <set>

#include <gtest/gtest.h>

#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::LoadJournals;

std::set<std::string> Ids(const Journal& journal) {
  std::set<std::string> ids;
  for (const auto& record : journal.cases) ids.insert(record.backend + " " + record.id);
  return ids;
}

TEST(Merge, JoinsAllShardsInShardOrder) {
  // Given out of order on purpose.
  const auto shards = LoadJournals({"shard2of3.jsonl", "shard0of3.jsonl", "shard1of3.jsonl"});
  const auto merged = MergeShards(shards);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  const Journal& journal = *merged;
  EXPECT_EQ(journal.header.shard_index, 0u);
  EXPECT_EQ(journal.header.shard_count, 1u);
  EXPECT_EQ(journal.header.planned_cases, 6u);
  EXPECT_EQ(journal.header.seed, 5u);
  EXPECT_EQ(journal.header.started, "2026-11-22T17:00:00Z");
  EXPECT_EQ(journal.header.filters.at("op"), "dml_*");
  ASSERT_EQ(journal.cases.size(), 6u);
  const std::vector<std::string> expected = {"case.s0a", "case.s0b", "case.s1a",
                                             "case.s1b", "case.s2a", "case.s2b"};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(journal.cases[i].id, expected[i]);
  // merge(shards) == the union of the shards, field for field.
  std::set<std::string> union_ids;
  for (const auto& shard : shards) {
    const auto ids = Ids(shard.journal);
    union_ids.insert(ids.begin(), ids.end());
  }
  EXPECT_EQ(Ids(journal), union_ids);
  EXPECT_EQ(journal.cases[3].dtype, "INT64");
  EXPECT_EQ(journal.cases[3].shape, (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(journal.cases[3].duration_us, 4u);
  ASSERT_EQ(journal.memory.size(), 1u);  // shard 1's worker
  EXPECT_EQ(journal.memory[0].backend, "cpu-reference");
}

TEST(Merge, DetectsMissingShards) {
  const auto merged = MergeShards(LoadJournals({"shard0of3.jsonl", "shard2of3.jsonl"}));
  EXPECT_FALSE(merged.ok());
  EXPECT_EQ(merged.error().message, "missing shard(s) 1 of 3 (shards are numbered 0 to 2)");
  EXPECT_EQ(MergeShards(LoadJournals({"shard1of3.jsonl"})).error().message,
            "missing shard(s) 0, 2 of 3 (shards are numbered 0 to 2)");
}

TEST(Merge, DetectsDuplicatedShard) {
  const auto merged = MergeShards(
      LoadJournals({"shard0of3.jsonl", "shard1of3.jsonl", "shard1of3.jsonl", "shard2of3.jsonl"}));
  EXPECT_FALSE(merged.ok());
  EXPECT_EQ(merged.error().message, "shard 1/3 given twice: shard1of3.jsonl and shard1of3.jsonl");
}

TEST(Merge, DetectsDuplicateCaseAcrossShards) {
  auto shards = LoadJournals({"shard0of3.jsonl", "shard1of3.jsonl", "shard2of3.jsonl"});
  ASSERT_EQ(shards.size(), 3u);
  shards[2].journal.cases[1].id = "case.s0a";
  const auto merged = MergeShards(shards);
  EXPECT_FALSE(merged.ok());
  EXPECT_EQ(merged.error().message,
            "shard2of3.jsonl: case \"case.s0a\" on backend \"cpu-reference\" is also in "
            "shard0of3.jsonl (shards must not overlap)");
}

TEST(Merge, RejectsShardsOfDifferentRuns) {
  auto shards = LoadJournals({"shard0of3.jsonl", "shard1of3.jsonl", "shard2of3.jsonl"});
  ASSERT_EQ(shards.size(), 3u);
  auto seed = shards;
  seed[1].journal.header.seed = 6;
  EXPECT_EQ(MergeShards(seed).error().message,
            "shard1of3.jsonl: not a shard of the same run as shard0of3.jsonl: seed 6 (expected 5)");
  auto count = shards;
  count[2].journal.header.shard_count = 4;
  EXPECT_EQ(MergeShards(count).error().message,
            "shard2of3.jsonl: not a shard of the same run as shard0of3.jsonl: shard count 4 "
            "(expected 3)");
  auto filters = shards;
  filters[1].journal.header.filters["dtype"] = "FLOAT32";
  EXPECT_EQ(MergeShards(filters).error().message,
            "shard1of3.jsonl: not a shard of the same run as shard0of3.jsonl: different filters");
  auto options = shards;
  options[2].journal.header.options["strict"] = "true";
  EXPECT_EQ(MergeShards(options).error().message,
            "shard2of3.jsonl: not a shard of the same run as shard0of3.jsonl: different options");
  auto backends = shards;
  backends[1].journal.header.backends[0].name = "cpu-simd";
  EXPECT_EQ(MergeShards(backends).error().message,
            "shard1of3.jsonl: not a shard of the same run as shard0of3.jsonl: backends "
            "[cpu-simd@6_4] (expected [cpu-reference@6_4])");
  EXPECT_EQ(MergeShards({}).error().message, "no shard journals given");
}

}  // namespace
}  // namespace opcts
