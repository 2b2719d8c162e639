// opcts_scan_edges PLUGIN [OPTIONS]: float scans' IEEE edges, checked bit for bit on one plugin
// through its C ABI. Every answer below is derived by hand from IEEE 754 round-to-nearest
// arithmetic, never computed by code under test: a sum is -0.0 only when every term is -0.0 (an
// exact cancellation gives +0.0); the empty sum is +0.0 and the empty product 1; a product's sign
// is the parity of its negative factors (-0.0 and -inf included); an overflow keeps its sign; a
// product with a zero factor is ±0, or NaN only where its other factors can overflow first.
//
// Each edge runs through every float sum operator (DML, OpenVINO, ONNX) or DML's product, in
// FLOAT32, FLOAT64, FLOAT16 and BFLOAT16, both directions, inclusive and exclusive, as a 1-D
// tensor, along either axis of a 2-D one (innermost lines, the row recurrence), in place and
// into padded outputs; lines of -0.0 also at lengths that cross vectors, blocks, workgroups and
// threads. What the plugin refuses at query is skipped and counted.
//
// Exit 0 when every executed check is right, 1 when one is not (or none ran), 2 on bad usage or
// a plugin that does not load, 77 when create() answers NOT_SUPPORTED (a Highway target this
// CPU lacks, no Vulkan device).
//
//   opcts_scan_edges build/release/plugins/opcts-cpu-simd.so target=SCALAR
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "common/operator_table.h"
#include "opcts/backend.h"
#include "spec/half.h"

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A value of the tables: `scale` times a magnitude that depends on the dtype.
enum class Mag { kOne, kMax, kBig, kTiny, kHuge };
struct Term {
  double scale;
  Mag mag = Mag::kOne;
};
using Allowed = std::vector<Term>;  // the values an output element may take; kNaN: any NaN

struct Edge {
  std::string name;
  bool product;
  std::vector<Term> x;                        // in scan order
  std::vector<Allowed> inclusive, exclusive;  // per element, in scan order
};

const Term kPos0{0.0}, kNeg0{-0.0}, kOne{1.0}, kNan{kNaN};

// kMax: the largest finite value; kBig = max / 4 (its square overflows); kTiny = 2^e with its
// square below half the smallest subnormal (it underflows to +0.0), kHuge = 1 / kTiny. All exact.
struct DType {
  uint32_t id;
  const char* name;
  uint32_t size;
  double max, tiny;
};
constexpr DType kDTypes[] = {
    {OPCTS_DTYPE_FLOAT32, "FLOAT32", 4, 0x1.fffffep127, 0x1p-77},
    {OPCTS_DTYPE_FLOAT64, "FLOAT64", 8, 0x1.fffffffffffffp1023, 0x1p-539},
    {OPCTS_DTYPE_FLOAT16, "FLOAT16", 2, 65504.0, 0x1p-14},
    {OPCTS_DTYPE_BFLOAT16, "BFLOAT16", 2, 0x1.fep127, 0x1p-69},
};

double ValueOf(const DType& t, const Term& term) {
  switch (term.mag) {
    case Mag::kMax:
      return term.scale * t.max;
    case Mag::kBig:
      return term.scale * (t.max / 4);
    case Mag::kTiny:
      return term.scale * t.tiny;
    case Mag::kHuge:
      return term.scale / t.tiny;
    case Mag::kOne:
      break;
  }
  return term.scale;
}

// Every table value is exact in every dtype, so these conversions do not round.
uint64_t Encode(const DType& t, double v) {
  uint64_t bits = 0;
  if (t.id == OPCTS_DTYPE_FLOAT64) {
    std::memcpy(&bits, &v, 8);
  } else if (t.id == OPCTS_DTYPE_FLOAT32) {
    const float f = static_cast<float>(v);
    std::memcpy(&bits, &f, 4);
  } else {
    bits =
        t.id == OPCTS_DTYPE_FLOAT16 ? opcts::DoubleToHalfBits(v) : opcts::DoubleToBFloat16Bits(v);
  }
  return bits;
}

bool IsNaN(const DType& t, uint64_t bits) {
  switch (t.id) {
    case OPCTS_DTYPE_FLOAT64:
      return (bits & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
    case OPCTS_DTYPE_FLOAT32:
      return (bits & 0x7FFFFFFFu) > 0x7F800000u;
    case OPCTS_DTYPE_FLOAT16:
      return (bits & 0x7FFFu) > 0x7C00u;
    default:
      return (bits & 0x7FFFu) > 0x7F80u;
  }
}

bool Matches(const DType& t, const Allowed& allowed, uint64_t bits) {
  for (const Term& term : allowed) {
    const double v = ValueOf(t, term);
    if (std::isnan(v) ? IsNaN(t, bits) : bits == Encode(t, v)) return true;
  }
  return false;
}

std::string Describe(const DType& t, const Allowed& allowed) {
  std::string text;
  for (const Term& term : allowed) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s%g (0x%llx)", text.empty() ? "" : " or ",
                  ValueOf(t, term), static_cast<unsigned long long>(Encode(t, ValueOf(t, term))));
    text += buffer;
  }
  return text;
}

// The hand-derived edges: x, then the allowed inclusive and exclusive outputs, in scan order.
std::vector<Edge> HandEdges() {
  const Term b{1, Mag::kBig}, nb{-1, Mag::kBig}, nm{-1, Mag::kMax};
  const Term t{1, Mag::kTiny}, h{1, Mag::kHuge};
  return {
      // Sums: -0.0 + -0.0 is -0.0, any other exact zero +0.0; the empty sum is +0.0.
      {"sum [-0]", false, {kNeg0}, {{kNeg0}}, {{kPos0}}},
      {"sum [-0, -0]", false, {kNeg0, kNeg0}, {{kNeg0}, {kNeg0}}, {{kPos0}, {kNeg0}}},
      {"sum [-0, +0]", false, {kNeg0, kPos0}, {{kNeg0}, {kPos0}}, {{kPos0}, {kNeg0}}},
      {"sum [+0, -0]", false, {kPos0, kNeg0}, {{kPos0}, {kPos0}}, {{kPos0}, {kPos0}}},
      {"sum [-0, 1, -0, -0]",
       false,
       {kNeg0, kOne, kNeg0, kNeg0},
       {{kNeg0}, {kOne}, {kOne}, {kOne}},
       {{kPos0}, {kNeg0}, {kOne}, {kOne}}},
      {"sum [3, -0, -3, -0]",
       false,
       {{3}, kNeg0, {-3}, kNeg0},
       {{{3}}, {{3}}, {kPos0}, {kPos0}},
       {{kPos0}, {{3}}, {{3}}, {kPos0}}},
      {"sum [-3, 3, -0]",
       false,
       {{-3}, {3}, kNeg0},
       {{{-3}}, {kPos0}, {kPos0}},
       {{kPos0}, {{-3}}, {kPos0}}},
      {"sum [-0, -2, 2]",
       false,
       {kNeg0, {-2}, {2}},
       {{kNeg0}, {{-2}}, {kPos0}},
       {{kPos0}, {kNeg0}, {{-2}}}},
      {"sum [-0, inf, -0]",
       false,
       {kNeg0, {kInf}, kNeg0},
       {{kNeg0}, {{kInf}}, {{kInf}}},
       {{kPos0}, {kNeg0}, {{kInf}}}},
      {"sum [-inf, -0, inf]",
       false,
       {{-kInf}, kNeg0, {kInf}},
       {{{-kInf}}, {{-kInf}}, {kNan}},
       {{kPos0}, {{-kInf}}, {{-kInf}}}},
      // -max + -max is beyond the range in any order: -inf.
      {"sum [-max, -max, -0]",
       false,
       {nm, nm, kNeg0},
       {{nm}, {{-kInf}}, {{-kInf}}},
       {{kPos0}, {nm}, {{-kInf}}}},
      // Products: the sign is the parity of the negative factors; the empty product is 1.
      {"product [-0]", true, {kNeg0}, {{kNeg0}}, {{kOne}}},
      {"product [-0, -0]", true, {kNeg0, kNeg0}, {{kNeg0}, {kPos0}}, {{kOne}, {kNeg0}}},
      {"product [-0, 5]", true, {kNeg0, {5}}, {{kNeg0}, {kNeg0}}, {{kOne}, {kNeg0}}},
      {"product [-1, 0, -0]",
       true,
       {{-1}, kPos0, kNeg0},
       {{{-1}}, {kNeg0}, {kPos0}},
       {{kOne}, {{-1}}, {kNeg0}}},
      {"product [-2, -inf, -0]",
       true,
       {{-2}, {-kInf}, kNeg0},
       {{{-2}}, {{kInf}}, {kNan}},
       {{kOne}, {{-2}}, {{kInf}}}},
      // Zero then overflow: with the zero the product is ±0; B * B overflows, so an order that
      // takes the big factors first reaches ±inf * 0 = NaN, where there are two of them.
      {"product [-B, 0, B, B]",
       true,
       {nb, kPos0, b, b},
       {{nb}, {kNeg0}, {kNeg0, kNan}, {kNeg0, kNan}},
       {{kOne}, {nb}, {kNeg0}, {kNeg0, kNan}}},
      // Overflow, then a zero: -inf keeps the sign of the exact product; then -0.0 or NaN.
      {"product [-B, B, 0]",
       true,
       {nb, b, kPos0},
       {{nb}, {{-kInf}}, {kNeg0, kNan}},
       {{kOne}, {nb}, {{-kInf}}}},
      // Underflow, then recovery: t * t underflows to +0.0 in the dtype, and times 1/t it stays
      // +0.0 there, while t * 1/t first (or a wider accumulator) recovers t exactly. (A second
      // 1/t would make inf and NaN reachable too: (1/t)^2 can overflow.)
      {"product [t, t, 1/t]", true, {t, t, h}, {{t}, {kPos0}, {kPos0, t}}, {{kOne}, {t}, {kPos0}}},
  };
}

// A line of n -0.0: sums are -0.0 (the exclusive head +0.0); products alternate in sign.
Edge NegZeroLine(bool product, uint32_t n) {
  Edge e{std::string(product ? "product" : "sum") + " of " + std::to_string(n) + " x -0",
         product,
         std::vector<Term>(n, kNeg0),
         {},
         {}};
  for (uint32_t k = 0; k < n; ++k) {
    const bool odd_factors = k % 2 == 0;  // k + 1 factors up to k, inclusive
    e.inclusive.push_back({product ? (odd_factors ? kNeg0 : kPos0) : kNeg0});
    e.exclusive.push_back({k == 0    ? (product ? kOne : kPos0)
                           : product ? (odd_factors ? kPos0 : kNeg0)
                                     : kNeg0});
  }
  return e;
}

// Where the edge's lines lie: 2-D tensors hold copies of the line in every line.
struct Geometry {
  std::string name;
  std::vector<uint32_t> sizes;
  uint32_t axis;
  std::vector<uint32_t> out_strides;  // empty: packed
  bool in_place;
};

std::vector<Geometry> Geometries(uint32_t n, bool long_line) {
  std::vector<Geometry> g = {
      {"1-D", {n}, 0, {}, false},
      {"1-D in place", {n}, 0, {}, true},
      {"rows", {n, long_line ? 3u : 37u}, 0, {}, false},
  };
  if (long_line) return g;
  g.push_back({"innermost", {2, n}, 1, {}, false});
  g.push_back({"innermost, padded output", {2, n}, 1, {n + 3, 1}, false});
  g.push_back({"rows in place", {n, 37}, 0, {}, true});
  g.push_back({"rows, padded output", {n, 37}, 0, {40, 1}, false});
  return g;
}

// A harness-owned buffer, 64-byte aligned.
class Buffer {
 public:
  explicit Buffer(uint64_t bytes) : storage_(bytes + 64, 0) {}
  uint8_t* data() {
    const auto at = reinterpret_cast<uintptr_t>(storage_.data());
    return storage_.data() + (64 - at % 64) % 64;
  }

 private:
  std::vector<uint8_t> storage_;
};

class Plugin {
 public:
  // Exits with 2 or 77 (see the banner) when the plugin cannot be used.
  Plugin(const char* path, const char* options) {
    void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) Exit(2, std::string("cannot load: ") + dlerror());
    auto entry =
        reinterpret_cast<opcts_backend_entry_fn>(dlsym(handle, OPCTS_BACKEND_ENTRY_SYMBOL));
    if (entry == nullptr || (api_ = entry()) == nullptr) Exit(2, "no backend entry");
    char message[512] = "";
    const int32_t status = api_->create(options, &instance_, message, sizeof message);
    if (status == OPCTS_STATUS_NOT_SUPPORTED) Exit(77, std::string("not supported: ") + message);
    if (status != OPCTS_STATUS_OK) Exit(2, std::string("create failed: ") + message);
  }
  ~Plugin() { api_->destroy(instance_); }

  // OK, or the status of the query or execute that refused, with its message.
  int32_t Run(const opcts_op_desc& op, const std::vector<opcts_binding>& bindings, bool* refused,
              std::string* message) const {
    char text[512] = "";
    int32_t status = api_->query(instance_, &op, text, sizeof text);
    *refused = status == OPCTS_STATUS_NOT_SUPPORTED;
    if (status == OPCTS_STATUS_OK)
      status = api_->execute(instance_, &op, bindings.data(),
                             static_cast<uint32_t>(bindings.size()), text, sizeof text);
    *message = text;
    return status;
  }

 private:
  [[noreturn]] static void Exit(int code, const std::string& why) {
    std::fprintf(stderr, "opcts_scan_edges: %s\n", why.c_str());
    std::exit(code);
  }
  const opcts_backend_api* api_ = nullptr;
  void* instance_ = nullptr;
};

uint64_t Offset(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& strides,
                uint64_t logical) {
  uint64_t offset = 0;
  for (size_t d = sizes.size(); d-- > 0;) {
    offset += logical % sizes[d] * strides[d];
    logical /= sizes[d];
  }
  return offset;
}

std::vector<uint32_t> Packed(const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * sizes[d + 1];
  return strides;
}

class Checker {
 public:
  explicit Checker(const Plugin& plugin) : plugin_(plugin) {}

  void Check(const Edge& edge, const DType& t, uint32_t op, const Geometry& g, bool reverse,
             bool exclusive) {
    const uint32_t n = static_cast<uint32_t>(edge.x.size());
    const std::vector<uint32_t> in_strides = Packed(g.sizes);
    const std::vector<uint32_t> out_strides = g.out_strides.empty() ? in_strides : g.out_strides;
    uint64_t count = 1, out_span = 1;
    for (size_t d = 0; d < g.sizes.size(); ++d) {
      count *= g.sizes[d];
      out_span += uint64_t{g.sizes[d] - 1} * out_strides[d];
    }
    // TotalTensorSizeInBytes: DirectML's implied minimum rounds up to 4 bytes.
    const uint64_t in_bytes = (count * t.size + 3) / 4 * 4;
    const uint64_t out_bytes = g.in_place ? in_bytes : (out_span * t.size + 3) / 4 * 4;
    Buffer in(in_bytes), separate_out(out_bytes);
    uint8_t* out = g.in_place ? in.data() : separate_out.data();
    // Along the axis, position k is step k of the scan, or n - 1 - k in reverse.
    auto step = [&](uint64_t logical) {
      const uint64_t k = g.axis == 0 ? logical / (count / n) : logical % n;
      return reverse ? n - 1 - k : k;
    };
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t bits = Encode(t, ValueOf(t, edge.x[step(i)]));
      std::memcpy(in.data() + Offset(g.sizes, in_strides, i) * t.size, &bits, t.size);
    }
    const opcts_tensor_desc in_desc{
        t.id, 0, static_cast<uint32_t>(g.sizes.size()), g.sizes.data(), nullptr, in_bytes, 16};
    const opcts_tensor_desc out_desc{t.id,
                                     0,
                                     static_cast<uint32_t>(g.sizes.size()),
                                     g.sizes.data(),
                                     g.out_strides.empty() ? nullptr : g.out_strides.data(),
                                     out_bytes,
                                     16};
    const int64_t axis_value = g.axis;
    const opcts_tensor_desc axis_desc{OPCTS_DTYPE_INT64, 0, 0, nullptr, nullptr, 8, 8};
    Buffer axis(8);
    std::memcpy(axis.data(), &axis_value, 8);
    const opcts_binding in_binding{in.data(), in_desc.total_tensor_size_in_bytes};
    const opcts_binding out_binding{out, out_desc.total_tensor_size_in_bytes};
    const opcts_binding axis_binding{axis.data(), 8};

    const opcts_dml_cumulative_desc dml{
        &in_desc, &out_desc, g.axis,
        reverse ? OPCTS_AXIS_DIRECTION_DECREASING : OPCTS_AXIS_DIRECTION_INCREASING, exclusive};
    const opcts_openvino_cumsum_desc openvino{&in_desc, &axis_desc, &out_desc, exclusive, reverse};
    const opcts_onnx_cumsum_desc onnx{&in_desc, &axis_desc, &out_desc, exclusive, reverse};
    opcts_op_desc desc{op, &dml};
    std::vector<opcts_binding> bindings = {in_binding, out_binding};
    if (op == OPCTS_OP_OPENVINO_CUMSUM_3 || op == OPCTS_OP_ONNX_CUMSUM) {
      desc.desc = op == OPCTS_OP_ONNX_CUMSUM ? static_cast<const void*>(&onnx) : &openvino;
      bindings = {in_binding, axis_binding, out_binding};
    }

    const std::string what = edge.name + " " + t.name + " " + OpName(op) + " " + g.name +
                             (reverse ? " reverse" : " forward") +
                             (exclusive ? " exclusive" : " inclusive");
    const std::string kind = edge.name + " " + t.name;
    bool refused = false;
    std::string message;
    const int32_t status = plugin_.Run(desc, bindings, &refused, &message);
    if (refused) {
      ++skipped_[std::string(OpName(op)) + " " + t.name];
      return;
    }
    ++checks_;
    if (status != OPCTS_STATUS_OK) {
      Fail(kind, what + ": status " + std::to_string(status) + ": " + message);
      return;
    }
    const std::vector<Allowed>& want = exclusive ? edge.exclusive : edge.inclusive;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t got = 0;
      std::memcpy(&got, out + Offset(g.sizes, out_strides, i) * t.size, t.size);
      if (!Matches(t, want[step(i)], got)) {
        char text[96];
        std::snprintf(text, sizeof text, ", got 0x%llx", static_cast<unsigned long long>(got));
        Fail(kind, what + ": element " + std::to_string(i) + ": want " +
                       Describe(t, want[step(i)]) + text);
        return;
      }
    }
  }

  // The summary line; true when every check passed and there was one.
  bool Report() const {
    std::string skipped;
    for (const auto& [what, n] : skipped_)
      skipped += (skipped.empty() ? "" : ", ") + what + " (" + std::to_string(n) + ")";
    std::printf("%llu checks, %llu failed; refused at query: %s\n",
                static_cast<unsigned long long>(checks_), static_cast<unsigned long long>(failed_),
                skipped.empty() ? "nothing" : skipped.c_str());
    for (const auto& [kind, n] : failed_kinds_)
      std::printf("  %s: %llu failed\n", kind.c_str(), static_cast<unsigned long long>(n));
    if (checks_ == 0) std::printf("nothing was executed\n");
    return failed_ == 0 && checks_ > 0;
  }

 private:
  // The generated operator table's name: the spec's, never a second list.
  static const char* OpName(uint32_t op) { return opcts::abi::FindOperator(op)->name; }
  void Fail(const std::string& kind, const std::string& why) {
    if (++failed_ <= 20) std::printf("FAIL %s\n", why.c_str());
    ++failed_kinds_[kind];
  }

  const Plugin& plugin_;
  uint64_t checks_ = 0, failed_ = 0;
  std::map<std::string, uint64_t> skipped_, failed_kinds_;  // counts by (operator or edge) dtype
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: opcts_scan_edges PLUGIN [OPTIONS]\n");
    return 2;
  }
  const Plugin plugin(argv[1], argc == 3 ? argv[2] : "");
  Checker checker(plugin);
  std::vector<std::pair<Edge, bool>> edges;  // (edge, long line)
  for (Edge& e : HandEdges()) edges.emplace_back(std::move(e), false);
  for (bool product : {false, true}) {
    for (uint32_t n : {9u, 33u, 100u}) edges.emplace_back(NegZeroLine(product, n), false);
    for (uint32_t n : {1000u, 5000u, 70001u}) edges.emplace_back(NegZeroLine(product, n), true);
  }
  for (const auto& [edge, long_line] : edges)
    for (const DType& t : kDTypes)
      for (const Geometry& g : Geometries(static_cast<uint32_t>(edge.x.size()), long_line))
        for (int mode = 0; mode < 4; ++mode)
          for (uint32_t op : edge.product ? std::vector<uint32_t>{OPCTS_OP_DML_CUMULATIVE_PRODUCT}
                                          : std::vector<uint32_t>{OPCTS_OP_DML_CUMULATIVE_SUMMATION,
                                                                  OPCTS_OP_OPENVINO_CUMSUM_3,
                                                                  OPCTS_OP_ONNX_CUMSUM})
            checker.Check(edge, t, op, g, mode & 1, mode & 2);
  return checker.Report() ? 0 : 1;
}
