// Tests the cpu-simd plugin through its C ABI (dlopen, as the harness loads it) against naive
// loops written here. Scan tests run once per Highway target this CPU supports (`target=`).
#include <dlfcn.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "common/claims_testing.h"
#include "cpu_simd/scan.h"
#include "opcts/backend.h"
#include "spec/half.h"

namespace {

// ---- data types ------------------------------------------------------------------------------

struct DType {
  uint32_t id;
  const char* name;
  size_t size;
  bool is_float;
  bool is_signed;
};

constexpr DType kDTypes[] = {
    {OPCTS_DTYPE_FLOAT64, "FLOAT64", 8, true, true},
    {OPCTS_DTYPE_FLOAT32, "FLOAT32", 4, true, true},
    {OPCTS_DTYPE_FLOAT16, "FLOAT16", 2, true, true},
    {OPCTS_DTYPE_BFLOAT16, "BFLOAT16", 2, true, true},
    {OPCTS_DTYPE_INT64, "INT64", 8, false, true},
    {OPCTS_DTYPE_INT32, "INT32", 4, false, true},
    {OPCTS_DTYPE_INT16, "INT16", 2, false, true},
    {OPCTS_DTYPE_INT8, "INT8", 1, false, true},
    {OPCTS_DTYPE_UINT64, "UINT64", 8, false, false},
    {OPCTS_DTYPE_UINT32, "UINT32", 4, false, false},
    {OPCTS_DTYPE_UINT16, "UINT16", 2, false, false},
    {OPCTS_DTYPE_UINT8, "UINT8", 1, false, false},
};

const DType& Info(uint32_t id) {
  for (const DType& t : kDTypes)
    if (t.id == id) return t;
  throw std::invalid_argument("dtype");
}

uint64_t Mask(uint32_t dtype) {
  const size_t bits = Info(dtype).size * 8;
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

double ToDouble(uint32_t dtype, uint64_t bits) {
  switch (dtype) {
    case OPCTS_DTYPE_FLOAT64:
      return std::bit_cast<double>(bits);
    case OPCTS_DTYPE_FLOAT32:
      return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case OPCTS_DTYPE_FLOAT16:
      return opcts::HalfBitsToFloat(static_cast<uint16_t>(bits));
    case OPCTS_DTYPE_BFLOAT16:
      return opcts::BFloat16BitsToFloat(static_cast<uint16_t>(bits));
  }
  return static_cast<double>(bits);
}

// Rounds once to the dtype (float16/bfloat16 from a float, as the backend does).
uint64_t FromFloat(uint32_t dtype, double v) {
  switch (dtype) {
    case OPCTS_DTYPE_FLOAT64:
      return std::bit_cast<uint64_t>(v);
    case OPCTS_DTYPE_FLOAT32:
      return std::bit_cast<uint32_t>(static_cast<float>(v));
    case OPCTS_DTYPE_FLOAT16:
      return opcts::FloatToHalfBits(static_cast<float>(v));
    case OPCTS_DTYPE_BFLOAT16:
      return opcts::FloatToBFloat16Bits(static_cast<float>(v));
  }
  return static_cast<uint64_t>(v);
}

// ---- the plugin ------------------------------------------------------------------------------

const opcts_backend_api* Api() {
  static const opcts_backend_api* api = [] {
    void* lib = dlopen(OPCTS_CPU_SIMD_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return static_cast<const opcts_backend_api*>(nullptr);
    auto entry = reinterpret_cast<opcts_backend_entry_fn>(dlsym(lib, OPCTS_BACKEND_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
  }();
  return api;
}

class Backend {
 public:
  explicit Backend(const std::string& options = "") {
    char message[512] = "";
    status_ = Api()->create(options.c_str(), &instance_, message, sizeof message);
    message_ = message;
  }
  ~Backend() {
    if (instance_ != nullptr) Api()->destroy(instance_);
  }
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  int32_t create_status() const { return status_; }
  const std::string& create_message() const { return message_; }
  opcts_backend_info Info() const {
    opcts_backend_info info{};
    Api()->get_info(instance_, &info);
    return info;
  }
  int32_t Query(const opcts_op_desc& op, std::string* message = nullptr) const {
    char buffer[512] = "";
    const int32_t status = Api()->query(instance_, &op, buffer, sizeof buffer);
    if (message) *message = buffer;
    return status;
  }
  int32_t Execute(const opcts_op_desc& op, const std::vector<opcts_binding>& bindings,
                  std::string* message = nullptr) const {
    char buffer[512] = "";
    const int32_t status =
        Api()->execute(instance_, &op, bindings.data(), static_cast<uint32_t>(bindings.size()),
                       buffer, sizeof buffer);
    if (message) *message = buffer;
    return status;
  }

 private:
  void* instance_ = nullptr;
  int32_t status_ = OPCTS_STATUS_ERROR;
  std::string message_;
};

// ---- tensors with guard bytes ----------------------------------------------------------------

constexpr size_t kGuard = 64;
constexpr uint8_t kGuardByte = 0xA5;

class Tensor {
 public:
  // Empty `strides`: packed. The buffer is the implied minimum, with guards on both sides; the
  // first is `misalign` bytes longer, which moves the buffer off operator new's alignment.
  Tensor(uint32_t dtype, std::vector<uint32_t> sizes, std::vector<uint32_t> strides = {},
         size_t misalign = 0)
      : dtype_(dtype),
        sizes_(std::move(sizes)),
        given_strides_(std::move(strides)),
        lead_(kGuard + misalign) {
    strides_ = given_strides_;
    if (strides_.empty()) {
      strides_.resize(sizes_.size());
      uint64_t s = 1;
      for (size_t d = sizes_.size(); d-- > 0;) {
        strides_[d] = static_cast<uint32_t>(s);
        s *= sizes_[d];
      }
    }
    uint64_t last = 0;
    for (size_t d = 0; d < sizes_.size(); ++d) last += uint64_t{sizes_[d] - 1} * strides_[d];
    bytes_ = ((last + 1) * Info(dtype_).size + 3) / 4 * 4;
    storage_.assign(lead_ + bytes_ + kGuard, kGuardByte);
    std::fill(data(), data() + bytes_, uint8_t{0xCD});  // a pattern, not a result
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  uint8_t* data() { return storage_.data() + lead_; }
  const std::vector<uint8_t>& storage() const { return storage_; }
  uint32_t dtype() const { return dtype_; }
  const std::vector<uint32_t>& sizes() const { return sizes_; }
  const std::vector<uint32_t>& strides() const { return strides_; }
  uint64_t count() const {
    uint64_t n = 1;
    for (uint32_t s : sizes_) n *= s;
    return n;
  }
  uint64_t buffer_elements() const { return bytes_ / Info(dtype_).size; }

  const opcts_tensor_desc* desc() {
    desc_ = {dtype_,
             0,
             static_cast<uint32_t>(sizes_.size()),
             sizes_.empty() ? nullptr : sizes_.data(),
             given_strides_.empty() ? nullptr : given_strides_.data(),
             bytes_,
             0};
    return &desc_;
  }
  opcts_binding binding() { return {data(), bytes_}; }

  // Buffer element index of a row-major logical index.
  uint64_t Offset(uint64_t logical) const {
    uint64_t offset = 0;
    for (size_t d = sizes_.size(); d-- > 0;) {
      offset += (logical % sizes_[d]) * strides_[d];
      logical /= sizes_[d];
    }
    return offset;
  }
  uint64_t GetBuffer(uint64_t element) const {
    uint64_t bits = 0;
    std::memcpy(&bits, storage_.data() + lead_ + element * Info(dtype_).size, Info(dtype_).size);
    return bits;
  }
  void SetBuffer(uint64_t element, uint64_t bits) {
    std::memcpy(data() + element * Info(dtype_).size, &bits, Info(dtype_).size);
  }
  uint64_t Get(uint64_t logical) const { return GetBuffer(Offset(logical)); }
  void Set(uint64_t logical, uint64_t bits) { SetBuffer(Offset(logical), bits); }
  std::vector<uint64_t> Values() const {
    std::vector<uint64_t> v(count());
    for (uint64_t i = 0; i < v.size(); ++i) v[i] = Get(i);
    return v;
  }
  bool GuardsIntact() const {
    for (size_t i = 0; i < lead_; ++i)
      if (storage_[i] != kGuardByte) return false;
    for (size_t i = 0; i < kGuard; ++i)
      if (storage_[lead_ + bytes_ + i] != kGuardByte) return false;
    return true;
  }

 private:
  uint32_t dtype_;
  std::vector<uint32_t> sizes_, given_strides_, strides_;
  size_t lead_;  // bytes before the buffer
  uint64_t bytes_ = 0;
  std::vector<uint8_t> storage_;
  opcts_tensor_desc desc_{};
};

std::string Shape(const std::vector<uint32_t>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(v[i]);
  }
  return s + "}";
}

// Floats compare by value, NaN equal to NaN and zeros by their sign (IEEE fixes it in any
// evaluation order: a sum is -0.0 only when every term is, a product's sign is the parity of its
// negative factors); everything else by bits.
bool SameValue(uint32_t dtype, uint64_t a, uint64_t b) {
  if (!Info(dtype).is_float) return ((a ^ b) & Mask(dtype)) == 0;
  const double x = ToDouble(dtype, a), y = ToDouble(dtype, b);
  return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
}

// ---- cumulative scans --------------------------------------------------------------------------

enum class Op { kDmlSum, kDmlProduct, kOpenVINOSum };
const char* OpName(Op op) {
  return op == Op::kDmlSum       ? "CUMULATIVE_SUMMATION"
         : op == Op::kDmlProduct ? "CUMULATIVE_PRODUCT"
                                 : "OpenVINO CumSum";
}

// The naive scan of one line (values in traversal order), accumulating as the backend must:
// float32 for float32/float16/bfloat16, float64 for float64, wrapping integers. The running
// value starts as the first term itself (the sum of one term is that term, -0.0 included), and
// an exclusive scan writes the empty sum or product first: +0.0 (0) or 1.
std::vector<uint64_t> NaiveLine(uint32_t dtype, bool product, bool exclusive,
                                const std::vector<uint64_t>& x) {
  std::vector<uint64_t> y(x.size());
  auto run = [&](auto empty, auto load, auto combine, auto store) {
    auto acc = empty;
    for (size_t i = 0; i < x.size(); ++i) {
      const auto v = load(x[i]);
      if (exclusive) y[i] = store(acc);
      acc = i == 0 ? v : combine(acc, v);
      if (!exclusive) y[i] = store(acc);
    }
  };
  if (dtype == OPCTS_DTYPE_FLOAT64) {
    run(
        product ? 1.0 : 0.0, [&](uint64_t b) { return ToDouble(dtype, b); },
        [&](double a, double b) { return product ? a * b : a + b; },
        [&](double v) { return FromFloat(dtype, v); });
  } else if (Info(dtype).is_float) {
    run(
        product ? 1.0f : 0.0f, [&](uint64_t b) { return static_cast<float>(ToDouble(dtype, b)); },
        [&](float a, float b) { return product ? a * b : a + b; },
        [&](float v) { return FromFloat(dtype, v); });
  } else {
    run(
        uint64_t{product ? 1u : 0u}, [](uint64_t b) { return b; },
        [&](uint64_t a, uint64_t b) { return product ? a * b : a + b; },
        [&](uint64_t v) { return v & Mask(dtype); });
  }
  return y;
}

struct ScanCase {
  Op op = Op::kDmlSum;
  uint32_t dtype = OPCTS_DTYPE_FLOAT32;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> in_strides, out_strides;  // empty: packed
  uint32_t axis = 0;
  bool reverse = false, exclusive = false, in_place = false;
  bool negative_axis = false;  // OpenVINO: pass axis - rank
  uint32_t seed = 1;
  bool negative_zeros = false;  // every element -0.0: the carries must keep its sign
  size_t out_misalign = 0;      // the output buffer starts this many bytes off alignment

  std::string Describe() const {
    return std::string(OpName(op)) + (negative_zeros ? " of -0.0" : "") + " " + Info(dtype).name +
           " sizes " + Shape(sizes) + " in_strides " + Shape(in_strides) + " out_strides " +
           Shape(out_strides) + " axis " + std::to_string(axis) + (reverse ? " reverse" : "") +
           (exclusive ? " exclusive" : "") + (in_place ? " in-place" : "") +
           (out_misalign ? " output misaligned by " + std::to_string(out_misalign) : "") +
           " seed " + std::to_string(seed);
  }
};

// Data for which any evaluation order is exact: small integers and -0.0 for sums, +-1, +-2,
// +-0.5 for products (+-1 only on long lines, so products stay within float range in any order).
uint64_t RandomElement(std::mt19937_64& rng, uint32_t dtype, bool product, size_t line_length) {
  if (!Info(dtype).is_float) return rng() & Mask(dtype);
  double v;
  if (!product) {
    const int k = static_cast<int>(rng() % 18) - 8;
    v = k == 9 ? -0.0 : k;
  } else {
    static constexpr double kFactors[] = {1, -1, 2, -2, 0.5, -0.5};
    v = kFactors[rng() % (line_length > 64 ? 2 : 6)];
  }
  return FromFloat(dtype, v);
}

void RunScanCase(const Backend& backend, const ScanCase& c) {
  SCOPED_TRACE(c.Describe());
  const bool product = c.op == Op::kDmlProduct;
  Tensor in(c.dtype, c.sizes, c.in_strides);
  Tensor separate_out(c.dtype, c.sizes, c.out_strides, c.out_misalign);
  Tensor& out = c.in_place ? in : separate_out;
  std::mt19937_64 rng(c.seed);
  for (uint64_t e = 0; e < in.buffer_elements(); ++e)
    in.SetBuffer(e, c.negative_zeros ? FromFloat(c.dtype, -0.0)
                                     : RandomElement(rng, c.dtype, product, c.sizes[c.axis]));
  const std::vector<uint64_t> x = in.Values();
  const std::vector<uint8_t> in_before = in.storage();

  // Expected values, line by line.
  const size_t rank = c.sizes.size();
  uint64_t inner = 1;
  for (size_t d = c.axis + 1; d < rank; ++d) inner *= c.sizes[d];
  const uint64_t n = c.sizes[c.axis];
  std::vector<uint64_t> expected(x.size());
  for (uint64_t outer = 0; outer < x.size() / (n * inner); ++outer) {
    for (uint64_t i = 0; i < inner; ++i) {
      std::vector<uint64_t> line(n);
      auto at = [&](uint64_t k) { return (outer * n + (c.reverse ? n - 1 - k : k)) * inner + i; };
      for (uint64_t k = 0; k < n; ++k) line[k] = x[at(k)];
      const std::vector<uint64_t> y = NaiveLine(c.dtype, product, c.exclusive, line);
      for (uint64_t k = 0; k < n; ++k) expected[at(k)] = y[k];
    }
  }

  // Execute.
  std::string message;
  int32_t status;
  if (c.op == Op::kOpenVINOSum) {
    Tensor axis(OPCTS_DTYPE_INT32, {});
    const int32_t axis_value = c.negative_axis
                                   ? static_cast<int32_t>(c.axis) - static_cast<int32_t>(rank)
                                   : static_cast<int32_t>(c.axis);
    std::memcpy(axis.data(), &axis_value, 4);
    const opcts_openvino_cumsum_desc desc{in.desc(), axis.desc(), out.desc(), c.exclusive,
                                          c.reverse};
    status = backend.Execute({OPCTS_OP_OPENVINO_CUMSUM_3, &desc},
                             {in.binding(), axis.binding(), out.binding()}, &message);
  } else {
    const opcts_dml_cumulative_desc desc{
        in.desc(), out.desc(), c.axis,
        c.reverse ? OPCTS_AXIS_DIRECTION_DECREASING : OPCTS_AXIS_DIRECTION_INCREASING, c.exclusive};
    status = backend.Execute(
        {product ? OPCTS_OP_DML_CUMULATIVE_PRODUCT : OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc},
        {in.binding(), out.binding()}, &message);
  }
  ASSERT_EQ(status, OPCTS_STATUS_OK) << message;
  EXPECT_TRUE(in.GuardsIntact());
  EXPECT_TRUE(out.GuardsIntact());
  if (!c.in_place) {
    EXPECT_EQ(in.storage(), in_before) << "input modified";
  }
  int mismatches = 0;
  for (uint64_t i = 0; i < expected.size() && mismatches < 5; ++i) {
    const uint64_t actual = out.Get(i);
    if (!SameValue(c.dtype, expected[i], actual)) {
      ++mismatches;
      ADD_FAILURE() << "element " << i << ": expected "
                    << ToDouble(c.dtype, expected[i] & Mask(c.dtype)) << " (bits 0x" << std::hex
                    << (expected[i] & Mask(c.dtype)) << "), got " << std::dec
                    << ToDouble(c.dtype, actual) << " (bits 0x" << std::hex << actual << ")";
    }
  }
}

// One small shape per rank plus a few that cross vector widths and row-chunk boundaries.
const std::vector<std::vector<uint32_t>>& SmallShapes() {
  static const std::vector<std::vector<uint32_t>> shapes = {{1},
                                                            {37},
                                                            {1000},
                                                            {3, 67},
                                                            {67, 3},
                                                            {2, 5, 33},
                                                            {1, 3, 4, 17},
                                                            {2, 1, 3, 2, 5},
                                                            {2, 3, 1, 2, 2, 3},
                                                            {1, 2, 2, 1, 3, 2, 3},
                                                            {2, 1, 3, 2, 1, 2, 3, 5}};
  return shapes;
}

// Each test runs on every Highway target this CPU supports ("" = the best one).
class CpuSimdTarget : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_NE(Api(), nullptr) << dlerror();
    backend_ = std::make_unique<Backend>("target=" + GetParam());  // "target=": the best
    if (backend_->create_status() == OPCTS_STATUS_NOT_SUPPORTED)
      GTEST_SKIP() << backend_->create_message();
    ASSERT_EQ(backend_->create_status(), OPCTS_STATUS_OK) << backend_->create_message();
    if (!GetParam().empty()) {  // the option took effect
      ASSERT_NE(std::string(backend_->Info().details).find("dispatched target " + GetParam() + ";"),
                std::string::npos)
          << backend_->Info().details;
    }
  }
  std::unique_ptr<Backend> backend_;
};

TEST_P(CpuSimdTarget, ScansMatchNaiveLoopForEveryDTypeRankAxisAndMode) {
  uint32_t seed = 0;
  for (Op op : {Op::kDmlSum, Op::kDmlProduct, Op::kOpenVINOSum})
    for (const DType& t : kDTypes)
      for (const auto& sizes : SmallShapes())
        for (uint32_t axis = 0; axis < sizes.size(); ++axis)
          for (int mode = 0; mode < 4; ++mode) {
            ScanCase c;
            c.op = op;
            c.dtype = t.id;
            c.sizes = sizes;
            c.axis = axis;
            c.reverse = mode & 1;
            c.exclusive = mode & 2;
            c.negative_axis = (axis + mode) % 2 == 1;
            c.seed = ++seed;
            RunScanCase(*backend_, c);
            if (HasFailure()) return;
          }
}

TEST_P(CpuSimdTarget, ScansStridedBroadcastAndPaddedTensors) {
  struct Layout {
    std::vector<uint32_t> sizes, in_strides, out_strides;
  };
  const Layout layouts[] = {
      {{3, 4, 40}, {0, 40, 1}, {}},                   // input broadcast along dim 0
      {{3, 4, 40}, {160, 0, 1}, {200, 50, 1}},        // broadcast dim 1, padded output
      {{3, 4, 40}, {1, 3, 12}, {}},                   // transposed input (column-major)
      {{5, 33}, {1, 0}, {40, 1}},                     // broadcast innermost, padded output
      {{5, 33}, {66, 2}, {33, 1}},                    // every other element
      {{2, 3, 4, 5}, {0, 0, 0, 0}, {128, 32, 8, 1}},  // one element broadcast everywhere
  };
  uint32_t seed = 1000;
  for (const Layout& l : layouts)
    for (const DType& t : kDTypes)
      for (uint32_t axis = 0; axis < l.sizes.size(); ++axis)
        for (int mode = 0; mode < 4; ++mode)
          for (Op op : {Op::kDmlSum, Op::kDmlProduct}) {
            ScanCase c;
            c.op = op;
            c.dtype = t.id;
            c.sizes = l.sizes;
            c.in_strides = l.in_strides;
            c.out_strides = l.out_strides;
            c.axis = axis;
            c.reverse = mode & 1;
            c.exclusive = mode & 2;
            c.seed = ++seed;
            RunScanCase(*backend_, c);
            if (HasFailure()) return;
          }
}

// Four modes of a scan: forward sum, reverse sum in place, exclusive sum, exclusive reverse
// product.
void RunFourModes(const Backend& backend, uint32_t dtype, const std::vector<uint32_t>& sizes,
                  uint32_t axis, uint32_t* seed) {
  for (int mode = 0; mode < 4; ++mode) {
    ScanCase c;
    c.op = mode == 3 ? Op::kDmlProduct : Op::kDmlSum;
    c.dtype = dtype;
    c.sizes = sizes;
    c.axis = axis;
    c.reverse = mode & 1;
    c.exclusive = mode & 2;
    c.in_place = mode == 1;
    c.seed = ++*seed;
    RunScanCase(backend, c);
    if (testing::Test::HasFailure()) return;
  }
}

// Rows are combined four at a time, several vectors of each row a step: 7 rows leave three over,
// and 4124 float32 or float16 columns leave whole vectors and lanes over the last step on every
// target. (Below 65 536 elements one thread does all, so the row is not split.)
TEST_P(CpuSimdTarget, ScansWideRowsFourAtATime) {
  uint32_t seed = 2500;
  for (const auto& [dtype, width] :
       std::vector<std::pair<uint32_t, uint32_t>>{{OPCTS_DTYPE_FLOAT32, 4124},
                                                  {OPCTS_DTYPE_FLOAT16, 4124},
                                                  {OPCTS_DTYPE_FLOAT64, 2100},
                                                  {OPCTS_DTYPE_INT64, 2050},
                                                  {OPCTS_DTYPE_UINT8, 8200}}) {
    RunFourModes(*backend_, dtype, {7, width}, 0, &seed);
    if (HasFailure()) return;
  }
}

// Rows of up to 16 whole vectors, adjacent in memory, keep the running row in registers
// (NarrowRows): along the middle axis, rows of 16 to 320 elements, from one vector to more than
// 16 on every target; both directions, inclusive and exclusive, in place.
TEST_P(CpuSimdTarget, ScansNarrowRowsAlongAMiddleAxis) {
  uint32_t seed = 2700;
  for (const uint32_t dtype : {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_FLOAT64,
                               OPCTS_DTYPE_INT64, OPCTS_DTYPE_UINT8})
    for (const uint32_t width : {16u, 48u, 64u, 128u, 256u, 320u}) {
      RunFourModes(*backend_, dtype, {3, 9, width}, 1, &seed);
      if (HasFailure()) return;
    }
}

// A 1d line of at least kLongLine elements is scanned by both threads in pieces of
// kLinePieceBytes (scan.h), each reduced, then scanned after the carry into it
// (ScanSplitLine), a whole piece as four quarters side by side, each after its own carry and
// only the first quarter of the first piece the line's head: 4.5 pieces and 3 elements leave a
// short last piece, on every target (the threads tests run the dispatched one). Streamed outputs
// (24 MiB) of odd length, aligned and 4 bytes off, also scan single elements before each
// quarter's first aligned vector or after its last.
TEST_P(CpuSimdTarget, ScansLongLinesInPiecesAcrossThreads) {
  uint32_t seed = 2800;
  for (const uint32_t dtype : {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_FLOAT64,
                               OPCTS_DTYPE_INT64, OPCTS_DTYPE_UINT8}) {
    const uint32_t piece = opcts::cpu_simd::kLinePieceBytes / Info(dtype).size;
    ASSERT_GE(piece * 9 / 2 + 3, opcts::cpu_simd::kLongLine);
    RunFourModes(*backend_, dtype, {piece * 9 / 2 + 3}, 0, &seed);
    if (HasFailure()) return;
  }
  for (const bool reverse : {false, true})
    for (const size_t misalign : {0, 4}) {
      ScanCase c;
      c.sizes = {6400003};
      c.reverse = c.exclusive = reverse;
      c.out_misalign = misalign;
      c.seed = ++seed;
      RunScanCase(*backend_, c);
      if (HasFailure()) return;
    }
}

// Innermost lines are scanned opcts::cpu_simd::kLineGroup at a time, a vector of each in turn
// where the target has that loop (AVX3, AVX2): 9 lines leave one over, 100 elements leave lanes
// over, padded output rows are each aligned differently. Large outputs stream: rows of 16 KiB
// start alike, all aligned or, 4 bytes in, all after 15 single elements.
TEST_P(CpuSimdTarget, ScansInnermostLinesSideBySide) {
  static_assert(9 % opcts::cpu_simd::kLineGroup != 0);
  uint32_t seed = 3100;
  for (const DType& t : kDTypes) {
    RunFourModes(*backend_, t.id, {9, 100}, 1, &seed);
    if (HasFailure()) return;
    for (const bool backward_exclusive : {false, true}) {
      ScanCase c;
      c.dtype = t.id;
      c.sizes = {9, 100};
      c.out_strides = {107, 1};
      c.axis = 1;
      c.reverse = c.exclusive = backward_exclusive;
      c.seed = ++seed;
      RunScanCase(*backend_, c);
      if (HasFailure()) return;
    }
  }
  for (const size_t misalign : {0, 4}) {
    ScanCase c;
    c.sizes = {1601, 4096};  // 26.2 MB of float32 output
    c.axis = 1;
    c.reverse = c.exclusive = misalign != 0;
    c.out_misalign = misalign;
    c.seed = ++seed;
    RunScanCase(*backend_, c);
    if (HasFailure()) return;
  }
}

// A large float16 row recurrence streams its output on every target (the threads tests stream
// on the dispatched one only). Padded rows of 8016 bytes start at every multiple of 16 bytes:
// where a target's float16 vectors are wider, some rows stream and the others store plainly.
TEST_P(CpuSimdTarget, StreamsLargeFloat16Rows) {
  for (const bool backward_exclusive : {false, true}) {
    ScanCase c;
    c.dtype = OPCTS_DTYPE_FLOAT16;
    c.sizes = {3201, 4001};  // 25.6 MB of output
    c.out_strides = {4008, 1};
    c.axis = 0;
    c.reverse = c.exclusive = backward_exclusive;
    c.seed = 2600 + backward_exclusive;
    RunScanCase(*backend_, c);
    if (HasFailure()) return;
  }
}

// The ABI does not require element-aligned buffers. An output that starts between element
// boundaries has no aligned vector anywhere, so none of its stores may go around the caches (a
// misaligned streaming store faults), however large it is: one line split across the threads,
// lines shared out, and rows, each way.
TEST_P(CpuSimdTarget, StoresElementMisalignedOutputsPlainly) {
  struct Shape {
    std::vector<uint32_t> sizes;
    uint32_t axis;
  };
  const Shape shapes[] = {{{6400001}, 0}, {{1601, 4001}, 1}, {{1601, 4001}, 0}};  // 25.6 MB
  uint32_t seed = 2900;
  for (const Shape& shape : shapes)
    for (const bool backward_exclusive : {false, true}) {
      ScanCase c;
      c.sizes = shape.sizes;
      c.axis = shape.axis;
      c.reverse = c.exclusive = backward_exclusive;
      c.out_misalign = 2;
      c.seed = ++seed;
      RunScanCase(*backend_, c);
      if (HasFailure()) return;
    }
}

TEST_P(CpuSimdTarget, ScansInPlace) {
  uint32_t seed = 2000;
  for (const DType& t : kDTypes)
    for (const std::vector<uint32_t>& sizes : {std::vector<uint32_t>{5, 7, 33}, {300, 300}})
      for (uint32_t axis = 0; axis < sizes.size(); ++axis)
        for (int mode = 0; mode < 4; ++mode) {
          ScanCase c;
          c.op = (mode + axis) % 2 ? Op::kDmlProduct : Op::kDmlSum;
          c.dtype = t.id;
          c.sizes = sizes;
          c.axis = axis;
          c.reverse = mode & 1;
          c.exclusive = mode & 2;
          c.in_place = true;
          c.seed = ++seed;
          RunScanCase(*backend_, c);
          if (HasFailure()) return;
        }
  // In place with padding: input and output share the padded layout.
  ScanCase c;
  c.dtype = OPCTS_DTYPE_FLOAT16;
  c.sizes = {4, 50};
  c.in_strides = c.out_strides = {64, 1};
  c.in_place = true;
  c.exclusive = true;
  for (uint32_t axis : {0u, 1u}) {
    c.axis = axis;
    RunScanCase(*backend_, c);
  }
}

// Float16 and bfloat16 specials: infinities, NaN, subnormals, overflow, ties, signed zeros; and
// float32 subnormals, which must not be flushed.
TEST_P(CpuSimdTarget, FloatSpecialsFollowIEEEArithmetic) {
  const std::vector<std::vector<uint16_t>> half_lines = {
      {0x7C00, 0x3C00, 0xFC00, 0x3C00},          // inf, 1, -inf -> NaN
      {0x3C00, 0x7E00, 0x3C00},                  // NaN propagates
      {0x0001, 0x0001, 0x0003, 0x03FF, 0x0001},  // subnormals, into the normal range
      {0x7BFF, 0x7BFF, 0xFBFF},                  // 65504 + 65504 overflows to inf
      {0x8000, 0x8000, 0x0000},                  // -0, -0, +0
      {0x6800, 0x3C00, 0x3C00, 0x3C00},          // 2048 + 1: ties to even in float16
      {0x3C01, 0x3C01, 0x3C01, 0x3C01, 0x3C01},  // 1 + 2^-10: rounding each partial sum
      {0x0000, 0x7C00, 0x3C00},                  // product 0 * inf -> NaN
  };
  for (uint32_t dtype : {OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_BFLOAT16})
    for (const auto& line : half_lines)
      for (bool product : {false, true})
        for (int mode = 0; mode < 4; ++mode) {
          SCOPED_TRACE(std::string(Info(dtype).name) + (product ? " product" : " sum") + " mode " +
                       std::to_string(mode));
          Tensor in(dtype, {static_cast<uint32_t>(line.size())});
          Tensor out(dtype, {static_cast<uint32_t>(line.size())});
          std::vector<uint64_t> x;
          for (uint16_t h : line) {
            // The same values as bfloat16 (exactly representable: bfloat16 has float's range).
            x.push_back(dtype == OPCTS_DTYPE_FLOAT16
                            ? h
                            : opcts::FloatToBFloat16Bits(opcts::HalfBitsToFloat(h)));
            in.Set(x.size() - 1, x.back());
          }
          const bool reverse = mode & 1, exclusive = mode & 2;
          std::vector<uint64_t> walked(x.rbegin(), x.rend());
          std::vector<uint64_t> y = NaiveLine(dtype, product, exclusive, reverse ? walked : x);
          if (reverse) std::reverse(y.begin(), y.end());
          const opcts_dml_cumulative_desc desc{in.desc(), out.desc(), 0, reverse, exclusive};
          std::string message;
          ASSERT_EQ(backend_->Execute({product ? OPCTS_OP_DML_CUMULATIVE_PRODUCT
                                               : OPCTS_OP_DML_CUMULATIVE_SUMMATION,
                                       &desc},
                                      {in.binding(), out.binding()}, &message),
                    OPCTS_STATUS_OK)
              << message;
          for (size_t i = 0; i < y.size(); ++i)
            EXPECT_TRUE(SameValue(dtype, y[i], out.Get(i)))
                << "element " << i << ": expected bits 0x" << std::hex << y[i] << ", got 0x"
                << out.Get(i);
        }

  // float32: a running sum of subnormals stays exact; flushing would give 0.
  Tensor in(OPCTS_DTYPE_FLOAT32, {40});
  Tensor out(OPCTS_DTYPE_FLOAT32, {40});
  for (uint32_t i = 0; i < 40; ++i) in.Set(i, i + 1);  // bit patterns 1..40: 1..40 x 2^-149
  const opcts_dml_cumulative_desc desc{in.desc(), out.desc(), 0, 0, 0};
  ASSERT_EQ(
      backend_->Execute({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc}, {in.binding(), out.binding()}),
      OPCTS_STATUS_OK);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(out.Get(i), uint64_t{(i + 1) * (i + 2) / 2}) << i;
}

// Random real-valued data: evaluation order matters, so compare with the standard error bound
// |y - s| <= 2 m u_acc sum|x| + u_out |s| for sums (relative for products).
TEST_P(CpuSimdTarget, FloatScansStayWithinErrorBounds) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> sum_values(-1, 1), product_values(0.99, 1.01);
  for (uint32_t dtype :
       {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT64, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_BFLOAT16})
    for (bool product : {false, true})
      for (const std::vector<uint32_t>& sizes : {std::vector<uint32_t>{3, 5000}, {5000, 3}}) {
        SCOPED_TRACE(std::string(Info(dtype).name) + (product ? " product " : " sum ") +
                     Shape(sizes));
        const uint32_t axis = sizes[0] == 3 ? 1 : 0;
        Tensor in(dtype, sizes), out(dtype, sizes);
        for (uint64_t i = 0; i < in.count(); ++i)
          in.Set(i, FromFloat(dtype, product ? product_values(rng) : sum_values(rng)));
        const opcts_dml_cumulative_desc desc{in.desc(), out.desc(), axis, 0, 0};
        ASSERT_EQ(backend_->Execute({product ? OPCTS_OP_DML_CUMULATIVE_PRODUCT
                                             : OPCTS_OP_DML_CUMULATIVE_SUMMATION,
                                     &desc},
                                    {in.binding(), out.binding()}),
                  OPCTS_STATUS_OK);
        const double u_acc = dtype == OPCTS_DTYPE_FLOAT64 ? 0x1p-53 : 0x1p-24;
        const double u_out = dtype == OPCTS_DTYPE_FLOAT64   ? 0x1p-53
                             : dtype == OPCTS_DTYPE_FLOAT32 ? 0x1p-24
                             : dtype == OPCTS_DTYPE_FLOAT16 ? 0x1p-11
                                                            : 0x1p-8;
        const uint32_t lines = sizes[1 - axis];
        for (uint32_t l = 0; l < lines; ++l) {
          long double exact = product ? 1 : 0, abs_sum = 0;
          for (uint32_t k = 0; k < sizes[axis]; ++k) {
            const uint64_t logical =
                axis == 1 ? uint64_t{l} * sizes[1] + k : uint64_t{k} * sizes[1] + l;
            const long double v = ToDouble(dtype, in.Get(logical));
            exact = product ? exact * v : exact + v;
            abs_sum += std::fabs(v);
            const double m = k + 1;
            const long double bound = product ? (2 * m * u_acc + u_out) * std::fabs(exact)
                                              : 2 * m * u_acc * abs_sum + u_out * std::fabs(exact);
            const long double got = ToDouble(dtype, out.Get(logical));
            if (std::fabs(got - exact) > bound) {
              ADD_FAILURE() << "line " << l << " position " << k << ": got "
                            << static_cast<double>(got) << ", exact " << static_cast<double>(exact)
                            << ", bound " << static_cast<double>(bound);
              return;
            }
          }
        }
      }
}

// The targets backends/cpu_simd/CMakeLists.txt compiles; one the CPU lacks, or the fallback the
// compiler does not build (GCC 12 builds SCALAR, clang EMU128), is skipped with the reason.
INSTANTIATE_TEST_SUITE_P(Targets, CpuSimdTarget,
                         testing::Values("", "AVX3", "AVX2", "SSE4", "SCALAR", "EMU128"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param.empty() ? std::string("Dispatched") : info.param;
                         });

// ---- large tensors: the threaded paths (dispatched target only) --------------------------------

TEST(CpuSimdThreads, SplitsLongInnermostLinesAcrossThreads) {
  const Backend backend;
  uint32_t seed = 3000;
  for (const std::vector<uint32_t>& sizes :
       {std::vector<uint32_t>{70001}, {3, 70000}, {2, 100003}, {1, 1, 300000}})
    for (uint32_t dtype : {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_BFLOAT16,
                           OPCTS_DTYPE_INT64, OPCTS_DTYPE_UINT8, OPCTS_DTYPE_FLOAT64})
      for (int mode = 0; mode < 8; ++mode) {
        ScanCase c;
        c.op = mode & 4 ? Op::kDmlProduct : Op::kDmlSum;
        c.dtype = dtype;
        c.sizes = sizes;
        c.axis = static_cast<uint32_t>(sizes.size() - 1);
        c.reverse = mode & 1;
        c.exclusive = mode & 2;
        c.in_place = (mode + dtype) % 3 == 0;
        c.seed = ++seed;
        RunScanCase(backend, c);
        if (testing::Test::HasFailure()) return;
      }
}

TEST(CpuSimdThreads, SplitsRowsAcrossThreads) {
  const Backend backend;
  uint32_t seed = 4000;
  for (const auto& [sizes, axis] :
       std::vector<std::pair<std::vector<uint32_t>, uint32_t>>{{{300, 513}, 0},
                                                               {{4, 300, 129}, 1},
                                                               {{1, 70000, 3}, 1},
                                                               {{257, 4, 70}, 0},
                                                               {{70, 1000}, 1}})
    for (uint32_t dtype :
         {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_INT32, OPCTS_DTYPE_UINT8})
      for (int mode = 0; mode < 4; ++mode) {
        ScanCase c;
        c.op = mode % 2 ? Op::kDmlProduct : Op::kDmlSum;
        c.dtype = dtype;
        c.sizes = sizes;
        c.axis = axis;
        c.reverse = mode & 1;
        c.exclusive = mode & 2;
        c.in_place = mode == 3;
        c.seed = ++seed;
        RunScanCase(backend, c);
        if (testing::Test::HasFailure()) return;
      }
}

// More workers than cores, and two harness threads executing on one instance at once (the
// second finds the pool busy and works alone): every result still right.
TEST(CpuSimdThreads, SharesOneWorkerPoolSafely) {
  const Backend backend("threads=5");
  ASSERT_EQ(backend.create_status(), OPCTS_STATUS_OK) << backend.create_message();
  auto run = [&](uint32_t first_seed) {
    for (uint32_t i = 0; i < 6; ++i) {
      ScanCase c;
      c.op = i % 2 ? Op::kDmlProduct : Op::kDmlSum;
      c.dtype = i % 3 ? OPCTS_DTYPE_FLOAT32 : OPCTS_DTYPE_INT64;
      c.sizes = i < 3 ? std::vector<uint32_t>{300007} : std::vector<uint32_t>{257, 1030};
      c.axis = i < 3 ? 0 : i % 2;
      c.reverse = i % 2;
      c.exclusive = i % 4 == 1;
      c.seed = first_seed + i;
      RunScanCase(backend, c);
    }
  };
  std::thread other(run, 7000);
  run(7100);
  other.join();
}

// Outputs of 24 MiB and more are written with non-temporal stores, aligned vectors only: odd
// lengths and padded rows put the first aligned element anywhere. Lines of -0.0 scanned
// exclusive: the head is +0.0, every later prefix -0.0, whichever store writes it.
TEST(CpuSimdThreads, StreamsOutputsLargerThanTheCaches) {
  const Backend backend;
  struct Large {
    uint32_t dtype;
    std::vector<uint32_t> sizes, out_strides;
    uint32_t axis;
  };
  const Large cases[] = {
      {OPCTS_DTYPE_FLOAT32, {6400001}, {}, 0},            // one line split over threads
      {OPCTS_DTYPE_FLOAT16, {3, 4200007}, {}, 1},         // a few long lines
      {OPCTS_DTYPE_FLOAT64, {4001, 801}, {803, 1}, 1},    // many lines, each misaligned
      {OPCTS_DTYPE_FLOAT32, {1601, 4001}, {4003, 1}, 0},  // row recurrence, padded rows
  };
  uint32_t seed = 5000;
  for (const Large& large : cases)
    for (int mode = 0; mode < 4; ++mode) {
      ScanCase c;
      c.dtype = large.dtype;
      c.sizes = large.sizes;
      c.out_strides = large.out_strides;
      c.axis = large.axis;
      c.reverse = mode & 1;
      c.exclusive = mode != 0;
      c.negative_zeros = mode >= 2;
      c.seed = ++seed;
      RunScanCase(backend, c);
      if (testing::Test::HasFailure()) return;
    }
}

// ---- scatter-nd --------------------------------------------------------------------------------

struct ScatterCase {
  uint32_t dtype = OPCTS_DTYPE_FLOAT32, index_dtype = OPCTS_DTYPE_INT32;
  std::vector<uint32_t> in_sizes, idx_sizes, upd_sizes;
  uint32_t k_in = 0, k_idx = 0;
  std::vector<uint32_t> in_strides, idx_strides, upd_strides, out_strides;
  bool in_place = false;
  // Index values: random in range (negative too for signed types), one repeated tuple, or a mix
  // with out-of-range values.
  enum class Indices { kRandom, kDuplicate, kOutOfRange } indices = Indices::kRandom;
  uint32_t seed = 1;

  std::string Describe() const {
    return std::string(Info(dtype).name) + " indices " + Info(index_dtype).name + " input " +
           Shape(in_sizes) + " indices " + Shape(idx_sizes) + " updates " + Shape(upd_sizes) +
           " k_in " + std::to_string(k_in) + " k_idx " + std::to_string(k_idx) +
           (in_place ? " in-place" : "") + " mode " + std::to_string(static_cast<int>(indices)) +
           " seed " + std::to_string(seed);
  }
};

void RunScatterCase(const Backend& backend, const ScatterCase& c) {
  SCOPED_TRACE(c.Describe());
  std::mt19937_64 rng(c.seed);
  Tensor in(c.dtype, c.in_sizes, c.in_strides);
  Tensor idx(c.index_dtype, c.idx_sizes, c.idx_strides);
  Tensor upd(c.dtype, c.upd_sizes, c.upd_strides);
  Tensor separate_out(c.dtype, c.in_sizes, c.out_strides);
  Tensor& out = c.in_place ? in : separate_out;
  for (uint64_t e = 0; e < in.buffer_elements(); ++e) in.SetBuffer(e, rng());
  for (uint64_t e = 0; e < upd.buffer_elements(); ++e) upd.SetBuffer(e, rng());

  const size_t rank = c.in_sizes.size();
  const size_t q = c.idx_sizes[rank - 1];
  const bool is_signed = Info(c.index_dtype).is_signed;
  const uint64_t tuples = idx.count() / q;
  std::vector<int64_t> first_tuple;
  for (uint64_t t = 0; t < tuples; ++t)
    for (size_t j = 0; j < q; ++j) {
      const int64_t dim = c.in_sizes[rank - c.k_in + j];
      int64_t v = static_cast<int64_t>(rng() % dim) -
                  (is_signed ? static_cast<int64_t>(rng() % 2) * dim : 0);
      if (c.indices == ScatterCase::Indices::kDuplicate) {
        if (t == 0) first_tuple.push_back(v);
        v = first_tuple[j];
      } else if (c.indices == ScatterCase::Indices::kOutOfRange && rng() % 3 == 0) {
        v = rng() % 2 ? dim + static_cast<int64_t>(rng() % 5) : (is_signed ? -dim - 1 : dim);
      }
      uint64_t bits = static_cast<uint64_t>(v) & Mask(c.index_dtype);
      if (c.indices == ScatterCase::Indices::kOutOfRange && !is_signed && rng() % 7 == 0)
        bits = Mask(c.index_dtype);  // the largest unsigned value
      idx.Set(t * q + j, bits);
    }

  // Candidates per output element: the input value, or every update written there.
  const std::vector<uint64_t> x = in.Values(), u = upd.Values();
  std::vector<std::set<uint64_t>> candidates(x.size());
  std::vector<bool> written(x.size(), false);
  uint64_t slice = 1;
  for (size_t d = rank - c.k_in + q; d < rank; ++d) slice *= c.in_sizes[d];
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t base = 0;  // row-major output index of the slice's first element
    bool in_range = true;
    for (size_t j = 0; j < q; ++j) {
      const int64_t dim = c.in_sizes[rank - c.k_in + j];
      const uint64_t bits = idx.Get(t * q + j);
      int64_t v = is_signed
                      ? static_cast<int64_t>(bits << (64 - 8 * Info(c.index_dtype).size)) >>
                            (64 - 8 * Info(c.index_dtype).size)
                      : (bits >= static_cast<uint64_t>(dim) ? dim : static_cast<int64_t>(bits));
      if (v < 0) v += dim;
      if (v < 0 || v >= dim) in_range = false;
      base = base * dim + static_cast<uint64_t>(in_range ? v : 0);
    }
    if (!in_range) continue;
    for (uint64_t s = 0; s < slice; ++s) {
      const uint64_t o = base * slice + s;
      if (!written[o]) candidates[o].clear();
      written[o] = true;
      candidates[o].insert(u[t * slice + s]);
    }
  }
  for (uint64_t i = 0; i < x.size(); ++i)
    if (!written[i]) candidates[i].insert(x[i]);

  const std::vector<uint8_t> in_before = in.storage(), idx_before = idx.storage(),
                             upd_before = upd.storage();
  const opcts_dml_scatter_nd_desc desc{in.desc(),  idx.desc(), upd.desc(),
                                       out.desc(), c.k_in,     c.k_idx};
  std::string message;
  ASSERT_EQ(backend.Execute({OPCTS_OP_DML_SCATTER_ND, &desc},
                            {in.binding(), idx.binding(), upd.binding(), out.binding()}, &message),
            OPCTS_STATUS_OK)
      << message;
  for (const Tensor* t : {&in, &idx, &upd, &out}) EXPECT_TRUE(t->GuardsIntact());
  if (!c.in_place) {
    EXPECT_EQ(in.storage(), in_before);
  }
  EXPECT_EQ(idx.storage(), idx_before);
  EXPECT_EQ(upd.storage(), upd_before);
  int mismatches = 0;
  for (uint64_t i = 0; i < x.size() && mismatches < 5; ++i)
    if (!candidates[i].count(out.Get(i))) {
      ++mismatches;
      ADD_FAILURE() << "element " << i << ": got bits 0x" << std::hex << out.Get(i) << ", "
                    << (written[i] ? "an update" : "the input") << " expected";
    }
}

struct ScatterShape {
  std::vector<uint32_t> in, idx, upd;
  uint32_t k_in, k_idx;
};
const ScatterShape kScatterShapes[] = {
    {{8}, {1}, {1}, 1, 1},
    {{6, 5}, {4, 1}, {4, 5}, 2, 2},
    {{6, 5}, {4, 2}, {1, 4}, 2, 2},
    {{1, 6, 5}, {1, 3, 1}, {1, 3, 5}, 2, 2},
    {{1, 6, 5}, {2, 3, 1}, {2, 3, 5}, 2, 3},
    {{3, 4, 5, 6}, {1, 2, 3, 2}, {2, 3, 5, 6}, 4, 3},
    {{3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, {1, 1, 2, 6, 7}, 5, 3},  // the document's example
    {{1, 1, 1, 1, 2, 3, 2, 3}, {1, 1, 1, 1, 1, 1, 2, 2}, {1, 1, 1, 1, 1, 2, 2, 3}, 4, 2},
};

TEST(CpuSimdScatterND, MatchesNaiveLoopForEveryDTypeAndIndexType) {
  const Backend backend;
  uint32_t seed = 5000;
  for (const ScatterShape& s : kScatterShapes)
    for (const DType& t : kDTypes)
      for (uint32_t index_dtype :
           {OPCTS_DTYPE_INT32, OPCTS_DTYPE_INT64, OPCTS_DTYPE_UINT32, OPCTS_DTYPE_UINT64}) {
        ScatterCase c;
        c.dtype = t.id;
        c.index_dtype = index_dtype;
        c.in_sizes = s.in;
        c.idx_sizes = s.idx;
        c.upd_sizes = s.upd;
        c.k_in = s.k_in;
        c.k_idx = s.k_idx;
        c.seed = ++seed;
        RunScatterCase(backend, c);
        c.indices = ScatterCase::Indices::kDuplicate;
        RunScatterCase(backend, c);
        c.indices = ScatterCase::Indices::kOutOfRange;
        RunScatterCase(backend, c);
        if (testing::Test::HasFailure()) return;
      }
}

TEST(CpuSimdScatterND, HandlesStridedTensorsAndInPlace) {
  const Backend backend;
  ScatterCase c;
  c.dtype = OPCTS_DTYPE_FLOAT16;
  c.index_dtype = OPCTS_DTYPE_INT64;
  c.in_sizes = {1, 6, 5};
  c.idx_sizes = {2, 3, 1};
  c.upd_sizes = {2, 3, 5};
  c.k_in = 2;
  c.k_idx = 3;
  c.in_strides = {0, 0, 1};     // every row of the input is the same
  c.idx_strides = {6, 2, 1};    // padded indices
  c.upd_strides = {40, 10, 2};  // every other update
  c.out_strides = {64, 8, 1};   // padded output
  for (auto mode : {ScatterCase::Indices::kRandom, ScatterCase::Indices::kDuplicate,
                    ScatterCase::Indices::kOutOfRange}) {
    c.indices = mode;
    RunScatterCase(backend, c);
  }
  ScatterCase p;
  p.dtype = OPCTS_DTYPE_INT8;
  p.index_dtype = OPCTS_DTYPE_INT32;
  p.in_sizes = {6, 5};
  p.idx_sizes = {4, 1};
  p.upd_sizes = {4, 5};
  p.k_in = p.k_idx = 2;
  p.in_place = true;
  RunScatterCase(backend, p);
  p.in_strides = p.out_strides = {8, 1};
  p.indices = ScatterCase::Indices::kOutOfRange;
  RunScatterCase(backend, p);
}

// Outputs of 4 MiB and more (packed, or in place) are produced in blocks of whole slices, split
// between threads; repeated tuples must still leave one of their updates, skipped tuples nothing.
TEST(CpuSimdScatterND, SplitsLargeOutputsIntoBlocksAndThreads) {
  const Backend backend;
  const ScatterShape shapes[] = {
      {{2048, 600}, {700, 1}, {700, 600}, 2, 2},           // rows
      {{128, 64, 160}, {25, 20, 2}, {25, 20, 160}, 3, 3},  // a grid of two-coordinate tuples
      {{16, 128, 640}, {1, 2000, 3}, {1, 1, 2000}, 3, 2},  // single elements
      {{3, 300000}, {1, 1}, {1, 300000}, 2, 2},            // slices larger than a block
  };
  uint32_t seed = 6000;
  for (const ScatterShape& s : shapes)
    for (uint32_t dtype : {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_UINT8, OPCTS_DTYPE_FLOAT64})
      for (auto mode : {ScatterCase::Indices::kRandom, ScatterCase::Indices::kDuplicate,
                        ScatterCase::Indices::kOutOfRange}) {
        ScatterCase c;
        c.dtype = dtype;
        c.index_dtype = seed % 2 ? OPCTS_DTYPE_INT64 : OPCTS_DTYPE_UINT32;
        c.in_sizes = s.in;
        c.idx_sizes = s.idx;
        c.upd_sizes = s.upd;
        c.k_in = s.k_in;
        c.k_idx = s.k_idx;
        c.indices = mode;
        c.in_place = (seed / 3) % 2 == 0;  // every index mode both ways
        c.seed = ++seed;
        RunScatterCase(backend, c);
        if (testing::Test::HasFailure()) return;
      }
}

// cpu-simd promises more than the spec's set-valued outcome for repeated slices: the last tuple
// writing a slice wins, as in a sequential loop. Runs one float32 ScatterND of `rows` slices of
// `slice` elements, tuple t writing row tuple_rows[t], every update different, and compares with
// a plain loop (one right value per element).
void ExpectSequentialScatter(const Backend& backend, uint32_t rows, uint32_t slice,
                             const std::vector<uint32_t>& tuple_rows, uint32_t index_dtype,
                             bool in_place, std::mt19937_64& rng) {
  const auto count = static_cast<uint32_t>(tuple_rows.size());
  Tensor in(OPCTS_DTYPE_FLOAT32, {rows, slice});
  Tensor idx(index_dtype, {count, 1});
  Tensor upd(OPCTS_DTYPE_FLOAT32, {count, slice});
  Tensor separate_out(OPCTS_DTYPE_FLOAT32, {rows, slice});
  Tensor& out = in_place ? in : separate_out;
  for (uint64_t e = 0; e < in.buffer_elements(); ++e) in.SetBuffer(e, rng() & 0xFFFFFFFF);
  std::vector<uint64_t> expected = in.Values();
  for (uint32_t t = 0; t < count; ++t) {
    idx.Set(t, tuple_rows[t]);
    for (uint32_t x = 0; x < slice; ++x) {
      upd.Set(uint64_t{t} * slice + x, rng() & 0xFFFFFFFF);
      expected[uint64_t{tuple_rows[t]} * slice + x] = upd.Get(uint64_t{t} * slice + x);
    }
  }
  const opcts_dml_scatter_nd_desc desc{in.desc(), idx.desc(), upd.desc(), out.desc(), 2, 2};
  std::string message;
  ASSERT_EQ(backend.Execute({OPCTS_OP_DML_SCATTER_ND, &desc},
                            {in.binding(), idx.binding(), upd.binding(), out.binding()}, &message),
            OPCTS_STATUS_OK)
      << message;
  EXPECT_TRUE(out.GuardsIntact());
  const std::vector<uint64_t> got = out.Values();
  int mismatches = 0;
  for (uint64_t i = 0; i < got.size() && mismatches < 5; ++i)
    if (got[i] != expected[i]) {
      ++mismatches;
      ADD_FAILURE() << "row " << i / slice << " column " << i % slice << ": got 0x" << std::hex
                    << got[i] << ", expected 0x" << expected[i];
    }
}

std::vector<uint32_t> ShuffledRows(uint32_t rows, uint32_t count, std::mt19937_64& rng) {
  std::vector<uint32_t> all(rows);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(count);
  return all;
}

// A 26 MB output of 6400 rows of 4 KiB, in blocks of 64 rows: blocks whose every row is updated
// (no copy of the input, updates streamed), blocks missing one row and blocks with a repeated row
// instead of a missing one (each written once, streamed: the input between updated rows, a
// repeated row from its last tuple), and blocks nothing updates (streamed copy); then the same with
// blocks whose every row is updated and one twice (the fully updated blocks are then written
// split by output rows, not by tuples).
TEST(CpuSimdScatterND, SkipsCopiesOfFullyUpdatedBlocksAndStreamsLargeOutputs) {
  const Backend backend;
  constexpr uint32_t kRows = 6400, kSlice = 1024, kBlockRows = 64;
  for (const uint32_t kinds : {4u, 5u}) {
    std::vector<uint32_t> rows;  // the row each tuple writes
    for (uint32_t b = 0; b < kRows / kBlockRows; ++b)
      for (uint32_t r = b * kBlockRows; r < (b + 1) * kBlockRows; ++r) {
        // 0 all rows, 1 one missing, 2 one repeated, 3 untouched, 4 all rows and one repeated
        const uint32_t kind = b % kinds;
        if (kind == 3 || ((kind == 1 || kind == 2) && r == b * kBlockRows)) continue;
        rows.push_back(r);
        if ((kind == 2 || kind == 4) && r == b * kBlockRows + 1) rows.push_back(r);
      }
    std::mt19937_64 rng(8000 + kinds);
    std::shuffle(rows.begin(), rows.end(), rng);
    for (const bool in_place : {false, true}) {
      SCOPED_TRACE(std::to_string(kinds) + (in_place ? " kinds, in place" : " kinds"));
      ExpectSequentialScatter(backend, kRows, kSlice, rows, OPCTS_DTYPE_INT64, in_place, rng);
    }
  }
}

// Outputs of 4 MiB and more, split between threads by tuples when no slice repeats, by output
// rows when one does.
TEST(CpuSimdScatterND, LargeOutputsKeepTheSequentialOutcome) {
  const Backend backend;
  constexpr uint32_t kRows = 1024, kSlice = 1024;  // 4 MiB of float32
  std::mt19937_64 rng(8100);
  std::vector<uint32_t> unique_rows = ShuffledRows(kRows, kRows, rng);
  std::vector<uint32_t> repeating_rows(3000);  // three tuples a row on average
  for (uint32_t& r : repeating_rows) r = static_cast<uint32_t>(rng() % kRows);
  for (const std::vector<uint32_t>* rows : {&unique_rows, &repeating_rows})
    for (const bool in_place : {false, true}) {
      SCOPED_TRACE(std::string(rows == &unique_rows ? "unique" : "repeating") +
                   (in_place ? ", in place" : ", separate output"));
      ExpectSequentialScatter(backend, kRows, kSlice, *rows, OPCTS_DTYPE_INT32, in_place, rng);
    }
}

// Outputs of 24 MiB and more are partly written with streaming stores (StreamCopy, dispatched
// like the scan kernels): slices of 1001 float32 start at every alignment.
TEST_P(CpuSimdTarget, ScatterStreamsLargeOutputs) {
  constexpr uint32_t kRows = 6300, kSlice = 1001;  // 25.2 MB
  std::mt19937_64 rng(8200);
  const std::vector<uint32_t> rows = ShuffledRows(kRows, 700, rng);
  for (const bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "separate output");
    ExpectSequentialScatter(*backend_, kRows, kSlice, rows, OPCTS_DTYPE_INT32, in_place, rng);
  }
}

// ---- ABI: info, query, execute's own checks
// ------------------------------------------------------

// ONNX ScatterND add over duplicate tuples, float16: 2048 plus sixteen updates of 1. Rounded
// after every update (float16 spacing is 2 there, ties to even) it stays 2048; accumulated in
// float and rounded once it is 2064 (0x6808), what the spec's Pass tier asks for. bfloat16:
// 256 + sixteen 1s (spacing 2): 272 (0x4388). Element 1 is untouched.
TEST(CpuSimdScatterND, HalfReductionsOfDuplicatesRoundOnce) {
  const Backend backend;
  for (const auto& [dtype, base, one, want] :
       {std::tuple{OPCTS_DTYPE_FLOAT16, 0x6800u, 0x3C00u, 0x6808u},
        std::tuple{OPCTS_DTYPE_BFLOAT16, 0x4380u, 0x3F80u, 0x4388u}}) {
    Tensor data(dtype, {2}), indices(OPCTS_DTYPE_INT64, {16, 1}), updates(dtype, {16}),
        output(dtype, {2});
    data.Set(0, base);
    data.Set(1, one);
    for (uint32_t t = 0; t < 16; ++t) {
      indices.Set(t, 0);
      updates.Set(t, one);
    }
    const opcts_onnx_scatter_nd_desc desc{data.desc(), indices.desc(), updates.desc(),
                                          output.desc(), OPCTS_SCATTER_REDUCTION_ADD};
    std::string message;
    ASSERT_EQ(
        backend.Execute({OPCTS_OP_ONNX_SCATTER_ND, &desc},
                        {data.binding(), indices.binding(), updates.binding(), output.binding()},
                        &message),
        OPCTS_STATUS_OK)
        << message;
    EXPECT_EQ(output.Get(0), want) << std::hex << "dtype " << dtype;
    EXPECT_EQ(output.Get(1), one);
    EXPECT_TRUE(output.GuardsIntact());
  }
}

TEST(CpuSimdAbi, DescribesItself) {
  ASSERT_NE(Api(), nullptr) << dlerror();
  EXPECT_EQ(Api()->abi_version, OPCTS_ABI_VERSION);
  EXPECT_EQ(Api()->struct_size, sizeof(opcts_backend_api));
  const Backend backend;
  ASSERT_EQ(backend.create_status(), OPCTS_STATUS_OK) << backend.create_message();
  const opcts_backend_info info = backend.Info();
  EXPECT_STREQ(info.name, "cpu-simd");
  EXPECT_EQ(info.feature_level, OPCTS_FEATURE_LEVEL(5, 0));
  EXPECT_EQ(info.extra_support, opcts::claims::EveryExtraLevel());
  const std::string details = info.details;
  EXPECT_NE(details.find("compiled targets"), std::string::npos) << details;
  const size_t at = details.find("dispatched target ");
  ASSERT_NE(at, std::string::npos) << details;
  const std::string target = details.substr(at + 18, details.find(';', at) - at - 18);
  EXPECT_NE(std::string(info.device).find("(" + target + ")"), std::string::npos) << info.device;
}

TEST(CpuSimdAbi, RejectsBadOptions) {
  EXPECT_EQ(Backend("threads=0").create_status(), OPCTS_STATUS_INVALID);
  EXPECT_EQ(Backend("threads=x").create_status(), OPCTS_STATUS_INVALID);
  EXPECT_EQ(Backend("colour=blue").create_status(), OPCTS_STATUS_INVALID);
  EXPECT_EQ(Backend("target=NOPE").create_status(), OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(Backend("threads=1;").create_status(), OPCTS_STATUS_OK);
  EXPECT_EQ(Backend("target=").create_status(), OPCTS_STATUS_OK);  // the best target
}

std::string DispatchedTarget(const Backend& backend) {
  const std::string details = backend.Info().details;
  const size_t at = details.find("dispatched target ");
  if (at == std::string::npos) return "(none in '" + details + "')";
  return details.substr(at + 18, details.find(';', at) - at - 18);
}

// `target=` is per instance: two instances of the one loaded plugin (a bench run of cpu-simd
// beside cpu-simd@target=AVX2) each run their own target, whichever was created last. The name
// comes from the dispatch table row the kernels use, so this checks that row too.
TEST(CpuSimdAbi, EachInstanceRunsItsOwnTarget) {
  const Backend best;
  // Highway's fallback without SIMD: SCALAR where GCC 12 compiles it, EMU128 under clang.
  const std::string fallback =
      Backend("target=SCALAR").create_status() == OPCTS_STATUS_OK ? "SCALAR" : "EMU128";
  const Backend scalar("target=" + fallback);
  const Backend best_again;
  ASSERT_EQ(scalar.create_status(), OPCTS_STATUS_OK) << scalar.create_message();
  EXPECT_EQ(DispatchedTarget(scalar), fallback);
  EXPECT_EQ(DispatchedTarget(best), DispatchedTarget(best_again));
  if (DispatchedTarget(best) == fallback) GTEST_SKIP() << "this CPU has no SIMD target compiled";
  const Backend sse4("target=SSE4");
  if (sse4.create_status() == OPCTS_STATUS_OK) {
    EXPECT_EQ(DispatchedTarget(sse4), "SSE4");
  }
  EXPECT_NE(DispatchedTarget(best), fallback);
  EXPECT_EQ(DispatchedTarget(scalar), fallback);
}

TEST(CpuSimdAbi, QueryAnswersSupportedNotSupportedAndInvalid) {
  const Backend backend;
  Tensor in(OPCTS_DTYPE_BFLOAT16, {2, 3}), out(OPCTS_DTYPE_BFLOAT16, {2, 3});
  opcts_dml_cumulative_desc cum{in.desc(), out.desc(), 1, 0, 0};
  std::string message;
  EXPECT_EQ(backend.Query({OPCTS_OP_DML_CUMULATIVE_PRODUCT, &cum}), OPCTS_STATUS_OK);
  cum.axis = 2;
  EXPECT_EQ(backend.Query({OPCTS_OP_DML_CUMULATIVE_PRODUCT, &cum}, &message), OPCTS_STATUS_INVALID);
  EXPECT_NE(message.find("Axis 2 is not less than InputTensor.DimensionCount 2"), std::string::npos)
      << message;
  std::vector<opcts_binding> bindings{in.binding(), out.binding()};
  EXPECT_EQ(backend.Execute({OPCTS_OP_DML_CUMULATIVE_PRODUCT, &cum}, bindings),
            OPCTS_STATUS_INVALID);
  cum.axis = 1;
  bindings[1].size_in_bytes -= 4;
  EXPECT_EQ(backend.Execute({OPCTS_OP_DML_CUMULATIVE_PRODUCT, &cum}, bindings, &message),
            OPCTS_STATUS_INVALID);
  EXPECT_NE(message.find("size_in_bytes"), std::string::npos) << message;
  bindings.pop_back();
  EXPECT_EQ(backend.Execute({OPCTS_OP_DML_CUMULATIVE_PRODUCT, &cum}, bindings),
            OPCTS_STATUS_INVALID);
  EXPECT_EQ(Api()->query(nullptr, nullptr, nullptr, 0), OPCTS_STATUS_INVALID);
  EXPECT_EQ(backend.Query({OPCTS_OP_DML_CUMULATIVE_PRODUCT, nullptr}), OPCTS_STATUS_INVALID);

  Tensor sin(OPCTS_DTYPE_FLOAT32, {6, 5}), sidx(OPCTS_DTYPE_INT16, {4, 1}),
      supd(OPCTS_DTYPE_FLOAT32, {4, 5}), sout(OPCTS_DTYPE_FLOAT32, {6, 5});
  const opcts_dml_scatter_nd_desc scatter{sin.desc(), sidx.desc(), supd.desc(), sout.desc(), 2, 2};
  EXPECT_EQ(backend.Query({OPCTS_OP_DML_SCATTER_ND, &scatter}, &message),
            OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("IndicesTensor.DataType"), std::string::npos) << message;
  EXPECT_EQ(backend.Execute({OPCTS_OP_DML_SCATTER_ND, &scatter},
                            {sin.binding(), sidx.binding(), supd.binding(), sout.binding()}),
            OPCTS_STATUS_NOT_SUPPORTED);
}

TEST(CpuSimdAbi, OpenVINOAxisIsCheckedAtExecute) {
  const Backend backend;
  Tensor data(OPCTS_DTYPE_INT16, {2, 3, 4}), out(OPCTS_DTYPE_INT16, {2, 3, 4});
  Tensor axis(OPCTS_DTYPE_INT64, {});
  for (uint64_t i = 0; i < data.count(); ++i) data.Set(i, i);
  const opcts_openvino_cumsum_desc desc{data.desc(), axis.desc(), out.desc(), 0, 0};
  EXPECT_EQ(backend.Query({OPCTS_OP_OPENVINO_CUMSUM_3, &desc}), OPCTS_STATUS_OK);
  std::string message;
  for (int64_t bad : {int64_t{3}, int64_t{-4}, int64_t{1} << 40}) {
    std::memcpy(axis.data(), &bad, 8);
    EXPECT_EQ(backend.Execute({OPCTS_OP_OPENVINO_CUMSUM_3, &desc},
                              {data.binding(), axis.binding(), out.binding()}, &message),
              OPCTS_STATUS_INVALID)
        << bad;
  }
  EXPECT_NE(message.find("axis 1099511627776 is outside [-3, 3)"), std::string::npos) << message;
  const int64_t last = -1;
  std::memcpy(axis.data(), &last, 8);
  ASSERT_EQ(backend.Execute({OPCTS_OP_OPENVINO_CUMSUM_3, &desc},
                            {data.binding(), axis.binding(), out.binding()}),
            OPCTS_STATUS_OK);
  EXPECT_EQ(out.Get(3), 0u + 1 + 2 + 3);  // axis -1 is the innermost: 0 1 2 3
  // Absent axis: axis 0.
  const opcts_openvino_cumsum_desc no_axis{data.desc(), nullptr, out.desc(), 0, 0};
  ASSERT_EQ(backend.Execute({OPCTS_OP_OPENVINO_CUMSUM_3, &no_axis},
                            {data.binding(), {nullptr, 0}, out.binding()}),
            OPCTS_STATUS_OK);
  EXPECT_EQ(out.Get(12), 0u + 12);  // data[0][0][0] + data[1][0][0]
}

}  // namespace
