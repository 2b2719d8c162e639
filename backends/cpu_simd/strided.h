// Walks a row-major index space, keeping the element offset of the current index in two strided
// tensors (e.g. an input and an output, or indices and updates).
//
//   OffsetWalker w({2, 3}, in_strides, out_strides);
//   for (uint64_t i = 0; i < w.count(); ++i, w.Next()) Copy(in + w.a(), out + w.b());
#pragma once

#include <cstdint>
#include <vector>

namespace opcts::cpu_simd {

class OffsetWalker {
 public:
  // Positioned at row-major index `start` (wrapping past the end returns to 0).
  OffsetWalker(std::vector<uint32_t> sizes, std::vector<uint32_t> strides_a,
               std::vector<uint32_t> strides_b, uint64_t start = 0)
      : sizes_(std::move(sizes)),
        strides_a_(std::move(strides_a)),
        strides_b_(std::move(strides_b)),
        index_(sizes_.size(), 0) {
    for (size_t d = sizes_.size(); d-- > 0;) {
      index_[d] = static_cast<uint32_t>(start % sizes_[d]);
      start /= sizes_[d];
      a_ += uint64_t{index_[d]} * strides_a_[d];
      b_ += uint64_t{index_[d]} * strides_b_[d];
    }
  }

  uint64_t a() const { return a_; }
  uint64_t b() const { return b_; }
  uint64_t count() const {
    uint64_t n = 1;
    for (uint32_t s : sizes_) n *= s;
    return n;
  }

  void Next() {
    for (size_t d = sizes_.size(); d-- > 0;) {
      a_ += strides_a_[d];
      b_ += strides_b_[d];
      if (++index_[d] < sizes_[d]) return;
      a_ -= uint64_t{strides_a_[d]} * sizes_[d];
      b_ -= uint64_t{strides_b_[d]} * sizes_[d];
      index_[d] = 0;
    }
  }

 private:
  std::vector<uint32_t> sizes_, strides_a_, strides_b_;
  std::vector<uint32_t> index_;
  uint64_t a_ = 0, b_ = 0;
};

// Number of elements a strided tensor's addressing spans: dot(sizes - 1, strides) + 1.
inline uint64_t SpanElements(const std::vector<uint32_t>& sizes,
                             const std::vector<uint32_t>& strides) {
  uint64_t last = 0;
  for (size_t d = 0; d < sizes.size(); ++d) last += uint64_t{sizes[d] - 1} * strides[d];
  return last + 1;
}

}  // namespace opcts::cpu_simd
