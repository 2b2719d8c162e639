// The flush before each DRAM-size execution writes lines back, never loses or changes a byte,
// whatever the range's alignment; on the CPUs CI runs (x86) it is there.
#include "bench/cache_flush.h"

#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

namespace opcts::bench {
namespace {

TEST(FlushFromCaches, KeepsEveryByteAtAnyAlignment) {
  std::vector<uint8_t> bytes(1 << 20);
  for (const size_t offset : {size_t{0}, size_t{1}, size_t{63}, size_t{4097}})
    for (const size_t size : {size_t{0}, size_t{1}, size_t{65}, size_t{100003}}) {
      std::iota(bytes.begin(), bytes.end(), static_cast<uint8_t>(offset + size));
      const std::vector<uint8_t> written = bytes;  // the dirty lines the flush writes back
      FlushFromCaches(bytes.data() + offset, size);
      ASSERT_EQ(bytes, written) << "offset " << offset << ", " << size << " bytes";
    }
}

#if defined(__x86_64__) || defined(__i386__)
TEST(FlushFromCaches, IsThereOnX86) {
  std::vector<uint8_t> bytes(4096, 1);
  EXPECT_TRUE(FlushFromCaches(bytes.data(), bytes.size()));
}
#endif

}  // namespace
}  // namespace opcts::bench
