#include "cpu_simd/scan.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <vector>

#include <hwy/cache_control.h>

#include "cpu_simd/parallel.h"
#include "cpu_simd/strided.h"

namespace opcts::cpu_simd {
namespace {

// Below this many elements, waking a thread costs more than it saves.
constexpr uint64_t kParallelMinElements = uint64_t{1} << 16;
// Shared-out work comes in chunks of at least this many input bytes, when there are enough.
constexpr uint64_t kChunkMinBytes = uint64_t{512} << 10;
// Columns per row job: the running row (8 bytes per column at most) stays in L2.
constexpr size_t kRowChunk = 8192;
// Row jobs split a row at multiples of this many columns (whole vectors on every target).
constexpr size_t kRowChunkAlign = 64;
// How long a thread of such a line spins for the carry into its next piece before it sleeps:
// several pieces' time (bench/results/carry-spin-ab.md).
constexpr std::chrono::microseconds kCarrySpin{100};
// Outputs at least this large are written around the caches (non-temporal stores): 3/4 of a
// 32 MiB L3, glibc memcpy's rule. They would not stay cached for the next reader anyway, and a
// cached store first reads the line it writes: a third stream of memory traffic.
constexpr uint64_t kStreamMinBytes = uint64_t{24} << 20;

size_t CeilDiv(size_t a, size_t b) { return (a + b - 1) / b; }

// How a scan walks memory: `lines` independent lines (every index of the line dims); along
// each, `rows` steps on the axis; each step is `width` elements contiguous in both tensors.
struct Plan {
  std::vector<uint32_t> line_sizes, line_in_strides, line_out_strides;
  uint64_t lines = 1;
  size_t rows = 1;
  size_t in_axis_stride = 0, out_axis_stride = 0;
  size_t width = 1;
};

Plan MakePlan(const plugin::TensorLayout& in, const plugin::TensorLayout& out, uint32_t axis) {
  Plan p;
  // Trailing dims that are contiguous in both tensors merge into the row width.
  size_t end = in.sizes.size();
  for (; end > axis + 1; --end) {
    const size_t d = end - 1;
    if (in.sizes[d] == 1) continue;
    if (in.strides[d] != p.width || out.strides[d] != p.width) break;
    p.width *= in.sizes[d];
  }
  for (size_t d = 0; d < end; ++d) {
    if (d == axis || in.sizes[d] == 1) continue;
    p.line_sizes.push_back(in.sizes[d]);
    p.line_in_strides.push_back(in.strides[d]);
    p.line_out_strides.push_back(out.strides[d]);
    p.lines *= in.sizes[d];
  }
  p.rows = in.sizes[axis];
  p.in_axis_stride = in.strides[axis];
  p.out_axis_stride = out.strides[axis];
  return p;
}

OffsetWalker LineWalker(const Plan& p, uint64_t first_line) {
  return OffsetWalker(p.line_sizes, p.line_in_strides, p.line_out_strides, first_line);
}

struct Buffers {
  const unsigned char* in;
  unsigned char* out;
  size_t element_size;
  bool stream;  // non-temporal output stores
};

// How many chunks to cut `items` equal items (`bytes` of input in all) into: about
// kChunkMinBytes each, but at least 4 per thread (a late or slow thread leaves little behind).
uint64_t ChunkCount(uint64_t items, uint64_t bytes, unsigned threads) {
  return std::min(items, std::max<uint64_t>(4 * uint64_t{threads}, bytes / kChunkMinBytes));
}

// Row recurrence: each line's rows combined element-wise, vectorized across `width`. Work items
// are (line, column chunk) pairs, shared out in contiguous runs, each thread's from its own
// region first (RunContiguous).
void RunRows(const ScanArgs& a, const Plan& p, const Buffers& b, bool parallel) {
  const unsigned threads = parallel ? a.pool->threads() : 1;
  size_t chunks = CeilDiv(p.width, kRowChunk);
  if (p.lines * chunks < threads)  // e.g. axis 0: split the row so every thread has columns
    chunks = std::max(
        chunks, std::min<size_t>(CeilDiv(threads, p.lines), CeilDiv(p.width, kRowChunkAlign)));
  const size_t chunk_width = CeilDiv(CeilDiv(p.width, chunks), kRowChunkAlign) * kRowChunkAlign;
  chunks = CeilDiv(p.width, chunk_width);
  const uint64_t items = p.lines * chunks;
  const uint64_t runs = ChunkCount(items, a.in->element_count * b.element_size, threads);

  // One running row per thread, 8 bytes per column (the widest compute type).
  std::vector<std::vector<uint64_t>> scratch(threads,
                                             std::vector<uint64_t>(std::min(chunk_width, p.width)));
  const size_t es = b.element_size;
  const size_t first_row = a.reverse ? p.rows - 1 : 0;
  const ptrdiff_t direction = a.reverse ? -1 : 1;
  const bool zen5 = IsAmdZen5();
  a.pool->RunContiguous(runs, parallel, [&](uint64_t run, unsigned slot) {
    const uint64_t begin = items * run / runs, end = items * (run + 1) / runs;
    uint64_t line = begin / chunks;
    OffsetWalker walker = LineWalker(p, line);
    for (uint64_t item = begin; item < end; ++item) {
      if (item / chunks != line) {
        walker.Next();
        ++line;
      }
      const size_t column = (item % chunks) * chunk_width;
      RowsJob job;
      job.in = b.in + (walker.a() + column + first_row * p.in_axis_stride) * es;
      job.out = b.out + (walker.b() + column + first_row * p.out_axis_stride) * es;
      job.in_row_step = direction * static_cast<ptrdiff_t>(p.in_axis_stride * es);
      job.out_row_step = direction * static_cast<ptrdiff_t>(p.out_axis_stride * es);
      job.rows = p.rows;
      job.width = std::min(chunk_width, p.width - column);
      job.scratch = scratch[slot].data();
      job.stream = b.stream;
      job.zen5 = zen5;
      ScanRows(a.target, a.type, job);
    }
  });
}

// Returns once carries[k] is final (known > k). It usually is within a piece's time, tens of
// microseconds, and a futex sleep and wake-up can take as long: spin for a while first.
void AwaitCarry(const std::atomic<uint32_t>& known, size_t k) {
  const auto spin_until = std::chrono::steady_clock::now() + kCarrySpin;
  for (uint32_t seen; (seen = known.load(std::memory_order_acquire)) <= k;) {
    if (std::chrono::steady_clock::now() < spin_until) {
      for (int i = 0; i < 16; ++i) hwy::Pause();
    } else {
      known.wait(seen, std::memory_order_acquire);
    }
  }
}

// One long contiguous line scanned by all threads in pieces, claimed in order. A thread holding
// a piece whose total it knows waits for the carry into it, passes carry op total on at once,
// claims its next piece and scans this one from cache while reducing the next one in the same
// pass (ScanLineGroup's `along`), from memory. So each piece is read from memory once, in a pass
// that also writes, as a copy does; no thread waits for another's scan, only for an earlier
// piece's carry, which a running thread holds. A reduce pass of its own for each piece, from
// cache before its scan, held 1d lines to about 1 / (1 + copy rate / (4 x reduce rate)) of the
// copy limit (bench/results/split-line-roofline-zen5.md); reducing along took them 1.03-1.12x
// faster on Zen 5 (bench/results/fused-split-line-ab.md). A whole piece is scanned as kLineGroup
// quarters (ScanLineGroup: side by side where it goes so), each after the carry into it (the
// carry into the piece and the totals of the quarters before it), so the along pass reduces each
// quarter of the next piece apart.
// The last piece, shorter, goes as one line. Each piece is read before it is written, by its
// claimer alone, so this is safe in place. One fence per thread, at the end: no other thread
// reads the output before the job ends.
void ScanSplitLine(const ScanArgs& a, const unsigned char* in, unsigned char* out, size_t n,
                   size_t es, bool stream) {
  // A multiple of kLineGroup x 64 bytes: every quarter is aligned alike.
  const size_t piece = std::max<size_t>(kLinePieceBytes / es, 1024);
  const size_t quarter = piece / kLineGroup;
  const size_t pieces = CeilDiv(n, piece);
  std::vector<Carry> carries(pieces + 1);
  carries[0] = IdentityCarry(a.type);
  std::atomic<uint32_t> known{1};  // carries[0, known) are final; 32 bits: a native futex wait
  auto publish = [&](size_t i, Carry c) {
    carries[i] = c;
    // seq_cst, not release: libstdc++'s notify_all wakes only the waiters it has counted, and
    // a release store can still sit in the store buffer while it counts them, so a waiter that
    // read the old value would sleep until some unrelated wake-up (seen: executes stalled for
    // seconds to minutes in a variant that waited more often). The pool's notifies follow
    // read-modify-writes, which x86 never reorders with the count.
    known.store(static_cast<uint32_t>(i + 1), std::memory_order_seq_cst);
    known.notify_all();
  };
  struct Piece {
    size_t begin = 0, length = 0;  // in elements
  };
  auto piece_at = [&](size_t k) {
    const size_t walked = k * piece, length = std::min(piece, n - walked);
    return Piece{a.reverse ? n - walked - length : walked, length};
  };
  // Byte offset of quarter g, in scan order, of a whole piece.
  auto quarter_at = [&](const Piece& p, size_t g) {
    return (p.begin + (a.reverse ? piece - (g + 1) * quarter : g * quarter)) * es;
  };
  std::atomic<uint64_t> claimed{0};
  // One job per thread, each claiming pieces until none is left: a thread that wakes late finds
  // them all claimed and returns.
  a.pool->Run(a.pool->threads(), true, [&](uint64_t, unsigned) {
    size_t k = claimed.fetch_add(1, std::memory_order_relaxed);
    if (k >= pieces) return;
    Piece p = piece_at(k);
    LineGroup group{};  // along_total: the totals of p's quarters, later ones reduced along
    for (size_t g = 0; g < kLineGroup; ++g) {
      group.along_total[g] = IdentityCarry(a.type);
      if (p.length == piece)
        ReduceLine(a.target, a.type, in + quarter_at(p, g), quarter, &group.along_total[g]);
    }
    for (;;) {
      AwaitCarry(known, k);
      Carry carry = carries[k];
      const bool whole = p.length == piece;
      if (whole) {
        for (size_t g = 0; g < kLineGroup; ++g) {
          group.carry[g] = carry;
          carry = Combine(a.type, carry, group.along_total[g]);
        }
        publish(k + 1, carry);
      }
      const size_t next = claimed.fetch_add(1, std::memory_order_relaxed);
      const Piece q = next < pieces ? piece_at(next) : Piece{};
      if (whole) {
        const bool fold = q.length == piece;  // the last piece's total would carry nowhere
        for (size_t g = 0; g < kLineGroup; ++g) {
          group.in[g] = in + quarter_at(p, g);
          group.out[g] = out + quarter_at(p, g);
          group.head[g] = k == 0 && g == 0;
          group.along[g] = fold ? in + quarter_at(q, g) : nullptr;
          group.along_total[g] = IdentityCarry(a.type);
        }
        ScanLineGroup(a.target, a.type, a.reverse, quarter, stream, &group);
      } else {
        ScanLine(a.target, a.type, a.reverse, in + p.begin * es, out + p.begin * es, p.length,
                 &carry, k == 0, stream);
      }
      if (next >= pieces) break;
      k = next;
      p = q;
    }
    if (stream) hwy::FlushStream();
  });
}

// In-register scan of contiguous innermost lines: lines shared out (kLineGroup side by side,
// ScanLineGroup), or a few long lines each split across the threads.
void RunLines(const ScanArgs& a, const Plan& p, const Buffers& b, bool parallel) {
  const size_t n = p.rows, es = b.element_size;
  const unsigned threads = parallel ? a.pool->threads() : 1;
  if (threads > 1 && n >= kLongLine && p.lines < 2 * uint64_t{threads}) {
    OffsetWalker walker = LineWalker(p, 0);
    for (uint64_t line = 0; line < p.lines; ++line, walker.Next())
      ScanSplitLine(a, b.in + walker.a() * es, b.out + walker.b() * es, n, es, b.stream);
    return;
  }
  const uint64_t runs = ChunkCount(p.lines, a.in->element_count * es, threads);
  a.pool->RunContiguous(runs, parallel, [&](uint64_t run, unsigned) {
    const uint64_t begin = p.lines * run / runs, end = p.lines * (run + 1) / runs;
    OffsetWalker walker = LineWalker(p, begin);
    uint64_t line = begin;
    // In place, lines side by side ran int64 at 0.95-0.97x the GB/s, float32 0.98-1.02x
    // (bench/results/lines-side-by-side-ab.md): each line alone.
    const uint64_t grouped_end = b.in == b.out ? begin : end;
    for (; line + kLineGroup <= grouped_end; line += kLineGroup) {
      LineGroup group{};
      for (size_t g = 0; g < kLineGroup; ++g, walker.Next()) {
        group.in[g] = b.in + walker.a() * es;
        group.out[g] = b.out + walker.b() * es;
        group.carry[g] = IdentityCarry(a.type);
        group.head[g] = true;
      }
      ScanLineGroup(a.target, a.type, a.reverse, n, b.stream, &group);
    }
    for (; line < end; ++line, walker.Next()) {
      Carry carry = IdentityCarry(a.type);
      ScanLine(a.target, a.type, a.reverse, b.in + walker.a() * es, b.out + walker.b() * es, n,
               &carry,
               /*head=*/true, b.stream);
    }
    if (b.stream) hwy::FlushStream();  // once per run of lines: each fence waits for memory
  });
}

}  // namespace

ElemKind KindOf(uint32_t data_type) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT32:
      return ElemKind::kF32;
    case OPCTS_DTYPE_FLOAT64:
      return ElemKind::kF64;
    case OPCTS_DTYPE_FLOAT16:
      return ElemKind::kF16;
    case OPCTS_DTYPE_BFLOAT16:
      return ElemKind::kBF16;
    case OPCTS_DTYPE_INT8:
    case OPCTS_DTYPE_UINT8:
      return ElemKind::kU8;
    case OPCTS_DTYPE_INT16:
    case OPCTS_DTYPE_UINT16:
      return ElemKind::kU16;
    case OPCTS_DTYPE_INT32:
    case OPCTS_DTYPE_UINT32:
      return ElemKind::kU32;
    case OPCTS_DTYPE_INT64:
    case OPCTS_DTYPE_UINT64:
      return ElemKind::kU64;
  }
  throw std::invalid_argument("unknown data type " + std::to_string(data_type));
}

void RunScan(const ScanArgs& a) {
  const size_t es = plugin::DTypeSize(a.in->data_type);
  const uint64_t in_span = SpanElements(a.in->sizes, a.in->strides) * es;
  const uint64_t out_span = SpanElements(a.out->sizes, a.out->strides) * es;
  // In place, each output line was just read into cache: streaming would save nothing.
  Buffers b{static_cast<const unsigned char*>(a.in_data), static_cast<unsigned char*>(a.out_data),
            es, out_span >= kStreamMinBytes && a.in_data != a.out_data};
  // Element-for-element aliasing (the documented in-place case) is safe: every kernel that runs
  // in place reads an element before writing it and never reads it again (the one that reads
  // again checks for in == out). Any other overlap reads a copy.
  std::vector<unsigned char> input_copy;
  const bool overlap = b.in < b.out + out_span && b.out < b.in + in_span;
  if (overlap && !(b.in == b.out && a.in->strides == a.out->strides)) {
    input_copy.assign(b.in, b.in + in_span);
    b.in = input_copy.data();
  }
  const Plan plan = MakePlan(*a.in, *a.out, a.axis);
  const bool parallel = a.in->element_count >= kParallelMinElements;
  if (plan.width == 1 && plan.in_axis_stride == 1 && plan.out_axis_stride == 1)
    RunLines(a, plan, b, parallel);
  else
    RunRows(a, plan, b, parallel);
}

}  // namespace opcts::cpu_simd
