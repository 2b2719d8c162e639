#include "bench/case_timer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/baseline_bytes.h"
#include "bench/cache_flush.h"
#include "bench/parallel_copy.h"
#include "conformance/abi_operation.h"
#include "conformance/case_executor.h"
#include "conformance/case_run.h"
#include "spec/element.h"

namespace opcts::bench {
namespace {

using Clock = std::chrono::steady_clock;

// A backend whose execution in the conformance check took this long or more gets one untimed
// iteration below DRAM size and none at DRAM size, where others get two (TimeCase).
constexpr double kSlowExecuteSeconds = 0.5;

// The back-to-back executions of a cache-resident case (TimeCase): the fastest of kBatches
// batches of kBatchExecutes, for a backend whose timed executions took at most
// kBackToBackMaxSeconds each (all of them then take well under a second).
constexpr int kBatches = 8, kBatchExecutes = 32;
constexpr double kBackToBackMaxSeconds = 200e-6;

// A 64-byte aligned, page-touched buffer (untouched pages would be faulted in by the first
// timed execution).
class Buffer {
 public:
  explicit Buffer(uint64_t size)
      : size_(size),
        data_(static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) / 64 * 64 + 64))) {
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_.get(), 0, size_);
  }
  uint8_t* data() const { return data_.get(); }
  uint64_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  uint64_t size_;
  std::unique_ptr<uint8_t, Free> data_;
};

// The bytes of the case that ran last: consecutive benchmarks are the same case on each
// backend, and repetitions of one benchmark run back to back.
const Operation& Materialized(const BenchCase& c) {
  static std::string id;
  static Operation op;
  if (id != c.recipe.id) {
    op = Operation{};  // free the last case before making the next
    op = Materialize(c.recipe);
    id = c.recipe.id;
  }
  return op;
}

// The conformance pipeline's verdict on `plugin` for the case, taken once per backend instance
// and case (cpu-simd and cpu-simd@target=AVX2 are one file).
struct Checked {
  // Why the backend may not be timed on the case, "" when it conforms: a wrong answer is no
  // speed.
  std::string unacceptable;
  double execute_seconds = 0;  // its execution's time there
};

const Checked& Check(const Plugin& plugin, const BenchCase& c) {
  static std::map<std::pair<const Plugin*, std::string>, Checked> verdicts;
  const auto [it, first] = verdicts.try_emplace({&plugin, c.recipe.id});
  if (first) {
    PreparedCase prepared(Materialized(c));
    const CaseVerdict v = RunCase(plugin, prepared, GroupFor(c.recipe, ClaimsOf(plugin)));
    if (!v.acceptable)
      it->second.unacceptable =
          std::string(StatusName(v.outcome.status)) + ": " + v.outcome.message;
    it->second.execute_seconds = static_cast<double>(v.outcome.duration_us) * 1e-6;
  }
  return it->second;
}

// Reads a buffer the size of the DRAM class, untimed, before every timed pass at DRAM size (the
// execution and each copy): where the L3 is smaller than that read (Zen 4 and Zen 5: 32 MiB),
// what the pass before left in cache (the in-place restore's half of the tensor, a memcpy's dirty
// lines) is written back and evicted, and each pass starts from the same state. Not where it is
// larger (the Granite Rapids VM reports 480 MiB: after this read alone a ScatterND case ran 1.4x
// as fast as after a 512 MiB one, bench/results/scatter-update-prefetch-ab.md); there the
// execution's own buffers are flushed as well (FlushCaseBuffer).
void EvictCaches() {
  static const Buffer buffer(kSizeClasses[std::size(kSizeClasses) - 1].tensor_bytes);
  const auto* words = reinterpret_cast<const uint64_t*>(buffer.data());
  uint64_t sum = 0;
  for (uint64_t i = 0; i < buffer.size() / 8; i += 8) sum += words[i];  // one word per line
  benchmark::DoNotOptimize(sum);
}

// Writes a buffer of the case back and out of every cache level (cache_flush.h). Where the CPU
// has no such instruction, says once that the DRAM cases rest on EvictCaches' read alone.
void FlushCaseBuffer(const Buffer& buffer) {
  if (FlushFromCaches(buffer.data(), buffer.size())) return;
  static const bool warned = [] {
    std::fprintf(stderr,
                 "opcts_bench: WARNING: no cache flush on this CPU; a DRAM-size case may run "
                 "partly from an L3 larger than 64 MiB\n");
    return true;
  }();
  (void)warned;
}

uint64_t OutputBytes(const Operation& op) {
  uint64_t bytes = 0;
  for (const auto& [name, t] : op.tensors)
    if (const TensorSpec* spec = op.spec->FindTensor(name);
        spec && spec->role == TensorRole::kOutput)
      bytes += t.desc.total_bytes;
  return bytes;
}

// The rewrite in place's key: a zero the compiler cannot see (in_place_rewrite.h).
volatile uint8_t opaque_zero = 0;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// The time of one copy, at DRAM size after EvictCaches: a memcpy stores through the caches and
// leaves up to an L3 of dirty lines, whose write-back the next copy would pay. Timed right after
// the memcpys, the streaming copy ran 0.80-0.95x of its speed from clean caches on the Zen 5 VM
// (bench/results/copy-after-memcpy-zen5.md).
template <class Copy>
Clock::duration TimeCopy(bool dram, Copy&& copy) {
  if (dram) EvictCaches();
  const Clock::time_point start = Clock::now();
  copy();
  benchmark::ClobberMemory();
  return Clock::now() - start;
}

// The all-thread half of the copy limit: one thread per core, started once.
ParallelCopy& AllThreadCopy() {
  static ParallelCopy copy(std::max(1u, std::thread::hardware_concurrency()));
  return copy;
}

// One iteration's times of the copy limit's four copies.
struct CopyDurations {
  Clock::duration one_thread{}, all_thread{}, stream{}, prefetching_stream{};
};

// The four copies, each between buffers of its own, so none reads what another cached (or
// streams to lines another left dirty in cache).
class BaselineCopies {
 public:
  explicit BaselineCopies(uint64_t size)
      : one_from_(size),
        one_to_(size),
        all_from_(size),
        all_to_(size),
        stream_from_(size),
        stream_to_(size),
        prefetch_from_(size),
        prefetch_to_(size) {}

  // The buffers the copies read, to fill before the first.
  std::array<const Buffer*, 4> Sources() const {
    return {&one_from_, &all_from_, &stream_from_, &prefetch_from_};
  }

  // Times each copy of bytes [at, at + bytes); at DRAM size each from clean caches (TimeCopy).
  CopyDurations Time(bool dram, uint64_t at, uint64_t bytes) const {
    auto copy = [&](void (ParallelCopy::*all_threads)(uint8_t*, const uint8_t*, size_t),
                    const Buffer& from, const Buffer& to) {
      return TimeCopy(
          dram, [&] { (AllThreadCopy().*all_threads)(to.data() + at, from.data() + at, bytes); });
    };
    CopyDurations d;
    d.one_thread =
        TimeCopy(dram, [&] { std::memcpy(one_to_.data() + at, one_from_.data() + at, bytes); });
    d.all_thread = copy(&ParallelCopy::Copy, all_from_, all_to_);
    d.stream = copy(&ParallelCopy::StreamCopy, stream_from_, stream_to_);
    d.prefetching_stream = copy(&ParallelCopy::PrefetchingStreamCopy, prefetch_from_, prefetch_to_);
    return d;
  }

 private:
  const Buffer one_from_, one_to_, all_from_, all_to_, stream_from_, stream_to_, prefetch_from_,
      prefetch_to_;
};

// The baselines' totals over a benchmark's iterations, and the counters they give. The streaming
// copy's counter is the faster of it with and without the prefetch (stream_copy.h).
struct CopyTimes {
  double one_thread_seconds = 0, all_thread_seconds = 0, stream_seconds = 0,
         prefetching_stream_seconds = 0;

  void Add(const CopyDurations& d) {
    one_thread_seconds += Seconds(d.one_thread);
    all_thread_seconds += Seconds(d.all_thread);
    stream_seconds += Seconds(d.stream);
    prefetching_stream_seconds += Seconds(d.prefetching_stream);
  }

  void Count(benchmark::State& state, uint64_t bytes, double execute_seconds) const {
    const double moved = static_cast<double>(state.iterations()) * static_cast<double>(bytes);
    const double best_stream_seconds = std::min(stream_seconds, prefetching_stream_seconds);
    const double limit_seconds =
        std::min({one_thread_seconds, all_thread_seconds, best_stream_seconds});
    state.counters["one_thread_memcpy_bytes_per_second"] = moved / one_thread_seconds;
    state.counters["all_thread_memcpy_bytes_per_second"] = moved / all_thread_seconds;
    state.counters["all_thread_stream_copy_bytes_per_second"] = moved / best_stream_seconds;
    state.counters["prefetching_stream_copy_bytes_per_second"] = moved / prefetching_stream_seconds;
    state.counters["copy_limit_bytes_per_second"] = moved / limit_seconds;
    state.counters["memcpy_threads"] = AllThreadCopy().threads();
    if (execute_seconds <= 0) return;
    state.counters["ratio_to_copy_limit"] = limit_seconds / execute_seconds;
    state.counters["ratio_to_one_thread_memcpy"] = one_thread_seconds / execute_seconds;
  }
};

// The destination rows of an in-place ScatterND case's slices: its one-coordinate index tuples,
// negative ones counted from the end.
std::vector<uint32_t> ScatterRows(const Operation& op, const BenchCase::ScatterPattern& pattern) {
  std::vector<uint32_t> rows;
  if (pattern.count == 0) return rows;
  const TensorData& indices = *op.Tensor(pattern.indices);
  for (uint64_t i = 0; i < pattern.count; ++i) {
    const int64_t row =
        BitsToInt64(indices.desc.dtype, LoadBits(indices.desc.dtype, indices.Element(i)));
    rows.push_back(static_cast<uint32_t>(row < 0 ? row + pattern.rows : row));
  }
  return rows;
}

// The case's buffers bound in ABI order; the in-place output shares its input's buffer.
struct Bound {
  std::map<std::string, Buffer> buffers;
  std::vector<opcts_binding> bindings;
  // In place, the input is overwritten: restored from here before each execution.
  const TensorData* restore_from = nullptr;
  Buffer* restore_to = nullptr;
};

void Bind(const Operation& op, const AbiOperation& abi, Bound& bound) {
  for (const std::string& name : abi.binding_order()) {
    const TensorData* t = op.Tensor(name);
    const TensorSpec* spec = op.spec->FindTensor(name);
    if (t == nullptr) {
      bound.bindings.push_back({nullptr, 0});
      continue;
    }
    if (spec->role == TensorRole::kOutput && op.in_place && !spec->may_alias.empty()) {
      Buffer& shared = bound.buffers.at(spec->may_alias);
      bound.bindings.push_back({shared.data(), shared.size()});
      bound.restore_from = op.Tensor(spec->may_alias);
      bound.restore_to = &shared;
      continue;
    }
    Buffer& b = bound.buffers.emplace(name, Buffer(t->desc.total_bytes)).first->second;
    if (spec->role != TensorRole::kOutput) std::memcpy(b.data(), t->bytes.data(), t->bytes.size());
    bound.bindings.push_back({b.data(), b.size()});
  }
}

}  // namespace

void TimeCase(benchmark::State& state, const Plugin& plugin, const BenchCase& c,
              DeviceCopy* device_copy) {
  const std::string backend = plugin.info().name;
  const Checked& checked = Check(plugin, c);
  if (!checked.unacceptable.empty()) {
    state.SkipWithError(
        (backend + " does not conform on this case, so it is not timed: " + checked.unacceptable)
            .c_str());
    return;
  }
  const Operation& op = Materialized(c);
  const Result<std::unique_ptr<AbiOperation>> built = AbiOperation::Build(op);
  if (!built) {
    state.SkipWithError(("no ABI form: " + built.error().message).c_str());
    return;
  }
  const std::unique_ptr<AbiOperation>& abi = *built;
  char message[1024] = "";
  const opcts_backend_api& api = plugin.api();
  const int32_t query = api.query(plugin.instance(), &abi->desc(), message, sizeof message);
  message[sizeof message - 1] = '\0';
  if (query != OPCTS_STATUS_OK) {
    state.SkipWithError(
        (backend + " refuses at query (" + AbiStatusName(query) + "): " + message).c_str());
    return;
  }
  Bound bound;
  Bind(op, *abi, bound);
  auto execute = [&] {
    return api.execute(plugin.instance(), &abi->desc(), bound.bindings.data(),
                       static_cast<uint32_t>(bound.bindings.size()), message, sizeof message);
  };
  const bool dram = c.size == kSizeClasses[std::size(kSizeClasses) - 1].name;
  auto restore = [&] {
    if (bound.restore_to == nullptr) return;
    std::memcpy(bound.restore_to->data(), bound.restore_from->bytes.data(),
                bound.restore_from->bytes.size());
  };
  // The baseline copies the case's bytes. Where the operator writes a larger tensor than that
  // (ScatterND in place: only the updated slices move), successive copies walk buffers that
  // large, so the copied bytes are no more cached than the operator's.
  const uint64_t slots = std::max<uint64_t>(1, OutputBytes(op) / c.bytes);
  const BaselineCopies baselines(slots * c.bytes);
  for (const Buffer* from : baselines.Sources()) FillWithInputs(op, from->data(), from->size());
  uint64_t slot = 0;
  // In-place ScatterND: the slices also copied to the same rows of a buffer the output's size,
  // over every core, as cold as the operator's: the limit of the writes' pattern itself.
  const std::vector<uint32_t> scatter_rows = ScatterRows(op, c.scatter);
  const Buffer scatter_from(c.scatter.count * c.scatter.slice_bytes),
      scatter_to(uint64_t{c.scatter.rows} * c.scatter.slice_bytes);
  FillWithInputs(op, scatter_from.data(), scatter_from.size());
  double scattered_copy_seconds = 0;
  // An in-place scan at DRAM size: the case's bytes also rewritten in place over every core,
  // through the caches, with and without a prefetch, each from a buffer of its own as cold as the
  // operator's (in_place_rewrite.h): the simplest pass in place. Not below DRAM size, where a
  // pass over every core takes little more than waking the threads (at L2 size 8x the
  // execution's time, which runs on one).
  const bool whole_in_place = dram && bound.restore_to != nullptr && scatter_rows.empty();
  const Buffer rewrite_plain(whole_in_place ? c.bytes : 0),
      rewrite_prefetched(whole_in_place ? c.bytes : 0);
  for (const Buffer* b : {&rewrite_plain, &rewrite_prefetched})
    FillWithInputs(op, b->data(), b->size());
  double rewrite_seconds = 0, prefetching_rewrite_seconds = 0;
  // The device's copies (device_copy.h); the staged one from and to host buffers of its own.
  const Buffer staged_from(device_copy != nullptr ? c.bytes : 0),
      staged_to(device_copy != nullptr ? c.bytes : 0);
  FillWithInputs(op, staged_from.data(), staged_from.size());
  if (device_copy != nullptr)
    if (const Result<void> loaded = device_copy->LoadSource(staged_from.data(), c.bytes); !loaded) {
      state.SkipWithError((backend + "'s device copy failed: " + loaded.error().message).c_str());
      return;
    }
  double device_copy_seconds = 0, staged_copy_seconds = 0;

  auto fail = [&](int32_t status) {
    message[sizeof message - 1] = '\0';
    state.SkipWithError(
        (backend + " failed at execute (" + AbiStatusName(status) + "): " + message).c_str());
  };
  // One iteration: the execution and, after it, the baselines; the times of each.
  struct Times {
    int32_t status;
    Clock::duration execute;
    CopyDurations copies{};
    Clock::duration scattered{}, rewrite{}, prefetching_rewrite{};
    Result<double> device = 0.0, staged = 0.0;
  };
  auto iterate = [&]() -> Times {
    restore();
    // As before each copy. Right after the streaming copy instead, the execution ran 0.95-1.00x
    // as fast on the Granite Rapids VM, 0.96-0.98x on the Zen 5 one
    // (bench/results/execution-after-eviction-ab.md). Then the case's own buffers out of every
    // cache level, whatever the L3's size (cache_flush.h). The copies' buffers are not flushed:
    // a copy partly cached only raises the copy limit, and the ratio errs against the operator.
    if (dram) {
      EvictCaches();
      for (const auto& [name, buffer] : bound.buffers) FlushCaseBuffer(buffer);
    }
    const Clock::time_point t0 = Clock::now();
    const int32_t status = execute();
    const Clock::time_point t1 = Clock::now();
    const uint64_t at = slot++ % slots * c.bytes;
    Times times{status, t1 - t0};
    times.copies = baselines.Time(dram, at, c.bytes);
    if (!scatter_rows.empty())
      times.scattered = TimeCopy(dram, [&] {
        AllThreadCopy().CopyToRows(scatter_to.data(), scatter_from.data(), scatter_rows,
                                   c.scatter.slice_bytes);
      });
    if (whole_in_place) {
      const uint8_t zero = opaque_zero;
      times.rewrite = TimeCopy(
          dram, [&] { AllThreadCopy().RewriteInPlace(rewrite_plain.data(), c.bytes, zero); });
      times.prefetching_rewrite = TimeCopy(dram, [&] {
        AllThreadCopy().PrefetchingRewriteInPlace(rewrite_prefetched.data(), c.bytes, zero);
      });
    }
    if (device_copy != nullptr) {
      times.device = device_copy->TimeDeviceCopy(c.bytes);
      times.staged = device_copy->TimeStagedCopy(staged_from.data(), staged_to.data(), c.bytes);
    }
    return times;
  };
  // A baseline that failed leaves the case without its ratio: say why rather than time it.
  auto baseline_failed = [&](const Times& t) {
    for (const Result<double>* r : {&t.device, &t.staged})
      if (!r->ok()) {
        state.SkipWithError((backend + "'s device copy failed: " + r->error().message).c_str());
        return true;
      }
    return false;
  };
  // Two untimed iterations warm caches and code and fail early. At DRAM size too: the first
  // passes over freshly allocated buffers are slow on some machines, and the execution, first
  // in each iteration and on the buffers allocated first, paid most of it (on a Zen 5 VM its
  // first iteration ran at 0.23-0.56x of the later ones, its second at 0.85-1.00x:
  // bench/results/first-iterations-zen5.md). That cost, a few ms, is noise beside an execution
  // of seconds (cpu-reference's 64 MiB scan: 9 s), so a backend that slow gets one untimed
  // iteration below DRAM size, to fail early, and none at DRAM size.
  const int warm_iterations = checked.execute_seconds < kSlowExecuteSeconds ? 2 : dram ? 0 : 1;
  for (int warm = 0; warm < warm_iterations; ++warm) {
    const Times t = iterate();
    if (t.status != OPCTS_STATUS_OK) return fail(t.status);
    if (baseline_failed(t)) return;
  }
  int32_t status = OPCTS_STATUS_OK;
  double execute_seconds = 0;
  CopyTimes copies;
  for (auto _ : state) {
    const Times t = iterate();
    status = t.status;
    if (status != OPCTS_STATUS_OK) break;
    if (baseline_failed(t)) return;
    state.SetIterationTime(Seconds(t.execute));
    execute_seconds += Seconds(t.execute);
    copies.Add(t.copies);
    scattered_copy_seconds += Seconds(t.scattered);
    rewrite_seconds += Seconds(t.rewrite);
    prefetching_rewrite_seconds += Seconds(t.prefetching_rewrite);
    device_copy_seconds += *t.device;
    staged_copy_seconds += *t.staged;
  }
  if (status != OPCTS_STATUS_OK) return fail(status);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.bytes));
  copies.Count(state, c.bytes, execute_seconds);
  if (!scatter_rows.empty() && execute_seconds > 0) {
    state.counters["scattered_copy_bytes_per_second"] =
        static_cast<double>(state.iterations()) *
        static_cast<double>(c.scatter.count * c.scatter.slice_bytes) / scattered_copy_seconds;
    state.counters["ratio_to_scattered_copy"] = scattered_copy_seconds / execute_seconds;
  }
  if (whole_in_place && execute_seconds > 0) {
    const double faster = std::min(rewrite_seconds, prefetching_rewrite_seconds);
    state.counters["in_place_rewrite_bytes_per_second"] =
        static_cast<double>(state.iterations()) * static_cast<double>(c.bytes) / faster;
    state.counters["ratio_to_in_place_rewrite"] = faster / execute_seconds;
  }
  if (device_copy != nullptr && execute_seconds > 0) {
    const double moved = static_cast<double>(state.iterations()) * static_cast<double>(c.bytes);
    state.counters["device_copy_bytes_per_second"] = moved / device_copy_seconds;
    state.counters["ratio_to_device_copy"] = device_copy_seconds / execute_seconds;
    state.counters["staged_copy_bytes_per_second"] = moved / staged_copy_seconds;
    state.counters["ratio_to_staged_copy"] = staged_copy_seconds / execute_seconds;
  }
  state.counters["elements"] = static_cast<double>(c.elements);
  state.counters["bytes"] = static_cast<double>(c.bytes);
  // The compute ceiling: a case that fits in cache, executed back to back with no copies between
  // (which evict it), so that memory is out of the way and what remains is the arithmetic and a
  // call's fixed cost. Not in place: executions would scan their own outputs.
  if (c.size != kSizeClasses[0].name || bound.restore_to != nullptr ||
      execute_seconds > kBackToBackMaxSeconds * static_cast<double>(state.iterations()))
    return;
  double fastest = 0;  // seconds per execution in the fastest batch
  for (int batch = 0; batch < kBatches; ++batch) {
    const Clock::time_point t0 = Clock::now();
    for (int k = 0; k < kBatchExecutes; ++k)
      if (const int32_t s = execute(); s != OPCTS_STATUS_OK) return fail(s);
    const double each = Seconds(Clock::now() - t0) / kBatchExecutes;
    fastest = batch == 0 ? each : std::min(fastest, each);
  }
  state.counters["back_to_back_bytes_per_second"] = static_cast<double>(c.bytes) / fastest;
}

void TimeMemcpy(benchmark::State& state, uint64_t bytes, bool zeros) {
  const BaselineCopies baselines(bytes);
  if (!zeros)
    for (const Buffer* b : baselines.Sources()) FillPseudoRandom(b->data(), b->size());
  const bool dram = bytes >= kSizeClasses[std::size(kSizeClasses) - 1].tensor_bytes;
  CopyTimes copies;
  for (auto _ : state) {
    const CopyDurations d = baselines.Time(dram, 0, bytes);
    state.SetIterationTime(Seconds(d.one_thread + d.all_thread + d.stream + d.prefetching_stream));
    copies.Add(d);
  }
  copies.Count(state, bytes, 0);
  state.counters["bytes"] = static_cast<double>(bytes);
}

}  // namespace opcts::bench
