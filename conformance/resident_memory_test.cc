// The leak rule: steady growth after the warm-up, by kLeakBytes or more, is a leak; a warm-up,
// a one-time cache, peaks of large cases and small steady growth are not.
#include "conformance/resident_memory.h"

#include <unistd.h>

#include <gtest/gtest.h>

namespace opcts {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// One sample per case: base + per_case * case (+ a 500 MiB peak every 10th case when `peaks`).
std::vector<ResidentSample> Samples(uint64_t cases, uint64_t base, double per_case,
                                    bool peaks = false) {
  std::vector<ResidentSample> samples;
  for (uint64_t c = 1; c <= cases; ++c)
    samples.push_back({c, base + static_cast<uint64_t>(per_case * static_cast<double>(c)) +
                              (peaks && c % 10 == 0 ? 500 * kMiB : 0)});
  return samples;
}

TEST(ResidentMemory, SteadyGrowthIsALeakWithItsSlope) {
  const MemoryRecord r = SummarizeResidentMemory("b", 200, Samples(200, 40 * kMiB, 10.0 * kMiB));
  EXPECT_TRUE(r.leaking);
  EXPECT_NEAR(r.growth_per_case, 10.0 * kMiB, 1.0);
  EXPECT_EQ(r.first_bytes, 50 * kMiB);
  EXPECT_EQ(r.last_bytes, 2040 * kMiB);
  EXPECT_EQ(r.peak_bytes, 2040 * kMiB);
  EXPECT_EQ(r.cases, 200u);
  // Peaks of large cases on top do not hide it.
  EXPECT_TRUE(SummarizeResidentMemory("b", 200, Samples(200, 0, 10.0 * kMiB, true)).leaking);
}

TEST(ResidentMemory, SmallSteadyGrowthIsNoLeak) {
  // 1 KiB a case over 16 000 cases: 15.6 MiB, under the threshold.
  const MemoryRecord r = SummarizeResidentMemory("b", 16000, Samples(16000, 100 * kMiB, 1024));
  EXPECT_FALSE(r.leaking);
  EXPECT_NEAR(r.growth_per_case, 1024, 1);
}

TEST(ResidentMemory, AWarmUpOrAOneTimeCacheIsNoLeak) {
  // 1 GiB over the first quarter of the cases, then flat.
  std::vector<ResidentSample> warm_up = Samples(1000, 0, 0);
  for (ResidentSample& s : warm_up) s.bytes = std::min<uint64_t>(s.cases, 250) * 4 * kMiB;
  EXPECT_FALSE(SummarizeResidentMemory("b", 1000, warm_up).leaking);
  // A 200 MiB cache made halfway, then flat.
  std::vector<ResidentSample> cache = Samples(1000, 50 * kMiB, 0);
  for (ResidentSample& s : cache) s.bytes += s.cases >= 500 ? 200 * kMiB : 0;
  EXPECT_FALSE(SummarizeResidentMemory("b", 1000, cache).leaking);
  // Flat, with peaks.
  EXPECT_FALSE(SummarizeResidentMemory("b", 1000, Samples(1000, 50 * kMiB, 0, true)).leaking);
}

TEST(ResidentMemory, TooFewSamplesOrCasesSayNothing) {
  EXPECT_FALSE(SummarizeResidentMemory("b", 8, Samples(8, 0, 100.0 * kMiB)).leaking);
  EXPECT_FALSE(SummarizeResidentMemory("b", 0, {}).leaking);
  EXPECT_EQ(SummarizeResidentMemory("b", 0, {}).peak_bytes, 0u);
}

TEST(ResidentMemory, ReadsAProcesssResidentMemory) {
  const std::optional<uint64_t> mine = ResidentBytes(getpid());
  ASSERT_TRUE(mine);
  EXPECT_GT(*mine, 1 * kMiB);
  ResidentMemory memory;
  EXPECT_TRUE(memory.Sample(getpid(), 1));
  EXPECT_FALSE(memory.Sample(getpid(), 2)) << "throttled";
  EXPECT_TRUE(memory.Sample(getpid(), 3, /*force=*/true));
  EXPECT_EQ(memory.Summary("me", 3).cases, 3u);
}

}  // namespace
}  // namespace opcts
