#include "cpu_simd/scatter_nd.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include <hwy/cache_control.h>

#include "common/plugin_support.h"
#include "cpu_simd/parallel.h"
#include "cpu_simd/scatter_reduce.h"
#include "cpu_simd/stream_copy.h"
#include "cpu_simd/strided.h"

namespace opcts::cpu_simd {
namespace {

template <class T>
T ReadAs(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Reads one index and resolves it against a dimension of `size`: negative values of signed types
// count from the end. False when the result is outside [0, size).
bool ResolveIndex(uint32_t data_type, const unsigned char* p, uint32_t size, uint64_t* index) {
  int64_t value;
  switch (data_type) {
    case OPCTS_DTYPE_INT32:
      value = ReadAs<int32_t>(p);
      break;
    case OPCTS_DTYPE_INT64:
      value = ReadAs<int64_t>(p);
      break;
    case OPCTS_DTYPE_UINT32:
      value = ReadAs<uint32_t>(p);
      break;
    case OPCTS_DTYPE_UINT64: {
      const uint64_t u = ReadAs<uint64_t>(p);
      if (u >= size) return false;
      value = static_cast<int64_t>(u);
      break;
    }
    default:
      return false;
  }
  if (value < 0) value += size;  // no overflow: |value| <= 2^63 and size < 2^32
  if (value < 0 || value >= int64_t{size}) return false;
  *index = static_cast<uint64_t>(value);
  return true;
}

std::vector<uint32_t> Slice(const std::vector<uint32_t>& v, size_t begin, size_t end) {
  return std::vector<uint32_t>(v.begin() + static_cast<ptrdiff_t>(begin),
                               v.begin() + static_cast<ptrdiff_t>(end));
}

// Copies every element of `from` (layout `from_layout`) to `to` (layout `to_layout`).
void CopyTensor(const plugin::TensorLayout& from_layout, const unsigned char* from,
                const plugin::TensorLayout& to_layout, unsigned char* to, size_t es) {
  if (from_layout.packed && to_layout.packed) {
    std::memmove(to, from, from_layout.element_count * es);
    return;
  }
  OffsetWalker walker(from_layout.sizes, from_layout.strides, to_layout.strides);
  for (uint64_t i = 0; i < from_layout.element_count; ++i, walker.Next())
    std::memcpy(to + walker.b() * es, from + walker.a() * es, es);
}

// Where a copy stores: through the caches, or around them (StreamCopy) prefetching its input as it
// goes, or around them with the input prefetched earlier by the caller.
enum class Store { kCached, kStream, kStreamPrefetched };

// Everything RunScatterND derives from the descriptors: where each tuple's indices and update
// slice live, and how a slice is laid out in updates and output.
struct ScatterPlan {
  plugin::TensorLayout in, idx, upd, out;
  size_t es = 0, is = 0;
  size_t q = 0;              // index tuple size
  size_t first_indexed = 0;  // output dim the tuple's first index addresses
  std::vector<uint32_t> tuple_sizes, tuple_idx_strides, tuple_upd_strides;
  std::vector<uint32_t> slice_sizes, slice_upd_strides, slice_out_strides;
  // Per tuple coordinate: its output element stride, and (packed output) its stride in slices.
  std::vector<uint64_t> index_out_strides, index_slice_strides;
  uint64_t slice_elements = 1;
  bool slice_contiguous = false;  // packed updates and output: a slice is one run of bytes
  uint32_t index_stride = 0;
  SimdTarget target;  // of StreamCopy

  ScatterPlan(const plugin::ScatterView& view, SimdTarget simd_target)
      : in(plugin::MakeLayout(*view.input.desc)),
        idx(plugin::MakeLayout(*view.indices.desc)),
        upd(plugin::MakeLayout(*view.updates.desc)),
        out(plugin::MakeLayout(*view.output.desc)),
        es(plugin::DTypeSize(in.data_type)),
        is(plugin::DTypeSize(idx.data_type)),
        target(simd_target) {
    // DirectML's tensors share one rank; ONNX's differ. Either way a tuple addresses the input
    // dims from `first_indexed`, and updates end with the slice dims, after the tuple dims.
    const size_t in_rank = in.sizes.size(), idx_rank = idx.sizes.size(),
                 upd_rank = upd.sizes.size();
    const size_t k_in = view.input_dimension_count, k_idx = view.indices_dimension_count;
    q = idx.sizes[idx_rank - 1];
    first_indexed = in_rank - k_in;
    const size_t first_slice = first_indexed + q;
    const size_t upd_first_slice = upd_rank - (in_rank - first_slice);
    const size_t first_update_tuple_dim = upd_first_slice - (k_idx - 1);
    // Tuples: the meaningful indices dims except the last; their offsets in indices and updates.
    tuple_sizes = Slice(idx.sizes, idx_rank - k_idx, idx_rank - 1);
    tuple_idx_strides = Slice(idx.strides, idx_rank - k_idx, idx_rank - 1);
    tuple_upd_strides = Slice(upd.strides, first_update_tuple_dim, upd_first_slice);
    // One slice: the output dims after the indexed ones, in updates and output.
    slice_sizes = Slice(in.sizes, first_slice, in_rank);
    slice_upd_strides = Slice(upd.strides, upd_first_slice, upd_rank);
    slice_out_strides = Slice(out.strides, first_slice, in_rank);
    for (uint32_t size : slice_sizes) slice_elements *= size;
    slice_contiguous = upd.packed && out.packed;
    index_stride = idx.strides[idx_rank - 1];
    for (size_t j = 0; j < q; ++j) {
      index_out_strides.push_back(out.strides[first_indexed + j]);
      index_slice_strides.push_back(out.strides[first_indexed + j] / slice_elements);
    }
  }

  // The index tuples from tuple `first` on: their offsets in indices (a()) and updates (b()).
  OffsetWalker Tuples(uint64_t first = 0) const {
    return OffsetWalker(tuple_sizes, tuple_idx_strides, tuple_upd_strides, first);
  }

  // The output element offset of the tuple whose indices start at element `idx_offset`, or
  // nullopt when an index is out of range.
  std::optional<uint64_t> OutputOffset(const unsigned char* idx_data, uint64_t idx_offset) const {
    return Fold(idx_data, idx_offset, index_out_strides);
  }
  // The same as a slice number, for a packed output (offset = slice * slice_elements): no
  // division (tens of cycles) to tell two tuples' slices apart.
  std::optional<uint64_t> OutputSlice(const unsigned char* idx_data, uint64_t idx_offset) const {
    return Fold(idx_data, idx_offset, index_slice_strides);
  }

  void CopyBytes(unsigned char* dst, const unsigned char* src, size_t bytes, Store store) const {
    if (store == Store::kCached)
      std::memcpy(dst, src, bytes);
    else
      StreamCopy(target, dst, src, bytes, store == Store::kStream);
  }

  void CopySlice(const unsigned char* upd_data, uint64_t upd_offset, unsigned char* out_data,
                 uint64_t out_offset, Store store) const {
    const unsigned char* src = upd_data + upd_offset * es;
    unsigned char* dst = out_data + out_offset * es;
    if (slice_contiguous) {
      CopyBytes(dst, src, slice_elements * es, store);
      return;
    }
    OffsetWalker slice(slice_sizes, slice_upd_strides, slice_out_strides);
    for (uint64_t i = 0; i < slice_elements; ++i, slice.Next())
      std::memcpy(dst + slice.b() * es, src + slice.a() * es, es);
  }

  // Combines the slice into the accumulator (float16/bfloat16 add and mul).
  void AccumulateSlice(const unsigned char* upd_data, uint64_t upd_offset,
                       const unsigned char* out_data, uint64_t out_offset,
                       HalfAccumulator& acc) const {
    OffsetWalker slice(slice_sizes, slice_upd_strides, slice_out_strides);
    for (uint64_t i = 0; i < slice_elements; ++i, slice.Next())
      acc.Combine(out_data, out_offset + slice.b(), upd_data + (upd_offset + slice.a()) * es);
  }

  // Combines the slice into the output element by element (a reduction other than none).
  void CombineSlice(const unsigned char* upd_data, uint64_t upd_offset, unsigned char* out_data,
                    uint64_t out_offset, plugin::ScatterReduction reduction) const {
    const unsigned char* src = upd_data + upd_offset * es;
    unsigned char* dst = out_data + out_offset * es;
    OffsetWalker slice(slice_sizes, slice_upd_strides, slice_out_strides);
    for (uint64_t i = 0; i < slice_elements; ++i, slice.Next())
      CombineElement(out.data_type, reduction, dst + slice.b() * es, src + slice.a() * es);
  }

 private:
  // Σ index_j * strides[j] over the tuple's resolved indices; nullopt when one is out of range.
  std::optional<uint64_t> Fold(const unsigned char* idx_data, uint64_t idx_offset,
                               const std::vector<uint64_t>& strides) const {
    uint64_t sum = 0;
    for (size_t j = 0; j < q; ++j) {
      uint64_t index = 0;
      if (!ResolveIndex(idx.data_type, idx_data + (idx_offset + j * index_stride) * is,
                        in.sizes[first_indexed + j], &index))
        return std::nullopt;
      sum += index * strides[j];
    }
    return sum;
  }
};

// Prefetches `count` bytes from `bytes` into L2. The empty asm keeps the loop: without it GCC 12
// deleted ScatterBlocked's loops of prefetches as loops without effects (its disassembly had no
// prefetch there).
void PrefetchIntoL2(const unsigned char* bytes, uint64_t count) {
  for (uint64_t at = 0; at < count; at += 64) {
    __builtin_prefetch(bytes + at, /*rw=*/0, /*locality=*/2);
    asm volatile("" : : "r"(bytes + at));
  }
}

// Outputs this large (larger than L2) are produced block by block, over the threads.
constexpr uint64_t kBlockedMinBytes = uint64_t{4} << 20;
// Output is produced in blocks of about this size, whole slices, each copied from the input and
// then overwritten by its updates while it is still in L2: the scatter's writes hit cache.
constexpr uint64_t kBlockBytes = uint64_t{256} << 10;
// Outputs at least this large are written around the caches where nothing rewrites them at
// once (scan.cc has the same rule).
constexpr uint64_t kStreamMinBytes = uint64_t{24} << 20;

// visit(k, walker) for every tuple k, the walker at its indices (a()) and update slice (b()); in
// parts over the threads when `parallel`.
template <class Visit>
void ForEachTuple(const ScatterPlan& p, uint64_t count, WorkPool& pool, bool parallel,
                  const Visit& visit) {
  const uint64_t parts = std::min<uint64_t>(count, 4 * uint64_t{pool.threads()});
  pool.Run(parts, parallel, [&](uint64_t part, unsigned) {
    const uint64_t first = count * part / parts, last = count * (part + 1) / parts;
    OffsetWalker walker = p.Tuples(first);
    for (uint64_t k = first; k < last; ++k, walker.Next()) visit(k, walker);
  });
}

// How many tuples ahead ScatterInPlace prefetches the first line of the slice it will write
// (non-temporal hint). 1 KiB slices, 1 in 16, two threads: 0.74-0.86x of memcpy without,
// 0.82-0.97x with, in the same runs (64 B and 16 KiB slices: no change), measured while a fence
// per slice still held this path back (dispatch_index.h); not re-measured since.
constexpr uint64_t kPrefetchTuples = 16;

// How the threads share the slice writes of a pass. By tuples, when no slice is written twice:
// runs of consecutive tuples, each slice written wherever it goes, so each thread reads its
// updates as they lie (split by output address instead, the threads' reads interleave and the
// prefetchers fetch each other's slices: in place 0.1x of memcpy slower; ScatterBlocked's
// second pass, 1 KiB slices, 1.27-2.03x the time, bench/results/scatter-by-run-ab.md). The runs
// are short (16 per thread) so that the caller works on while a worker is still waking (tens of
// microseconds here; with one run per thread the caller waited for it: 0.02-0.13x of memcpy
// slower, measured). By output, keeping the sequential outcome of a repeated slice: each thread
// walks every tuple in order and writes those in its own share of the output's `units` (slices
// or blocks).
struct WriteShares {
  struct Share {
    uint64_t first, last;  // tuples [first, last)
    uint64_t lo, hi;       // output units [lo, hi)
  };
  WriteShares(bool split_by_output, uint64_t tuple_count, uint64_t unit_count, unsigned threads)
      : by_output(split_by_output),
        tuples(tuple_count),
        units(unit_count),
        count(by_output ? threads : std::min<uint64_t>(tuples, 16 * uint64_t{threads})) {}
  Share operator[](uint64_t i) const {
    if (by_output) return {0, tuples, units * i / count, units * (i + 1) / count};
    return {tuples * i / count, tuples * (i + 1) / count, 0, units};
  }
  const bool by_output;
  const uint64_t tuples, units, count;
};

// In place, only the updated slices move.
void ScatterInPlace(const ScatterPlan& p, const unsigned char* idx_data,
                    const unsigned char* upd_data, unsigned char* out_data, WorkPool& pool) {
  const uint64_t slices = p.out.element_count / p.slice_elements;
  const uint64_t count = p.Tuples().count();
  const Store store =
      p.out.element_count * p.es >= kStreamMinBytes ? Store::kStream : Store::kCached;
  // Every tuple's slice (kSkip: an index out of range); resolving is a few ns a tuple, so
  // threads only when there are many. Then whether one slice comes twice.
  constexpr uint64_t kSkip = ~uint64_t{0};
  std::vector<uint64_t> slice_of(count);
  const bool many = count >= (uint64_t{1} << 16);
  ForEachTuple(p, count, pool, many, [&](uint64_t k, const OffsetWalker& t) {
    slice_of[k] = p.OutputSlice(idx_data, t.a()).value_or(kSkip);
  });
  // Split by output when a slice repeats (one bit per slice tells), or when the bits would
  // outweigh the bytes to move (a few tuples into many slices): that split is right either way.
  bool by_output = slices / 8 > count * p.slice_elements * p.es;
  std::vector<uint64_t> seen(by_output ? 0 : (slices + 63) / 64, 0);
  for (uint64_t k = 0; k < count && !by_output; ++k) {
    if (slice_of[k] == kSkip) continue;
    const uint64_t bit = uint64_t{1} << (slice_of[k] % 64);
    by_output = (seen[slice_of[k] / 64] & bit) != 0;
    seen[slice_of[k] / 64] |= bit;
  }

  const WriteShares shares(by_output, count, slices, pool.threads());
  pool.Run(shares.count, true, [&](uint64_t i, unsigned) {
    const WriteShares::Share s = shares[i];
    auto mine = [&](uint64_t slice) { return slice >= s.lo && slice < s.hi; };  // false for kSkip
    OffsetWalker walker = p.Tuples(s.first);
    for (uint64_t k = s.first; k < s.last; ++k, walker.Next()) {
      const uint64_t ahead = k + kPrefetchTuples;
      if (ahead < s.last && mine(slice_of[ahead]))
        __builtin_prefetch(out_data + slice_of[ahead] * p.slice_elements * p.es, /*rw=*/0,
                           /*locality=*/0);  // prefetchnta: Highway's Prefetch has only T0
      if (mine(slice_of[k]))
        p.CopySlice(upd_data, walker.b(), out_data, slice_of[k] * p.slice_elements, store);
    }
    if (store != Store::kCached) hwy::FlushStream();
  });
}

// Packed input and output, disjoint: output element offsets equal input ones, and a slice starts
// at a multiple of its own size, so blocks of whole slices partition the output. The tuples are
// resolved in parallel and grouped by block; every block is produced by one thread, its tuples in
// tuple order (a repeated tuple keeps its sequential outcome): no element has two writers.
void ScatterBlocked(const ScatterPlan& p, const unsigned char* in_data,
                    const unsigned char* idx_data, const unsigned char* upd_data,
                    unsigned char* out_data, WorkPool& pool) {
  const uint64_t total = p.out.element_count;
  const uint64_t block_slices = std::max<uint64_t>(1, kBlockBytes / (p.slice_elements * p.es));
  const uint64_t block_elements = block_slices * p.slice_elements;
  const uint64_t blocks = (total / p.slice_elements + block_slices - 1) / block_slices;
  const uint64_t count = p.Tuples().count();
  // Per tuple: output and update offsets and the output block (kSkip: an index out of range).
  // Divisions are slow (tens of cycles), so the block is computed once, here.
  constexpr uint64_t kSkip = ~uint64_t{0};
  std::vector<uint64_t> out_offsets(count), upd_offsets(count), block_of(count);
  ForEachTuple(p, count, pool, true, [&](uint64_t k, const OffsetWalker& t) {
    out_offsets[k] = p.OutputOffset(idx_data, t.a()).value_or(kSkip);
    upd_offsets[k] = t.b();
    block_of[k] = out_offsets[k] == kSkip ? kSkip : out_offsets[k] / block_elements;
  });
  // Counting sort of the tuples by block, stable: starts[b] .. starts[b + 1] in `order`.
  std::vector<uint64_t> starts(blocks + 1, 0), order(count);
  for (uint64_t k = 0; k < count; ++k)
    if (block_of[k] != kSkip) ++starts[block_of[k] + 1];
  for (uint64_t b = 0; b < blocks; ++b) starts[b + 1] += starts[b];
  std::vector<uint64_t> next(starts.begin(), starts.end() - 1);
  for (uint64_t k = 0; k < count; ++k)
    if (block_of[k] != kSkip) order[next[block_of[k]]++] = k;

  // Blocks needing the input are copied and then overwritten while in cache, or in a large
  // output written once around the caches (stream_block). The others (every slice overwritten:
  // one bit per slice tells) are left for the second pass.
  const bool stream = total * p.es >= kStreamMinBytes;
  std::vector<std::vector<uint64_t>> covered(pool.threads(),
                                             std::vector<uint64_t>((block_slices + 63) / 64));
  auto covers = [&](uint64_t b, uint64_t lo, uint64_t slices, std::vector<uint64_t>& bits) {
    std::fill(bits.begin(), bits.end(), 0);
    uint64_t distinct = 0;
    for (uint64_t i = starts[b]; i < starts[b + 1]; ++i) {
      const uint64_t slice = (out_offsets[order[i]] - lo) / p.slice_elements;
      const uint64_t bit = uint64_t{1} << (slice % 64);
      distinct += (bits[slice / 64] & bit) == 0;
      bits[slice / 64] |= bit;
    }
    return distinct == slices;
  };
  auto slices_in = [&](uint64_t b) {
    return (std::min(total, (b + 1) * block_elements) - b * block_elements) / p.slice_elements;
  };
  // A block of a large output, written once around the caches: the input's runs between updated
  // slices, and each updated slice from its last tuple (the sequential outcome). Copied and then
  // overwritten in cache, each output line would first be read: 1 KiB slices, 1 in 16 updated,
  // 0.56x of the copy limit that way, 0.91x this way (Emerald Rapids, AVX3). The updated slices
  // lie anywhere in the updates, so they were prefetched two blocks earlier (see below).
  std::vector<std::vector<uint64_t>> last_tuples(stream ? pool.threads() : 0,
                                                 std::vector<uint64_t>(block_slices));
  auto stream_block = [&](uint64_t b, uint64_t lo, uint64_t slices, std::vector<uint64_t>& last) {
    std::fill_n(last.begin(), slices, kSkip);  // per slice of the block: its last tuple
    for (uint64_t i = starts[b]; i < starts[b + 1]; ++i)
      last[(out_offsets[order[i]] - lo) / p.slice_elements] = order[i];
    const uint64_t slice_bytes = p.slice_elements * p.es;
    uint64_t run = 0;  // the first slice of the input run not yet copied
    for (uint64_t j = 0; j <= slices; ++j) {
      if (j < slices && last[j] == kSkip) continue;
      if (j > run)
        p.CopyBytes(out_data + lo * p.es + run * slice_bytes,
                    in_data + lo * p.es + run * slice_bytes, (j - run) * slice_bytes,
                    Store::kStream);
      if (j < slices)
        p.CopySlice(upd_data, upd_offsets[last[j]], out_data, lo + j * p.slice_elements,
                    Store::kStreamPrefetched);
      run = j + 1;
    }
    hwy::FlushStream();
  };
  // Into L2: the update slices of the block a thread takes after the next, if it will be
  // streamed (fewer tuples than slices: not every slice overwritten). Each thread takes its blocks
  // in order from a region of its own, so that block is most likely its own. With this prefetch in
  // place of the copy's own 8 KiB ahead, which reads unrelated updates, slices one in 16 from
  // DRAM: 64 bytes 1.24-1.26x as fast, 1 KiB 1.09-1.18x, 16 KiB within the noise
  // (bench/results/scatter-update-prefetch-ab.md).
  auto prefetch_updates = [&](uint64_t b) {
    if (!p.slice_contiguous || b >= blocks || starts[b + 1] - starts[b] >= slices_in(b)) return;
    for (uint64_t i = starts[b]; i < starts[b + 1]; ++i)
      PrefetchIntoL2(upd_data + upd_offsets[order[i]] * p.es, p.slice_elements * p.es);
  };
  std::vector<uint8_t> deferred(blocks, 0);
  pool.RunContiguous(blocks, true, [&](uint64_t b, unsigned slot) {
    const uint64_t lo = b * block_elements, hi = std::min(total, lo + block_elements);
    const uint64_t slices = slices_in(b);
    if (stream) prefetch_updates(b + 2);
    if (starts[b + 1] - starts[b] >= slices && covers(b, lo, slices, covered[slot])) {
      deferred[b] = 1;
      return;
    }
    if (stream) {
      stream_block(b, lo, slices, last_tuples[slot]);
      return;
    }
    p.CopyBytes(out_data + lo * p.es, in_data + lo * p.es, (hi - lo) * p.es, Store::kCached);
    for (uint64_t i = starts[b]; i < starts[b + 1]; ++i)
      p.CopySlice(upd_data, upd_offsets[order[i]], out_data, out_offsets[order[i]], Store::kCached);
  });
  // Second pass: the deferred blocks, split by output only if one of them takes a slice twice
  // (more tuples than slices: every slice is covered); nothing reads these slices soon, so large
  // outputs are written around the caches.
  bool repeats = false;
  for (uint64_t b = 0; b < blocks && !repeats; ++b)
    repeats = deferred[b] && starts[b + 1] - starts[b] > slices_in(b);
  const WriteShares shares(repeats, count, blocks, pool.threads());
  pool.Run(shares.count, true, [&](uint64_t i, unsigned) {
    const WriteShares::Share s = shares[i];
    for (uint64_t k = s.first; k < s.last; ++k) {
      const uint64_t b = block_of[k];
      if (b != kSkip && b >= s.lo && b < s.hi && deferred[b])
        p.CopySlice(upd_data, upd_offsets[k], out_data, out_offsets[k],
                    stream ? Store::kStream : Store::kCached);
    }
    if (stream) hwy::FlushStream();
  });
}

}  // namespace

bool IsSupportedIndexType(uint32_t data_type) {
  return data_type == OPCTS_DTYPE_INT32 || data_type == OPCTS_DTYPE_INT64 ||
         data_type == OPCTS_DTYPE_UINT32 || data_type == OPCTS_DTYPE_UINT64;
}

void RunScatterND(const plugin::ScatterView& view, const opcts_binding* bindings, WorkPool& pool,
                  SimdTarget target) {
  const ScatterPlan p(view, target);
  const auto* in_data = static_cast<const unsigned char*>(bindings[view.input.binding].data);
  const auto* idx_data = static_cast<const unsigned char*>(bindings[view.indices.binding].data);
  const auto* upd_data = static_cast<const unsigned char*>(bindings[view.updates.binding].data);
  auto* out_data = static_cast<unsigned char*>(bindings[view.output.binding].data);
  const auto reduction = static_cast<plugin::ScatterReduction>(view.reduction);
  const bool in_place = in_data == out_data && p.in.strides == p.out.strides;
  const uint64_t out_bytes = SpanElements(p.out.sizes, p.out.strides) * p.es;
  const bool disjoint = in_data + out_bytes <= out_data || out_data + out_bytes <= in_data;
  // Reductions take the sequential path: each tuple combines in tuple order.
  const bool large = out_bytes >= kBlockedMinBytes && reduction == plugin::ScatterReduction::kNone;
  if (large && p.out.packed && in_place) {
    ScatterInPlace(p, idx_data, upd_data, out_data, pool);
    return;
  }
  if (large && p.out.packed && p.in.packed && disjoint) {
    ScatterBlocked(p, in_data, idx_data, upd_data, out_data, pool);
    return;
  }

  // output = input, skipped when they are the same elements (in place).
  if (!in_place) {
    const uint64_t in_bytes = SpanElements(p.in.sizes, p.in.strides) * p.es;
    std::vector<unsigned char> input_copy;
    if (in_data < out_data + out_bytes && out_data < in_data + in_bytes) {
      input_copy.assign(in_data, in_data + in_bytes);
      in_data = input_copy.data();
    }
    CopyTensor(p.in, in_data, p.out, out_data, p.es);
  }
  std::optional<HalfAccumulator> half;
  if (HalfAccumulator::Needed(p.out.data_type, reduction))
    half.emplace(p.out.data_type, reduction, out_bytes / p.es);
  OffsetWalker tuples = p.Tuples();
  for (uint64_t t = 0; t < tuples.count(); ++t, tuples.Next())
    if (const std::optional<uint64_t> out_offset = p.OutputOffset(idx_data, tuples.a())) {
      if (reduction == plugin::ScatterReduction::kNone)
        p.CopySlice(upd_data, tuples.b(), out_data, *out_offset, Store::kCached);
      else if (half)
        p.AccumulateSlice(upd_data, tuples.b(), out_data, *out_offset, *half);
      else
        p.CombineSlice(upd_data, tuples.b(), out_data, *out_offset, reduction);
    }
  if (half) half->Store(out_data);
}

}  // namespace opcts::cpu_simd
