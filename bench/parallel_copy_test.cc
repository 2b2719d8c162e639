// The baselines' copies move exactly the bytes asked for, whatever the size and alignment: a copy
// that skipped a head or tail, or overlapped shares, would time the wrong work.
#include "bench/parallel_copy.h"

#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "bench/in_place_rewrite.h"
#include "bench/stream_copy.h"

namespace opcts::bench {
namespace {

// Source bytes 1, 2, 3, ... at offset `from` of a buffer; the destination poisoned around
// offset `to`, so a byte written outside [to, to + bytes) shows.
struct Buffers {
  Buffers(size_t size, size_t src_offset, size_t dst_offset)
      : src(size + src_offset + 64),
        dst(size + dst_offset + 64, 0xEE),
        from(src_offset),
        to(dst_offset),
        bytes(size) {
    std::iota(src.begin(), src.end(), uint8_t{1});
  }
  void Check() const {
    for (size_t i = 0; i < dst.size(); ++i) {
      const bool inside = i >= to && i < to + bytes;
      ASSERT_EQ(dst[i], inside ? src[from + i - to] : 0xEE) << "byte " << i << " of " << bytes;
    }
  }
  std::vector<uint8_t> src, dst;
  size_t from, to, bytes;
};

constexpr size_t kSizes[] = {0, 1, 63, 64, 65, 4095, 100003, 1 << 20};

TEST(StreamCopy, CopiesEveryByteAtAnyAlignment) {
  for (auto* copy : {StreamCopy, PrefetchingStreamCopy})
    for (size_t bytes : kSizes)
      for (size_t misalign : {0, 1, 17, 63}) {
        Buffers b(bytes, (misalign * 3) % 64, misalign);
        copy(b.dst.data() + b.to, b.src.data() + b.from, bytes);
        b.Check();
      }
}

TEST(ParallelCopy, EveryThreadCopiesItsShareOnce) {
  for (unsigned threads : {1u, 2u, 3u}) {
    ParallelCopy copy(threads);
    EXPECT_EQ(copy.threads(), threads);
    for (size_t bytes : kSizes) {
      Buffers a(bytes, 5, 3);
      copy.Copy(a.dst.data() + a.to, a.src.data() + a.from, bytes);
      a.Check();
      Buffers s(bytes, 0, 7);
      copy.StreamCopy(s.dst.data() + s.to, s.src.data() + s.from, bytes);
      s.Check();
      Buffers p(bytes, 9, 0);
      copy.PrefetchingStreamCopy(p.dst.data() + p.to, p.src.data() + p.from, bytes);
      p.Check();
    }
  }
}

// The rewrite in place XORs exactly its bytes with the key (the bench's key is zero: the same
// reads and stores, the bytes unchanged), whatever the size and alignment, on every share.
TEST(RewriteInPlace, RewritesEveryByteAndNoOther) {
  for (unsigned threads : {0u, 1u, 3u})  // 0: the functions themselves, else ParallelCopy's
    for (bool prefetch : {false, true})
      for (size_t bytes : kSizes)
        for (size_t offset : {0, 1, 17, 63}) {
          std::vector<uint8_t> data(bytes + offset + 64);
          std::iota(data.begin(), data.end(), uint8_t{1});
          const std::vector<uint8_t> before = data;
          uint8_t* at = data.data() + offset;
          if (threads == 0) {
            (prefetch ? PrefetchingRewriteInPlace : RewriteInPlace)(at, bytes, 0x5A);
          } else {
            ParallelCopy copy(threads);
            if (prefetch)
              copy.PrefetchingRewriteInPlace(at, bytes, 0x5A);
            else
              copy.RewriteInPlace(at, bytes, 0x5A);
          }
          for (size_t i = 0; i < data.size(); ++i) {
            const bool inside = i >= offset && i < offset + bytes;
            ASSERT_EQ(data[i], inside ? before[i] ^ 0x5A : before[i])
                << "byte " << i << " of " << bytes << ", offset " << offset << ", threads "
                << threads;
          }
        }
}

TEST(ParallelCopy, CopiesSlicesToTheirRows) {
  ParallelCopy copy(2);
  constexpr size_t kSlice = 48;
  const std::vector<uint32_t> rows = {7, 0, 3, 5};
  std::vector<uint8_t> src(rows.size() * kSlice), dst(8 * kSlice, 0xEE);
  std::iota(src.begin(), src.end(), uint8_t{1});
  copy.CopyToRows(dst.data(), src.data(), rows, kSlice);
  for (size_t row = 0; row < 8; ++row)
    for (size_t i = 0; i < kSlice; ++i) {
      uint8_t want = 0xEE;
      for (size_t s = 0; s < rows.size(); ++s)
        if (rows[s] == row) want = src[s * kSlice + i];
      ASSERT_EQ(dst[row * kSlice + i], want) << "row " << row << " byte " << i;
    }
}

}  // namespace
}  // namespace opcts::bench
