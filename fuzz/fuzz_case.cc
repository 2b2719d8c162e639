#include "fuzz/fuzz_case.h"

#include <algorithm>
#include <set>

#include <fuzzer/FuzzedDataProvider.h>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/scatter_form.h"
#include "fuzz/special_values.h"
#include "spec/element.h"
#include "spec/family_hooks.h"

namespace opcts {
namespace {

// Small tensors only: an input's cost grows with its elements (the reference, the judge and the
// guards touch each one several times), and the bugs of long axes show in conformance cases.
// 16 covers every SIMD width's whole vectors and tails, 64 a few rows of them.
constexpr uint32_t kMaxDim = 16;
constexpr uint64_t kMaxElements = 64;  // per shape: the data tensor, the grid of index tuples

// Now and then (one input in 256: a lottery byte at one value) a scan's data tensor gets one
// long dimension, so carries between blocks (workgroups, vector chunks, threads' pieces) are
// exercised. Its elements repeat the first kMaxElements decoded ones: the input stays small,
// and so does the cost of the rare long case averaged over all inputs. The value is neither
// 0x00 nor 0xFF, the bytes libFuzzer's mutations insert most (a lottery at 0xFF drew 15 %).
constexpr uint8_t kLongLottery = 0x4C;
constexpr uint32_t kMinLongDim = kMaxDim + 1, kMaxLongDim = 6144;
constexpr uint64_t kMaxLongOthers = 2;  // the other dimensions' product beside a long one

// Element selectors after the special values: small numbers, then index coordinates, then raw.
constexpr int kSmallMin = -8, kSmallMax = 8;
constexpr unsigned kSmallCount = kSmallMax - kSmallMin + 1;
constexpr unsigned kCoordinateSelectors = 64;
constexpr uint8_t kRawSelector = 255;
static_assert(kMaxSpecialValues + kSmallCount + kCoordinateSelectors < kRawSelector);

// The layouts an input byte chooses, by position: the encoding of every corpus and regression
// input, so append only (whatever the order of the Layout enum). Broadcast last: the choice
// stops before it where a tensor may not broadcast.
constexpr std::string_view kFuzzLayouts[] = {"packed", "padded", "transposed", "broadcast"};
static_assert(kFuzzLayouts[std::size(kFuzzLayouts) - 1] == "broadcast");
constexpr int64_t kLastNonBroadcastLayout = std::size(kFuzzLayouts) - 2;

Layout FuzzLayoutAt(uint32_t choice) { return *LayoutNamed(kFuzzLayouts[choice]); }
uint32_t FuzzLayoutChoice(Layout layout) {
  const auto* it = std::find(std::begin(kFuzzLayouts), std::end(kFuzzLayouts), LayoutName(layout));
  return static_cast<uint32_t>(it - std::begin(kFuzzLayouts));
}

TensorDesc Describe(const FuzzTensor& t) {
  if (t.sizes.empty()) return PackedDesc(t.dtype, {});
  return LayoutDesc(t.dtype, t.sizes, t.layout, t.broadcast_dim);
}

// Reads choices from fuzzer bytes.
class Reader {
 public:
  static constexpr bool kReading = true;
  explicit Reader(FuzzedDataProvider& fdp) : fdp_(fdp) {}

  template <typename T>
  bool Choose(T& value, int64_t lo, int64_t hi) {
    value = static_cast<T>(lo + static_cast<int64_t>(fdp_.ConsumeIntegralInRange<uint64_t>(
                                    0, static_cast<uint64_t>(hi - lo))));
    return true;
  }
  bool Pick(DType& value, const std::vector<DType>& options) {
    value = options[fdp_.ConsumeIntegralInRange<size_t>(0, options.size() - 1)];
    return true;
  }
  template <typename T>
  bool Same(T& value, const T& derived) {
    value = derived;
    return true;
  }
  template <typename T>
  bool Resize(std::vector<T>& v, size_t n, T fill) {
    v.assign(n, fill);
    return true;
  }
  // The first `period` elements are decoded, the rest repeat them.
  void Elements(std::vector<uint64_t>& bits, DType t, uint64_t count, uint64_t period,
                const std::vector<uint32_t>& coordinate_dims) {
    const std::vector<uint64_t>& specials = SpecialValues(t);
    const uint64_t special_count = specials.size();
    bits.resize(count);
    for (uint64_t i = 0; i < std::min(count, period); ++i) {
      const uint64_t selector = fdp_.ConsumeIntegral<uint8_t>();
      if (selector < special_count) {
        bits[i] = specials[selector];
      } else if (selector < special_count + kSmallCount) {
        const int small = static_cast<int>(selector - special_count) + kSmallMin;
        bits[i] = IsFloat(t) ? DoubleToBits(t, small) : static_cast<uint64_t>(small) & BitsMask(t);
      } else if (!coordinate_dims.empty() &&
                 selector < special_count + kSmallCount + kCoordinateSelectors) {
        // In range, negative, or one past either end of the dimension this coordinate addresses.
        const int64_t dim = coordinate_dims[i % coordinate_dims.size()];
        bits[i] = static_cast<uint64_t>(fdp_.ConsumeIntegralInRange<int64_t>(-dim - 1, dim)) &
                  BitsMask(t);
      } else {
        uint64_t raw = 0;
        fdp_.ConsumeData(&raw, DTypeSize(t));  // little-endian, as the tensor bytes are
        bits[i] = raw & BitsMask(t);
      }
    }
    for (uint64_t i = period; i < count; ++i) bits[i] = bits[i - period];
  }

 private:
  FuzzedDataProvider& fdp_;
};

// Writes the bytes a Reader turns into the same choices: integers go to the back in the order
// FuzzedDataProvider consumes them (most significant byte first, from the end), raw element bits
// to the front.
class Writer {
 public:
  static constexpr bool kReading = false;

  template <typename T>
  bool Choose(T& value, int64_t lo, int64_t hi) {
    const int64_t v = static_cast<int64_t>(value);
    if (v < lo || v > hi) return false;
    const uint64_t range = static_cast<uint64_t>(hi - lo), x = static_cast<uint64_t>(v - lo);
    unsigned bytes = 0;
    while (bytes < 8 && (range >> (8 * bytes)) > 0) ++bytes;
    for (unsigned b = bytes; b-- > 0;) back_.push_back(static_cast<char>((x >> (8 * b)) & 0xFF));
    return true;
  }
  bool Pick(DType& value, const std::vector<DType>& options) {
    auto it = std::find(options.begin(), options.end(), value);
    if (it == options.end()) return false;
    size_t index = static_cast<size_t>(it - options.begin());
    return Choose(index, 0, static_cast<int64_t>(options.size()) - 1);
  }
  template <typename T>
  bool Same(T& value, const T& derived) {
    return value == derived;
  }
  template <typename T>
  bool Resize(std::vector<T>& v, size_t n, T) {
    return v.size() == n;
  }
  void Elements(std::vector<uint64_t>& bits, DType t, uint64_t count, uint64_t period,
                const std::vector<uint32_t>&) {
    ok_ = ok_ && bits.size() == count;
    for (uint64_t i = period; i < count && ok_; ++i) ok_ = bits[i] == bits[i - period];
    for (uint64_t i = 0; i < std::min(count, period) && ok_; ++i) {
      uint8_t raw = kRawSelector;
      Choose(raw, 0, 255);
      for (size_t b = 0; b < DTypeSize(t); ++b)
        front_.push_back(static_cast<char>((bits[i] >> (8 * b)) & 0xFF));
    }
  }

  bool ok() const { return ok_; }
  // `filler` between the two ends changes nothing the decoder reads.
  std::string Bytes(const std::string& filler = "") const {
    return front_ + filler + std::string(back_.rbegin(), back_.rend());
  }

 private:
  std::string front_, back_;
  bool ok_ = true;
};

// What a family's shape chooser fixed besides the tensors.
struct ChosenShapes {
  std::map<std::string, std::vector<uint32_t>> coordinate_dims;  // per index tensor
  std::set<std::string> structural;                              // parameters the shapes fixed
};

// Sizes of `count` dimensions but `skip`, each bounded by kMaxDim and by what `budget` (a limit
// on their product) leaves.
template <typename IO>
bool ChooseDims(IO& io, std::vector<uint32_t>& sizes, size_t first, size_t count,
                uint64_t budget = kMaxElements, size_t skip = SIZE_MAX) {
  uint64_t product = 1;
  for (size_t d = first; d < first + count; ++d) {
    if (d == skip) continue;
    const uint64_t room = std::max<uint64_t>(1, budget / product);
    if (!io.Choose(sizes[d], 1, static_cast<int64_t>(std::min<uint64_t>(kMaxDim, room))))
      return false;
    product *= sizes[d];
  }
  return true;
}

// A scan's data dimensions: small, or (see kLongLottery) one long and the others tiny.
template <typename IO>
bool ChooseScanDims(IO& io, std::vector<uint32_t>& sizes) {
  const auto long_it =
      std::find_if(sizes.begin(), sizes.end(), [](uint32_t s) { return s > kMaxDim; });
  uint8_t lottery = long_it == sizes.end() ? 0 : kLongLottery;
  if (!io.Choose(lottery, 0, 255)) return false;
  if (lottery != kLongLottery) return ChooseDims(io, sizes, 0, sizes.size());
  size_t long_dim = static_cast<size_t>(long_it - sizes.begin());
  return io.Choose(long_dim, 0, static_cast<int64_t>(sizes.size()) - 1) &&
         io.Choose(sizes[long_dim], kMinLongDim, kMaxLongDim) &&
         ChooseDims(io, sizes, 0, sizes.size(), kMaxLongOthers, long_dim);
}

template <typename IO>
bool ChooseRank(IO& io, const TensorSupport& support, std::vector<uint32_t>& sizes) {
  int64_t rank = static_cast<int64_t>(sizes.size());
  return io.Choose(rank, support.min_rank, std::min(support.max_rank, kMaxRank)) &&
         io.Resize(sizes, static_cast<size_t>(rank), 1u);
}

// Scans and the like: every tensor has the data tensor's dtype and shape; scalar inputs (an
// OpenVINO axis) are optional as the spec says.
template <typename IO>
bool ChooseScanShapes(IO& io, const OperatorSpec& spec, FuzzCase& c, ChosenShapes&) {
  const SupportLevel& top = TopSupport(spec);
  const TensorSpec* main = spec.FindTensor(spec.Role("input"));
  FuzzTensor& m = c.tensors[main->name];
  const TensorSupport& support = top.tensors.at(main->name);
  if (!io.Pick(m.dtype, support.dtypes) || !ChooseRank(io, support, m.sizes) ||
      !ChooseScanDims(io, m.sizes))
    return false;
  for (const TensorSpec& t : spec.tensors) {
    if (&t == main) continue;
    if (t.role != TensorRole::kScalarInput) {
      FuzzTensor& x = c.tensors[t.name];
      if (!io.Same(x.dtype, m.dtype) || !io.Same(x.sizes, m.sizes)) return false;
      continue;
    }
    bool present = IO::kReading || c.tensors.count(t.name) > 0;
    if (t.optional && !io.Choose(present, 0, 1)) return false;
    if (!present) {
      if (!t.optional) return false;
      continue;
    }
    FuzzTensor& s = c.tensors[t.name];
    if (!io.Pick(s.dtype, top.tensors.at(t.name).dtypes) ||
        !io.Same(s.sizes, std::vector<uint32_t>{}))
      return false;
  }
  return true;
}

// The scatter family, in either form (conformance/scatter_form.h): the input's meaningful
// dimensions, a grid of index tuples, and the updates shape the updates-sizes rule derives.
template <typename IO>
bool ChooseScatterShapes(IO& io, const OperatorSpec& spec, FuzzCase& c, ChosenShapes& chosen) {
  const SupportLevel& top = TopSupport(spec);
  const ScatterForm f = ScatterFormOf(spec);
  FuzzTensor& in = c.tensors[f.input];
  FuzzTensor& idx = c.tensors[f.indices];
  if (!io.Pick(in.dtype, top.tensors.at(f.input).dtypes) ||
      !io.Pick(idx.dtype, top.tensors.at(f.indices).dtypes) ||
      !ChooseRank(io, top.tensors.at(f.input), in.sizes))
    return false;
  const auto rank = static_cast<int64_t>(in.sizes.size());
  int64_t input_dims = rank;
  if (f.HasDimensionCounts()) {
    int64_t& count = c.params[f.input_dims_param];
    if (!io.Choose(count, 1, rank)) return false;
    input_dims = count;
  }
  const auto lead = static_cast<size_t>(rank - input_dims);
  for (size_t d = 0; d < lead; ++d)
    if (!io.Same(in.sizes[d], 1u)) return false;
  if (!ChooseDims(io, in.sizes, lead, static_cast<size_t>(input_dims))) return false;

  uint32_t tuple = idx.sizes.empty() ? 1 : idx.sizes.back();
  if (!io.Choose(tuple, 1, input_dims)) return false;
  if (f.HasDimensionCounts()) {
    int64_t& indices_dims = c.params[f.indices_dims_param];
    if (!io.Choose(indices_dims, 1, rank) || !io.Resize(idx.sizes, static_cast<size_t>(rank), 1u))
      return false;
    const auto index_lead = static_cast<size_t>(rank - indices_dims);
    for (size_t d = 0; d < index_lead; ++d)
      if (!io.Same(idx.sizes[d], 1u)) return false;
    if (!ChooseDims(io, idx.sizes, index_lead, static_cast<size_t>(indices_dims) - 1)) return false;
    chosen.structural.insert({f.input_dims_param, f.indices_dims_param});
  } else {
    // The indices' rank: the updates (grid ++ untouched data dimensions) need rank 1 .. 8.
    const int64_t untouched = rank - tuple;
    int64_t index_rank = static_cast<int64_t>(idx.sizes.size());
    if (!io.Choose(index_rank, untouched == 0 ? 2 : 1,
                   std::min<int64_t>(kMaxRank, kMaxRank - untouched + 1)) ||
        !io.Resize(idx.sizes, static_cast<size_t>(index_rank), 1u) ||
        !ChooseDims(io, idx.sizes, 0, static_cast<size_t>(index_rank) - 1))
      return false;
  }
  if (!io.Same(idx.sizes.back(), tuple)) return false;
  const auto updates_sizes = f.HasDimensionCounts()
                                 ? ScatterNDUpdatesSizes(in.sizes, idx.sizes, input_dims,
                                                         c.params.at(f.indices_dims_param))
                                 : ScatterNDUpdatesSizes(in.sizes, idx.sizes);
  chosen.coordinate_dims[f.indices].assign(in.sizes.begin() + static_cast<ptrdiff_t>(lead),
                                           in.sizes.begin() + static_cast<ptrdiff_t>(lead + tuple));
  if (!updates_sizes) return false;
  FuzzTensor& up = c.tensors[f.updates];
  if (!io.Same(up.dtype, in.dtype) || !io.Same(up.sizes, *updates_sizes)) return false;
  for (const TensorSpec& t : spec.tensors) {
    if (t.name == f.input || t.name == f.indices || t.name == f.updates) continue;
    FuzzTensor& x = c.tensors[t.name];
    if (!io.Same(x.dtype, in.dtype) || !io.Same(x.sizes, in.sizes)) return false;
  }
  return true;
}

// A uint32 parameter's range from its param_range rule, evaluated on the shapes chosen so far.
std::pair<int64_t, int64_t> ParamRange(const OperatorSpec& spec, const ParamSpec& p,
                                       const FuzzCase& c) {
  constexpr std::pair<int64_t, int64_t> kFallback{0, kMaxRank};
  Operation shapes{&spec, c.params, {}, false};
  for (const auto& [name, t] : c.tensors)
    shapes.tensors[name] = TensorData{PackedDesc(t.dtype, t.sizes), {}};
  for (const Constraint& rule : spec.constraints) {
    if (rule.kind != ConstraintKind::kParamRange || rule.param != p.name || !rule.min || !rule.max)
      continue;
    const auto lo = EvaluateBound(*rule.min, shapes), hi = EvaluateBound(*rule.max, shapes);
    if (lo && hi && *lo <= *hi)
      return {std::max<int64_t>(*lo, 0), std::min<int64_t>(*hi, 0xFFFFFFFFll)};
  }
  return kFallback;
}

// `aliasing`: the output that may alias an input, or null.
template <typename IO>
bool ChooseLayout(IO& io, const TensorSpec& t, FuzzCase& c, const TensorSpec* aliasing) {
  FuzzTensor& x = c.tensors.at(t.name);
  if (t.role == TensorRole::kScalarInput) return true;
  if (c.in_place && &t == aliasing) {
    const FuzzTensor& source = c.tensors.at(t.may_alias);
    return io.Same(x.layout, source.layout) && io.Same(x.broadcast_dim, source.broadcast_dim);
  }
  // Outputs and in-place inputs never broadcast: two elements would share one address.
  const bool aliased_input = c.in_place && aliasing != nullptr && aliasing->may_alias == t.name;
  const bool may_broadcast = t.role == TensorRole::kInput && !aliased_input;
  uint32_t choice = FuzzLayoutChoice(x.layout);  // written as is, or read
  if (!io.Choose(choice, 0, may_broadcast ? kLastNonBroadcastLayout + 1 : kLastNonBroadcastLayout))
    return false;
  x.layout = FuzzLayoutAt(choice);
  if (x.layout != Layout::kBroadcast) return io.Same(x.broadcast_dim, 0u);
  return io.Choose(x.broadcast_dim, 0, static_cast<int64_t>(x.sizes.size()) - 1);
}

// Each family's shape chooser, for reading and for writing.
template <typename IO>
using ShapeChooser = bool (*)(IO&, const OperatorSpec&, FuzzCase&, ChosenShapes&);
struct FamilyDecoder {
  ShapeChooser<Reader> read;
  ShapeChooser<Writer> write;
};
const FamilyHooks<FamilyDecoder>& Decoders() {
  static const FamilyHooks<FamilyDecoder> hooks(
      "fuzz decoder (fuzz/fuzz_case.cc)",
      {{"scan", {ChooseScanShapes<Reader>, ChooseScanShapes<Writer>}},
       {"scatter_nd", {ChooseScatterShapes<Reader>, ChooseScatterShapes<Writer>}}});
  return hooks;
}

template <typename IO>
bool Serialize(IO& io, const OperatorSpec& spec, FuzzCase& c) {
  ChosenShapes chosen;
  const FamilyDecoder& decoder = Decoders().For(spec);
  bool shaped = false;
  if constexpr (IO::kReading)
    shaped = decoder.read(io, spec, c, chosen);
  else
    shaped = decoder.write(io, spec, c, chosen);
  if (!shaped) return false;
  std::map<std::string, std::vector<uint32_t>>& coordinate_dims = chosen.coordinate_dims;

  for (const ParamSpec& p : spec.params) {
    if (chosen.structural.count(p.name)) continue;
    int64_t& value = c.params[p.name];
    bool ok = true;
    if (p.type == ParamType::kBool)
      ok = io.Choose(value, 0, 1);
    else if (p.type == ParamType::kEnum)
      ok = !p.enum_values.empty() &&
           io.Choose(value, 0, static_cast<int64_t>(p.enum_values.size()) - 1);
    else {
      const auto [lo, hi] = ParamRange(spec, p, c);
      ok = io.Choose(value, lo, hi);
    }
    if (!ok) return false;
  }

  const TensorSpec* aliasing = nullptr;  // the output that may alias an input
  for (const TensorSpec& t : spec.tensors)
    if (t.role == TensorRole::kOutput && !t.may_alias.empty() && c.tensors.count(t.may_alias))
      aliasing = &t;
  if (spec.semantics.in_place && aliasing != nullptr) {
    if (!io.Choose(c.in_place, 0, 1)) return false;
  } else if (!io.Same(c.in_place, false)) {
    return false;
  }

  // Inputs first: an in-place output takes its input's layout.
  for (const TensorRole role : {TensorRole::kInput, TensorRole::kOutput})
    for (const TensorSpec& t : spec.tensors)
      if (t.role == role && c.tensors.count(t.name) && !ChooseLayout(io, t, c, aliasing))
        return false;

  for (const TensorSpec& t : spec.tensors) {
    auto it = c.tensors.find(t.name);
    if (it == c.tensors.end() || t.role == TensorRole::kOutput) continue;
    const uint64_t count = BufferElementCount(Describe(it->second));
    const std::vector<uint32_t>& sizes = it->second.sizes;
    const bool long_tensor =
        std::any_of(sizes.begin(), sizes.end(), [](uint32_t s) { return s > kMaxDim; });
    io.Elements(it->second.elements, it->second.dtype, count, long_tensor ? kMaxElements : count,
                coordinate_dims[t.name]);
  }
  return true;
}

}  // namespace

std::optional<FuzzCase> DecodeFuzzCase(const OperatorSpec& spec, FuzzedDataProvider& fdp) {
  Reader reader(fdp);
  FuzzCase c;
  if (!Serialize(reader, spec, c)) return std::nullopt;
  return c;
}

std::optional<std::string> EncodeFuzzCase(const OperatorSpec& spec, const FuzzCase& c) {
  FuzzCase copy = c;  // the Writer only reads it, but Serialize's signature is the Reader's
  Writer writer;
  if (!Serialize(writer, spec, copy) || !writer.ok()) return std::nullopt;
  return writer.Bytes();
}

namespace {

// EncodeFuzzCase, with the least filler that makes a long case one that runs.
std::optional<std::string> EncodeRunnable(const OperatorSpec& spec, const FuzzCase& c,
                                          bool long_case) {
  FuzzCase copy = c;
  Writer writer;
  if (!Serialize(writer, spec, copy) || !writer.ok()) return std::nullopt;
  // The hash's low bits follow the bytes' low bits: vary the filler's values, not its length.
  for (uint32_t salt = 0; long_case && salt < 64 * kLongCaseShare; ++salt) {
    const std::string filler =
        salt == 0 ? "" : std::string(reinterpret_cast<const char*>(&salt), 4);
    if (std::string bytes = writer.Bytes(filler); RunsLongCase(bytes)) return bytes;
  }
  return writer.Bytes();
}

}  // namespace

Operation BuildOperation(const OperatorSpec& spec, const FuzzCase& c) {
  Operation op{&spec, c.params, {}, c.in_place};
  for (const auto& [name, t] : c.tensors) {
    TensorData data = MakeTensor(Describe(t));
    if (spec.FindTensor(name)->role != TensorRole::kOutput)
      for (uint64_t i = 0; i < t.elements.size(); ++i)
        StoreBits(t.dtype, data.Element(i), t.elements[i]);
    op.tensors.emplace(name, std::move(data));
  }
  return op;
}

FuzzCase ExtractFuzzCase(const Operation& op) {
  FuzzCase c;
  c.in_place = op.in_place;
  for (const ParamSpec& p : op.spec->params)
    if (const auto value = op.Param(p.name)) c.params[p.name] = *value;
  for (const auto& [name, data] : op.tensors) {
    const TensorDesc& desc = data.desc;
    FuzzTensor t;
    t.dtype = desc.dtype;
    t.sizes = desc.sizes;
    bool found = desc.rank() == 0 && desc == PackedDesc(desc.dtype, {});
    for (std::string_view name : kFuzzLayouts) {
      const Layout layout = *LayoutNamed(name);
      for (unsigned dim = 0;
           dim < (layout == Layout::kBroadcast ? desc.rank() : 1) && !found && desc.rank() > 0;
           ++dim)
        if (LayoutDesc(desc.dtype, desc.sizes, layout, dim) == desc) {
          t.layout = layout;
          t.broadcast_dim = dim;
          found = true;
        }
    }
    if (op.spec->FindTensor(name)->role != TensorRole::kOutput) {
      if (found) {
        for (uint64_t i = 0; i < BufferElementCount(desc); ++i)
          t.elements.push_back(LoadBits(desc.dtype, data.Element(i)));
      } else {
        const StridedIndexer indexer(desc);
        for (uint64_t i = 0; i < ElementCount(desc); ++i)
          t.elements.push_back(LoadBits(desc.dtype, data.Element(indexer.BufferIndex(i))));
      }
    }
    c.tensors.emplace(name, std::move(t));
  }
  return c;
}

std::optional<Operation> DecodeOperation(const OperatorSpec& spec, FuzzedDataProvider& fdp) {
  std::optional<FuzzCase> c = DecodeFuzzCase(spec, fdp);
  if (!c) return std::nullopt;
  return BuildOperation(spec, *c);
}

bool HasLongDimension(const Operation& op) {
  return std::any_of(op.tensors.begin(), op.tensors.end(), [](const auto& named) {
    const std::vector<uint32_t>& sizes = named.second.desc.sizes;
    return std::any_of(sizes.begin(), sizes.end(), [](uint32_t s) { return s > kMaxDim; });
  });
}

std::optional<std::string> EncodeOperation(const Operation& op) {
  // A buffer shorter than its layout (an invalid case's) is nothing the decoder makes.
  for (const auto& [name, data] : op.tensors)
    if (data.bytes.size() < ImpliedMinimumBytes(data.desc)) return std::nullopt;
  return EncodeRunnable(*op.spec, ExtractFuzzCase(op), HasLongDimension(op));
}

bool RunsLongCase(const std::string& input) { return StableHash(input) % kLongCaseShare == 0; }

}  // namespace opcts
