// Tests of the `vulkan` plugin through its C ABI (dlopen of the built module), against naive
// loops written here: every operator x dtype the device supports, ranks 1..8, every axis, both
// directions, inclusive and exclusive, strided / broadcast / padded layouts, in place, long axes
// (carries across workgroups), ScatterND's negative / duplicate / out-of-range indices with
// guard bytes. The Khronos validation layer is on and any validation message fails the test.
// Without a Vulkan device every test is skipped and says why.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "common/claims_testing.h"
#include "common/plugin_support.h"
#include "vulkan_test_util.h"

namespace opcts::vulkan_test {
namespace {

constexpr const char* kOptions = "validation=1";
constexpr const char* kSharedMemoryOptions = "validation=1;disable=subgroups";

constexpr uint32_t kDmlTypes[] = {OPCTS_DTYPE_FLOAT64, OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16,
                                  OPCTS_DTYPE_INT64,   OPCTS_DTYPE_INT32,   OPCTS_DTYPE_INT16,
                                  OPCTS_DTYPE_INT8,    OPCTS_DTYPE_UINT64,  OPCTS_DTYPE_UINT32,
                                  OPCTS_DTYPE_UINT16,  OPCTS_DTYPE_UINT8};
constexpr uint32_t kFloatTypes[] = {OPCTS_DTYPE_FLOAT64, OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16,
                                    OPCTS_DTYPE_BFLOAT16};
constexpr uint32_t kIndexTypes[] = {OPCTS_DTYPE_INT32, OPCTS_DTYPE_INT64, OPCTS_DTYPE_UINT32,
                                    OPCTS_DTYPE_UINT64};

// Shapes for the rank sweep: every rank 1..8, at most 288 elements.
const std::vector<std::vector<uint32_t>> kShapes = {{7},
                                                    {5, 6},
                                                    {3, 4, 5},
                                                    {2, 3, 4, 3},
                                                    {3, 2, 2, 3, 2},
                                                    {2, 3, 2, 2, 3, 2},
                                                    {2, 2, 3, 2, 2, 2, 3},
                                                    {3, 2, 2, 2, 2, 3, 2, 2}};

// Backend instances shared by all tests (creating one compiles pipelines anew).
struct SharedInstance {
  std::unique_ptr<Plugin> plugin;
  int32_t status = OPCTS_STATUS_OK;
  std::string message;
};
std::map<std::string, SharedInstance>& Instances() {
  static std::map<std::string, SharedInstance> instances;
  return instances;
}
// Destroys the shared instances before exit: static destructors would run after the Vulkan
// layers' own, and vkDestroyInstance would call into destroyed layer state.
class SharedInstancesEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { Instances().clear(); }
};
const ::testing::Environment* const kSharedInstancesEnvironment =
    ::testing::AddGlobalTestEnvironment(new SharedInstancesEnvironment);

const SharedInstance& Shared(const std::string& options) {
  auto [it, inserted] = Instances().try_emplace(options);
  if (inserted)
    it->second.plugin = Plugin::Create(options, &it->second.status, &it->second.message);
  return it->second;
}

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const SharedInstance& shared = Shared(kOptions);
    if (shared.plugin == nullptr) {
      if (shared.status == OPCTS_STATUS_NOT_SUPPORTED) {
        GTEST_SKIP() << "NO VULKAN DEVICE - the vulkan backend is untested here: "
                     << shared.message;
      }
      FAIL() << "create(\"" << kOptions << "\") failed with status " << shared.status << ": "
             << shared.message;
    }
    plugin_ = shared.plugin.get();
  }

  // Every instance created so far must have had zero validation messages.
  void TearDown() override {
    for (const auto& [options, shared] : Instances()) {
      if (shared.plugin == nullptr) continue;
      EXPECT_EQ(shared.plugin->ValidationMessages(), 0)
          << "validation layer messages on \"" << options
          << "\": " << shared.plugin->Info().details;
    }
  }

  // The instance with subgroup arithmetic disabled: the shared-memory workgroup scans.
  const Plugin* SharedMemoryPlugin() {
    const SharedInstance& shared = Shared(kSharedMemoryOptions);
    EXPECT_NE(shared.plugin, nullptr) << shared.message;
    return shared.plugin.get();
  }

  bool Supports(uint32_t op_type, uint32_t data_type) const {
    const uint32_t sizes[1] = {4};
    opcts_tensor_desc t{data_type, 0, 1, sizes, nullptr, 64, 0};
    opcts_dml_cumulative_desc dml{&t, &t, 0, 0, 0};
    opcts_openvino_cumsum_desc ov{&t, nullptr, &t, 0, 0};
    opcts_op_desc op{op_type,
                     op_type == OPCTS_OP_OPENVINO_CUMSUM_3 ? static_cast<const void*>(&ov) : &dml};
    std::string message;
    return plugin_->Query(op, &message) == OPCTS_STATUS_OK;
  }

  const Plugin* plugin_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// Scans

enum class ScanOp { kDmlSum, kDmlProduct, kOpenVINO };
enum class Values {
  kIntegers,  // floats: small integers, so every order of accumulation is exact
  kSigns,     // floats: +1 / -1 (products stay exact over any length)
  kReals,     // floats: uniform in [-2, 2]; checked against the accuracy bound
  kNearOne,   // floats: uniform in [0.999, 1.001] (long products stay in range)
};

struct ScanCase {
  ScanOp op = ScanOp::kDmlSum;
  uint32_t data_type = OPCTS_DTYPE_FLOAT32;
  std::vector<uint32_t> sizes;
  uint32_t axis = 0;
  bool reverse = false;
  bool exclusive = false;
  Layout input_layout = Layout::kPacked;
  Layout output_layout = Layout::kPacked;
  bool in_place = false;
  Values values = Values::kIntegers;
  bool negative_axis = false;              // OpenVINO: pass axis - rank
  uint32_t axis_type = OPCTS_DTYPE_INT32;  // OpenVINO: INT32 or INT64

  std::string Name() const {
    std::ostringstream s;
    s << (op == ScanOp::kDmlSum       ? "cumsum"
          : op == ScanOp::kDmlProduct ? "cumprod"
                                      : "openvino")
      << "." << plugin::DTypeName(data_type) << ".sizes{";
    for (size_t d = 0; d < sizes.size(); ++d) s << (d ? "," : "") << sizes[d];
    s << "}.axis" << axis << (reverse ? ".reverse" : "") << (exclusive ? ".exclusive" : "") << ".in"
      << static_cast<int>(input_layout) << ".out" << static_cast<int>(output_layout)
      << (in_place ? ".inplace" : "") << ".values" << static_cast<int>(values);
    return s.str();
  }
  bool product() const { return op == ScanOp::kDmlProduct; }
};

uint64_t RandomElement(uint32_t data_type, Values values, std::mt19937_64& rng) {
  if (!IsFloat(data_type)) return rng();
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  std::uniform_real_distribution<double> near_one(0.999, 1.001);
  switch (values) {
    case Values::kIntegers:
      return EncodeFloat(data_type, static_cast<double>(rng() % 9) - 4.0);
    case Values::kSigns:
      return EncodeFloat(data_type, rng() % 2 ? 1.0 : -1.0);
    case Values::kReals:
      return EncodeFloat(data_type, real(rng));
    case Values::kNearOne:
      return EncodeFloat(data_type, near_one(rng));
  }
  return 0;
}

uint64_t Mask(uint32_t data_type) {
  const uint32_t bits = ElementBytes(data_type) * 8;
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// The unit roundoff of a float type.
double UnitRoundoff(uint32_t data_type) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64:
      return std::ldexp(1.0, -53);
    case OPCTS_DTYPE_FLOAT32:
      return std::ldexp(1.0, -24);
    case OPCTS_DTYPE_FLOAT16:
      return std::ldexp(1.0, -11);
    default:
      return std::ldexp(1.0, -8);
  }
}

// Checks one output element against the naive scan's value; "" when it matches.
std::string CheckScanElement(const ScanCase& c, uint64_t got, uint64_t int_expected,
                             long double exact, long double abs_sum, uint32_t terms) {
  const uint32_t t = c.data_type;
  if (!IsFloat(t)) {
    if ((got & Mask(t)) == (int_expected & Mask(t))) return "";
    std::ostringstream s;
    s << "got 0x" << std::hex << (got & Mask(t)) << ", expected 0x" << (int_expected & Mask(t));
    return s.str();
  }
  const double value = DecodeFloat(t, got);
  if (c.values != Values::kReals && c.values != Values::kNearOne) {
    // Exact accumulation, one rounding to the output type.
    const uint64_t expected = EncodeFloat(t, static_cast<double>(exact));
    if (got == expected) return "";
    std::ostringstream s;
    s << "got " << value << " (0x" << std::hex << got << "), expected " << std::dec
      << static_cast<double>(exact) << " (0x" << std::hex << expected << ")";
    return s.str();
  }
  // Accumulation at float32 precision or better (float64 for FLOAT64), one rounding to output.
  const double u_acc = t == OPCTS_DTYPE_FLOAT64 ? UnitRoundoff(t) : std::ldexp(1.0, -24);
  const double u_out = UnitRoundoff(t);
  const double tiny = t == OPCTS_DTYPE_FLOAT64 ? 1e-300 : 1e-30;
  const double bound =
      c.product() ? (terms * u_acc + u_out) * std::fabs(static_cast<double>(exact)) * 1.01 + tiny
                  : terms * u_acc * static_cast<double>(abs_sum) +
                        u_out * std::fabs(static_cast<double>(exact)) + tiny;
  const double error = std::fabs(value - static_cast<double>(exact));
  if (error <= bound) return "";
  std::ostringstream s;
  s << "got " << value << ", exact " << static_cast<double>(exact) << ", error " << error
    << " > bound " << bound;
  return s.str();
}

::testing::AssertionResult RunScan(const Plugin& plugin, const ScanCase& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t t = c.data_type;
  HostTensor input(t, c.sizes, c.input_layout, rng);
  for (uint64_t i = 0; i < input.element_count(); ++i)
    input.Set(i, RandomElement(t, c.values, rng));
  HostTensor separate_output(t, c.sizes, c.output_layout, rng);
  HostTensor& output = c.in_place ? input : separate_output;
  std::vector<uint64_t> x(input.element_count());
  for (uint64_t i = 0; i < x.size(); ++i) x[i] = input.Get(i);
  const std::vector<uint8_t> input_bytes = input.Bytes();

  const opcts_tensor_desc in_desc = input.desc();
  const opcts_tensor_desc out_desc = output.desc();
  const uint32_t rank = static_cast<uint32_t>(c.sizes.size());
  opcts_dml_cumulative_desc dml{
      &in_desc, &out_desc, c.axis,
      c.reverse ? OPCTS_AXIS_DIRECTION_DECREASING : OPCTS_AXIS_DIRECTION_INCREASING,
      c.exclusive ? 1u : 0u};
  const int64_t axis_value = c.negative_axis ? int64_t{c.axis} - rank : int64_t{c.axis};
  HostTensor axis = HostTensor::Scalar(c.axis_type, static_cast<uint64_t>(axis_value));
  const opcts_tensor_desc axis_desc = axis.desc();
  opcts_openvino_cumsum_desc ov{&in_desc, &axis_desc, &out_desc, c.exclusive ? 1u : 0u,
                                c.reverse ? 1u : 0u};
  opcts_op_desc op{};
  std::vector<opcts_binding> bindings;
  if (c.op == ScanOp::kOpenVINO) {
    op = {OPCTS_OP_OPENVINO_CUMSUM_3, &ov};
    bindings = {input.binding(), axis.binding(), output.binding()};
  } else {
    op = {c.product() ? OPCTS_OP_DML_CUMULATIVE_PRODUCT : OPCTS_OP_DML_CUMULATIVE_SUMMATION, &dml};
    bindings = {input.binding(), output.binding()};
  }
  std::string message;
  const int32_t status = plugin.Execute(op, bindings, &message);
  if (status != OPCTS_STATUS_OK) {
    return ::testing::AssertionFailure()
           << c.Name() << " seed " << seed << ": status " << status << ": " << message;
  }
  if (!input.GuardsIntact() || !output.GuardsIntact()) {
    return ::testing::AssertionFailure() << c.Name() << ": guard bytes overwritten";
  }
  if (!c.in_place && input.Bytes() != input_bytes) {
    return ::testing::AssertionFailure() << c.Name() << ": the input was modified";
  }

  // The naive loop: every line along the axis, in scan order.
  uint64_t inner = 1;
  for (uint32_t d = c.axis + 1; d < rank; ++d) inner *= c.sizes[d];
  const uint64_t len = c.sizes[c.axis];
  const uint64_t lines = x.size() / len;
  for (uint64_t line = 0; line < lines; ++line) {
    const uint64_t base = line / inner * len * inner + line % inner;
    uint64_t int_acc = c.product() ? 1 : 0;
    long double acc = c.product() ? 1 : 0;
    long double abs_sum = 0;
    for (uint64_t k = 0; k < len; ++k) {
      const uint64_t i = base + (c.reverse ? len - 1 - k : k) * inner;
      const uint64_t expected_int_before = int_acc;
      const long double before = acc;
      const long double abs_before = abs_sum;
      if (IsFloat(t)) {
        const long double v = DecodeFloat(t, x[i]);
        acc = c.product() ? acc * v : acc + v;
        abs_sum += std::fabs(v);
      } else {
        int_acc = c.product() ? int_acc * x[i] : int_acc + x[i];
      }
      const bool ex = c.exclusive;
      const std::string mismatch =
          CheckScanElement(c, output.Get(i), ex ? expected_int_before : int_acc, ex ? before : acc,
                           ex ? abs_before : abs_sum, static_cast<uint32_t>(ex ? k : k + 1));
      if (!mismatch.empty()) {
        return ::testing::AssertionFailure()
               << c.Name() << " seed " << seed << ": element " << i << " (line " << line
               << ", step " << k << "): " << mismatch;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<ScanCase> EveryRankAxisDirection(ScanOp op, uint32_t data_type) {
  std::vector<ScanCase> cases;
  for (const auto& sizes : kShapes) {
    for (uint32_t axis = 0; axis < sizes.size(); ++axis) {
      for (int variant = 0; variant < 4; ++variant) {
        ScanCase c;
        c.op = op;
        c.data_type = data_type;
        c.sizes = sizes;
        c.axis = axis;
        c.reverse = variant & 1;
        c.exclusive = variant & 2;
        c.negative_axis = op == ScanOp::kOpenVINO && (axis + variant) % 2 == 1;
        c.axis_type = variant < 2 ? OPCTS_DTYPE_INT32 : OPCTS_DTYPE_INT64;
        cases.push_back(c);
      }
    }
  }
  return cases;
}

void SweepEveryRankAxisDirection(const Plugin& plugin, ScanOp op, uint32_t data_type) {
  uint64_t seed = uint64_t{data_type} * 1000;
  for (const ScanCase& c : EveryRankAxisDirection(op, data_type)) {
    ASSERT_TRUE(RunScan(plugin, c, ++seed));
  }
}

TEST_F(VulkanTest, CumulativeSumEveryDTypeRankAxisDirection) {
  for (uint32_t t : kDmlTypes) {
    if (!Supports(OPCTS_OP_DML_CUMULATIVE_SUMMATION, t)) continue;
    SweepEveryRankAxisDirection(*plugin_, ScanOp::kDmlSum, t);
  }
}

TEST_F(VulkanTest, CumulativeProductEveryDTypeRankAxisDirection) {
  for (uint32_t t : kDmlTypes) {
    if (!Supports(OPCTS_OP_DML_CUMULATIVE_PRODUCT, t)) continue;
    SweepEveryRankAxisDirection(*plugin_, ScanOp::kDmlProduct, t);
  }
}

TEST_F(VulkanTest, OpenVINOCumSumEveryDTypeRankAxisDirection) {
  for (uint32_t t : kDmlTypes) {
    if (!Supports(OPCTS_OP_OPENVINO_CUMSUM_3, t)) continue;
    SweepEveryRankAxisDirection(*plugin_, ScanOp::kOpenVINO, t);
  }
  SweepEveryRankAxisDirection(*plugin_, ScanOp::kOpenVINO, OPCTS_DTYPE_BFLOAT16);
}

// Runs `c` for every op and every dtype the op takes (skipping what the device lacks).
void ForEveryOpAndDType(const Plugin& plugin, ScanCase c, uint64_t seed,
                        const std::function<bool(uint32_t, uint32_t)>& supports) {
  for (ScanOp op : {ScanOp::kDmlSum, ScanOp::kDmlProduct, ScanOp::kOpenVINO}) {
    const uint32_t op_type = op == ScanOp::kDmlSum       ? OPCTS_OP_DML_CUMULATIVE_SUMMATION
                             : op == ScanOp::kDmlProduct ? OPCTS_OP_DML_CUMULATIVE_PRODUCT
                                                         : OPCTS_OP_OPENVINO_CUMSUM_3;
    std::vector<uint32_t> types(std::begin(kDmlTypes), std::end(kDmlTypes));
    if (op == ScanOp::kOpenVINO) types.push_back(OPCTS_DTYPE_BFLOAT16);
    for (uint32_t t : types) {
      if (!supports(op_type, t)) continue;
      c.op = op;
      c.data_type = t;
      ASSERT_TRUE(RunScan(plugin, c, ++seed));
    }
  }
}

TEST_F(VulkanTest, StridedBroadcastAndPaddedLayouts) {
  auto supports = [&](uint32_t op, uint32_t t) { return Supports(op, t); };
  const std::pair<Layout, Layout> layouts[] = {{Layout::kPadded, Layout::kPacked},
                                               {Layout::kBroadcast, Layout::kPadded},
                                               {Layout::kPacked, Layout::kPadded}};
  uint64_t seed = 1;
  for (const auto& [in, out] : layouts) {
    for (uint32_t axis = 0; axis < 3; ++axis) {
      ScanCase c;
      c.sizes = {3, 4, 5};
      c.axis = axis;
      c.input_layout = in;
      c.output_layout = out;
      c.reverse = axis == 1;
      c.exclusive = axis == 2;
      ForEveryOpAndDType(*plugin_, c, seed += 100, supports);
    }
  }
}

TEST_F(VulkanTest, InPlaceReadsEveryInputBeforeWriting) {
  auto supports = [&](uint32_t op, uint32_t t) { return Supports(op, t); };
  uint64_t seed = 7;
  for (Layout layout : {Layout::kPacked, Layout::kPadded}) {
    for (uint32_t axis = 0; axis < 3; ++axis) {
      ScanCase c;
      c.sizes = {4, 3, 70};  // axis 2: innermost, the workgroup-scan path
      c.axis = axis;
      c.input_layout = c.output_layout = layout;
      c.in_place = true;
      c.exclusive = axis != 1;
      c.reverse = axis == 0;
      ForEveryOpAndDType(*plugin_, c, seed += 100, supports);
    }
  }
}

// Long lines: scan_blocks with several blocks per line (reduce, block-sum scan, downsweep).
// Sums of small integers and products of +-1 are exact in any order, so a lost or doubled
// carry shows as a wrong bit pattern, never hides inside a rounding bound.
void LongAxisSweep(const Plugin& plugin, const std::vector<uint32_t>& sizes, uint32_t axis,
                   const std::vector<uint32_t>& types,
                   const std::function<bool(uint32_t, uint32_t)>& supports) {
  uint64_t seed = 100;
  for (int variant = 0; variant < 4; ++variant) {
    ScanCase c;
    c.sizes = sizes;
    c.axis = axis;
    c.reverse = variant & 1;
    c.exclusive = variant & 2;
    for (uint32_t t : types) {
      c.data_type = t;
      c.op = ScanOp::kDmlSum;
      c.values = Values::kIntegers;
      if (supports(OPCTS_OP_DML_CUMULATIVE_SUMMATION, t)) {
        ASSERT_TRUE(RunScan(plugin, c, ++seed));
      }
      c.op = ScanOp::kDmlProduct;
      c.values = Values::kSigns;
      if (supports(OPCTS_OP_DML_CUMULATIVE_PRODUCT, t)) {
        ASSERT_TRUE(RunScan(plugin, c, ++seed));
      }
    }
  }
}

const std::vector<uint32_t> kAllDmlTypes(std::begin(kDmlTypes), std::end(kDmlTypes));
// One per accumulator (float32, float64, 32-bit and 64-bit words) plus the sub-word paths.
const std::vector<uint32_t> kRepresentativeTypes = {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16,
                                                    OPCTS_DTYPE_FLOAT64, OPCTS_DTYPE_INT8,
                                                    OPCTS_DTYPE_UINT32,  OPCTS_DTYPE_UINT64};

TEST_F(VulkanTest, LongInnermostAxisCarriesAcrossWorkgroups) {
  auto supports = [&](uint32_t op, uint32_t t) { return Supports(op, t); };
  LongAxisSweep(*plugin_, {2, 66000}, 1, kAllDmlTypes, supports);
  LongAxisSweep(*SharedMemoryPlugin(), {2, 66000}, 1, kRepresentativeTypes, supports);
  // More blocks per line than invocations per workgroup: the block sums are scanned in
  // several chunks, each carrying into the next.
  const std::vector<uint32_t> word_types = {OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_UINT64};
  LongAxisSweep(*plugin_, {1, 300000}, 1, word_types, supports);
  LongAxisSweep(*SharedMemoryPlugin(), {1, 300000}, 1, word_types, supports);
}

TEST_F(VulkanTest, MediumInnermostAxisInOneWorkgroup) {
  auto supports = [&](uint32_t op, uint32_t t) { return Supports(op, t); };
  LongAxisSweep(*plugin_, {5, 700}, 1, kAllDmlTypes, supports);
  LongAxisSweep(*SharedMemoryPlugin(), {5, 700}, 1, kAllDmlTypes, supports);
}

TEST_F(VulkanTest, LongOuterAxisWithFewLinesUsesWorkgroupScans) {
  auto supports = [&](uint32_t op, uint32_t t) { return Supports(op, t); };
  LongAxisSweep(*plugin_, {3, 5000, 2}, 1, kRepresentativeTypes, supports);
}

TEST_F(VulkanTest, FloatRoundingWithinAccuracyBound) {
  uint64_t seed = 500;
  for (uint32_t t : kFloatTypes) {
    if (!Supports(OPCTS_OP_OPENVINO_CUMSUM_3, t)) continue;
    for (bool exclusive : {false, true}) {
      ScanCase sum;
      sum.op = ScanOp::kOpenVINO;
      sum.data_type = t;
      sum.values = Values::kReals;
      sum.exclusive = exclusive;
      sum.sizes = {3, 20000};
      sum.axis = 1;
      ASSERT_TRUE(RunScan(*plugin_, sum, ++seed));
      sum.sizes = {300, 40};  // the serial line kernel
      sum.axis = 0;
      ASSERT_TRUE(RunScan(*plugin_, sum, ++seed));
      if (t == OPCTS_DTYPE_BFLOAT16) continue;
      ScanCase product = sum;
      product.op = ScanOp::kDmlProduct;
      product.values = Values::kNearOne;
      product.sizes = {2, 3000};
      product.axis = 1;
      ASSERT_TRUE(RunScan(*plugin_, product, ++seed));
    }
  }
}

// Runs a float scan of `values` (as bits) along a 1-D tensor: a DirectML cumulative operator,
// or OpenVINO CumSum-3 (axis 0 as a scalar tensor).
std::vector<uint64_t> Scan1D(const Plugin& plugin, uint32_t op_type, uint32_t data_type,
                             const std::vector<uint64_t>& values, bool exclusive = false) {
  std::mt19937_64 rng(1);
  const std::vector<uint32_t> sizes = {static_cast<uint32_t>(values.size())};
  HostTensor input(data_type, sizes, Layout::kPacked, rng);
  HostTensor output(data_type, sizes, Layout::kPacked, rng);
  HostTensor axis = HostTensor::Scalar(OPCTS_DTYPE_INT32, 0);
  for (size_t i = 0; i < values.size(); ++i) input.Set(i, values[i]);
  const opcts_tensor_desc in = input.desc(), out = output.desc(), axis_desc = axis.desc();
  const uint32_t exclusive_flag = exclusive ? 1u : 0u;
  opcts_dml_cumulative_desc dml{&in, &out, 0, 0, exclusive_flag};
  opcts_openvino_cumsum_desc ov{&in, &axis_desc, &out, exclusive_flag, 0};
  const bool openvino = op_type == OPCTS_OP_OPENVINO_CUMSUM_3;
  std::string message;
  const int32_t status =
      openvino ? plugin.Execute({op_type, &ov}, {input.binding(), axis.binding(), output.binding()},
                                &message)
               : plugin.Execute({op_type, &dml}, {input.binding(), output.binding()}, &message);
  EXPECT_EQ(status, OPCTS_STATUS_OK) << message;
  std::vector<uint64_t> result(values.size());
  for (size_t i = 0; i < values.size(); ++i) result[i] = output.Get(i);
  return result;
}

uint64_t F32(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

TEST_F(VulkanTest, IeeeSpecialsAndSignedZero) {
  const uint32_t sum = OPCTS_OP_DML_CUMULATIVE_SUMMATION;
  const uint32_t product = OPCTS_OP_DML_CUMULATIVE_PRODUCT;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // -0.0 sums to -0.0 (the scan must not start from +0.0); the empty exclusive sum is +0.0.
  EXPECT_EQ(Scan1D(*plugin_, sum, OPCTS_DTYPE_FLOAT32, {F32(-0.0f), F32(-0.0f)}),
            (std::vector<uint64_t>{F32(-0.0f), F32(-0.0f)}));
  EXPECT_EQ(Scan1D(*plugin_, sum, OPCTS_DTYPE_FLOAT32, {F32(-0.0f), F32(-0.0f)}, true),
            (std::vector<uint64_t>{F32(0.0f), F32(-0.0f)}));
  std::vector<uint64_t> r =
      Scan1D(*plugin_, sum, OPCTS_DTYPE_FLOAT32, {F32(inf), F32(1), F32(-inf), F32(1)});
  EXPECT_EQ(r[0], F32(inf));
  EXPECT_EQ(r[1], F32(inf));
  EXPECT_TRUE(std::isnan(DecodeFloat(OPCTS_DTYPE_FLOAT32, r[2])));
  EXPECT_TRUE(std::isnan(DecodeFloat(OPCTS_DTYPE_FLOAT32, r[3])));
  r = Scan1D(*plugin_, product, OPCTS_DTYPE_FLOAT32, {F32(nan), F32(2)});
  EXPECT_TRUE(std::isnan(DecodeFloat(OPCTS_DTYPE_FLOAT32, r[0])));
  EXPECT_TRUE(std::isnan(DecodeFloat(OPCTS_DTYPE_FLOAT32, r[1])));
  r = Scan1D(*plugin_, product, OPCTS_DTYPE_FLOAT32, {F32(-2), F32(0), F32(inf)});
  EXPECT_EQ(r[1], F32(-0.0f));
  EXPECT_TRUE(std::isnan(DecodeFloat(OPCTS_DTYPE_FLOAT32, r[2])));
  // float16 overflows to infinity only when the float32 sum is beyond float16's range.
  r = Scan1D(*plugin_, sum, OPCTS_DTYPE_FLOAT16,
             {EncodeFloat(OPCTS_DTYPE_FLOAT16, 60000), EncodeFloat(OPCTS_DTYPE_FLOAT16, 60000),
              EncodeFloat(OPCTS_DTYPE_FLOAT16, -60000)});
  EXPECT_EQ(r[0], EncodeFloat(OPCTS_DTYPE_FLOAT16, 60000));
  EXPECT_EQ(r[1], 0x7C00u);
  EXPECT_EQ(r[2], EncodeFloat(OPCTS_DTYPE_FLOAT16, 60000));
}

TEST_F(VulkanTest, SubnormalsAreKeptOrTheDetailsSaySo) {
  // float16 subnormals are float32 normals: exact whatever the device does with subnormals.
  EXPECT_EQ(Scan1D(*plugin_, OPCTS_OP_DML_CUMULATIVE_SUMMATION, OPCTS_DTYPE_FLOAT16,
                   {0x0001, 0x0001, 0x03FE, 0x8001}),
            (std::vector<uint64_t>{0x0001, 0x0002, 0x0400, 0x03FF}));
  // Products round into float16's subnormal range, ties to even: 1.5 -> 2, 2.5 -> 2, 0.75 -> 1
  // (in units of 2^-24).
  const uint64_t half = EncodeFloat(OPCTS_DTYPE_FLOAT16, 0.5);
  EXPECT_EQ(Scan1D(*plugin_, OPCTS_OP_DML_CUMULATIVE_PRODUCT, OPCTS_DTYPE_FLOAT16,
                   {0x0003, half, EncodeFloat(OPCTS_DTYPE_FLOAT16, 1.25)}),
            (std::vector<uint64_t>{0x0003, 0x0002, 0x0002}));
  EXPECT_EQ(Scan1D(*plugin_, OPCTS_OP_DML_CUMULATIVE_PRODUCT, OPCTS_DTYPE_FLOAT16,
                   {0x0001, EncodeFloat(OPCTS_DTYPE_FLOAT16, 0.75), 0x4000}),
            (std::vector<uint64_t>{0x0001, 0x0001, 0x0002}));
  const std::string details = plugin_->Info().details;
  std::cout << "[ details  ] " << details << "\n";
  const bool f32_preserved = details.find("float32 preserved") != std::string::npos;
  ASSERT_TRUE(f32_preserved || details.find("float32 flushed") != std::string::npos) << details;
  const uint64_t x = 0x00000003;  // 3 * 2^-149
  const std::vector<uint64_t> r =
      Scan1D(*plugin_, OPCTS_OP_DML_CUMULATIVE_SUMMATION, OPCTS_DTYPE_FLOAT32, {x, x, x});
  if (f32_preserved) {
    EXPECT_EQ(r, (std::vector<uint64_t>{3, 6, 9}));
  } else {
    EXPECT_EQ(r[2], 0u) << "details say float32 subnormals are flushed, yet one survived";
  }
}

// Where float32 arithmetic flushes subnormals (as on NVIDIA's driver; here the option makes the
// backend act so), the scans of specs that keep them compute in float64 and round once.
TEST_F(VulkanTest, ScansThatMustKeepSubnormalsComputeInFloat64WhereFloat32FlushesThem) {
  const SharedInstance& flushing = Shared("validation=1;disable=float32_subnormals");
  ASSERT_NE(flushing.plugin, nullptr) << flushing.message;
  const std::string details = flushing.plugin->Info().details;
  if (details.find("float64 scans=1") == std::string::npos)
    GTEST_SKIP() << "this device has no float64 arithmetic to compute in: " << details;
  EXPECT_NE(details.find("subnormal be flushed: computed in float64"), std::string::npos)
      << details;
  // 3, 3 and -7 units of 2^-149 (subnormal sums), then 1, 2^-24 twice, -1, FLT_MAX twice. In
  // float64 the sixth sum is 1 + 2^-23, a float32; float32 one step at a time gives 1 there
  // (1 + 2^-24 ties to even, twice), so the sum shows where the arithmetic ran.
  const std::vector<uint64_t> f32 = {0x00000003, 0x00000003, 0x80000007, 0x3F800000, 0x33800000,
                                     0x33800000, 0xBF800000, 0x7F7FFFFF, 0x7F7FFFFF};
  EXPECT_EQ(Scan1D(*flushing.plugin, OPCTS_OP_OPENVINO_CUMSUM_3, OPCTS_DTYPE_FLOAT32, f32),
            (std::vector<uint64_t>{0x00000003, 0x00000006, 0x80000001, 0x3F800000, 0x3F800000,
                                   0x3F800001, 0x34000000, 0x7F7FFFFF, 0x7F800000}));
  // DirectML's float32 may flush: it keeps the device's float32 arithmetic.
  EXPECT_EQ(
      Scan1D(*flushing.plugin, OPCTS_OP_DML_CUMULATIVE_SUMMATION, OPCTS_DTYPE_FLOAT32, f32)[5],
      0x3F800000u);
  // bfloat16: 1, 1 and -3 units of 2^-133, 1, then 2^-8 twice (1 + 2^-8 ties to even), -inf,
  // NaN.
  const std::vector<uint64_t> bf16 =
      Scan1D(*flushing.plugin, OPCTS_OP_OPENVINO_CUMSUM_3, OPCTS_DTYPE_BFLOAT16,
             {0x0001, 0x0001, 0x8003, 0x3F80, 0x3B80, 0x3B80, 0xFF80, 0x7FC0});
  EXPECT_EQ(std::vector<uint64_t>(bf16.begin(), bf16.begin() + 7),
            (std::vector<uint64_t>{0x0001, 0x0002, 0x8001, 0x3F80, 0x3F80, 0x3F81, 0xFF80}));
  EXPECT_TRUE(std::isnan(DecodeFloat(OPCTS_DTYPE_BFLOAT16, bf16[7])));

  // Without float64 too, those scans are refused, and so are the claims that need them.
  const SharedInstance& neither = Shared("validation=1;disable=float32_subnormals,float64");
  ASSERT_NE(neither.plugin, nullptr) << neither.message;
  EXPECT_STREQ(neither.plugin->Info().extra_support, "");
  const uint32_t sizes[1] = {4};
  opcts_tensor_desc t{OPCTS_DTYPE_FLOAT32, 0, 1, sizes, nullptr, 16, 0};
  opcts_openvino_cumsum_desc ov{&t, nullptr, &t, 0, 0};
  std::string message;
  EXPECT_EQ(neither.plugin->Query({OPCTS_OP_OPENVINO_CUMSUM_3, &ov}, &message),
            OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("keeps FLOAT32 subnormals"), std::string::npos) << message;
  opcts_dml_cumulative_desc dml{&t, &t, 0, 0, 0};
  EXPECT_EQ(neither.plugin->Query({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &dml}, &message),
            OPCTS_STATUS_OK)
      << message;
}

// ---------------------------------------------------------------------------------------------
// ScatterND

struct ScatterCase {
  uint32_t data_type = OPCTS_DTYPE_FLOAT32;
  uint32_t index_type = OPCTS_DTYPE_INT32;
  std::vector<uint32_t> input_sizes;
  uint32_t input_dimension_count = 0;  // 0: the rank
  uint32_t tuple = 1;                  // coordinates per index tuple
  uint32_t tuples = 5;
  Layout input_layout = Layout::kPacked;
  Layout output_layout = Layout::kPacked;
  Layout indices_layout = Layout::kPacked;
  Layout updates_layout = Layout::kPacked;
  bool in_place = false;
  bool awkward_indices = true;  // negative, duplicate and out-of-range tuples

  std::string Name() const {
    std::ostringstream s;
    s << "scatter." << plugin::DTypeName(data_type) << ".idx" << plugin::DTypeName(index_type)
      << ".sizes{";
    for (size_t d = 0; d < input_sizes.size(); ++d) s << (d ? "," : "") << input_sizes[d];
    s << "}.q" << tuple << ".n" << tuples << (in_place ? ".inplace" : "");
    return s.str();
  }
};

::testing::AssertionResult RunScatter(const Plugin& plugin, const ScatterCase& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t rank = static_cast<uint32_t>(c.input_sizes.size());
  const uint32_t idc = c.input_dimension_count == 0 ? rank : c.input_dimension_count;
  const uint32_t first_dim = rank - idc;
  // indices: {1.., tuples, q} (rank 1: {q}, one tuple); updates: {1.., tuples, slice dims..}.
  std::vector<uint32_t> index_sizes(rank, 1);
  index_sizes[rank - 1] = c.tuple;
  const uint32_t tuples = rank >= 2 ? c.tuples : 1;
  if (rank >= 2) index_sizes[rank - 2] = tuples;
  std::vector<uint32_t> slice_sizes(c.input_sizes.begin() + first_dim + c.tuple,
                                    c.input_sizes.end());
  std::vector<uint32_t> update_sizes = slice_sizes;
  if (rank >= 2) update_sizes.insert(update_sizes.begin(), tuples);
  while (update_sizes.size() < rank) update_sizes.insert(update_sizes.begin(), 1);
  uint64_t slice = 1;
  for (uint32_t s : slice_sizes) slice *= s;
  const uint32_t t = c.data_type;

  HostTensor input(t, c.input_sizes, c.input_layout, rng);
  for (uint64_t i = 0; i < input.element_count(); ++i) input.Set(i, rng());  // any bits: NaNs too
  HostTensor separate_output(t, c.input_sizes, c.output_layout, rng);
  HostTensor& output = c.in_place ? input : separate_output;
  HostTensor indices(c.index_type, index_sizes, c.indices_layout, rng);
  HostTensor updates(t, update_sizes, c.updates_layout, rng);
  for (uint64_t i = 0; i < updates.element_count(); ++i) updates.Set(i, rng());

  // Index values: mostly in range; with awkward_indices also negative (signed types),
  // out of range (both signs) and duplicates of the previous tuple.
  std::vector<std::vector<int64_t>> resolved(tuples);  // per tuple; empty when out of range
  for (uint32_t k = 0; k < tuples; ++k) {
    const uint32_t kind = c.awkward_indices ? static_cast<uint32_t>(rng() % 6) : 0;
    bool valid = true;
    std::vector<int64_t> coordinates(c.tuple);
    for (uint32_t j = 0; j < c.tuple; ++j) {
      const int64_t size = c.input_sizes[first_dim + j];
      int64_t value = static_cast<int64_t>(rng() % size);
      if (kind == 1 && IsSigned(c.index_type)) value -= size;  // negative, valid
      // Too large, on the last coordinate: a kernel accepting it would write another element
      // of the tensor (on the outermost dimension it would write past the end, unseen).
      if (kind == 2 && j == c.tuple - 1) value = size + static_cast<int64_t>(rng() % 3);
      if (kind == 3 && j == 0 && IsSigned(c.index_type)) value = -size - 1;  // too negative
      if (kind == 4 && k > 0)
        value =
            static_cast<int64_t>(indices.Get(uint64_t{k - 1} * c.tuple + j) & Mask(c.index_type));
      if (kind == 4 && k > 0 && IsSigned(c.index_type)) {
        // Sign-extend the copied bits.
        const uint32_t bits = ElementBytes(c.index_type) * 8;
        if (bits < 64 && (value >> (bits - 1)) & 1) value -= int64_t{1} << bits;
      }
      indices.Set(uint64_t{k} * c.tuple + j, static_cast<uint64_t>(value));
      const int64_t wrapped = value < 0 ? value + size : value;
      if (wrapped < 0 || wrapped >= size) valid = false;
      coordinates[j] = wrapped;
    }
    if (valid) resolved[k] = coordinates;
  }

  // Candidates per output element: the input, or any update aimed at it.
  std::vector<uint64_t> x(input.element_count());
  for (uint64_t i = 0; i < x.size(); ++i) x[i] = input.Get(i);
  std::vector<std::set<uint64_t>> candidates(x.size());
  std::vector<bool> targeted(x.size(), false);
  for (uint32_t k = 0; k < tuples; ++k) {
    if (resolved[k].empty()) continue;
    uint64_t base = 0;
    for (uint32_t j = 0; j < c.tuple; ++j) {
      base = base * c.input_sizes[first_dim + j] + static_cast<uint64_t>(resolved[k][j]);
    }
    for (uint64_t s = 0; s < slice; ++s) {
      const uint64_t target = base * slice + s;  // leading dims before first_dim are 1
      candidates[target].insert(updates.Get(uint64_t{k} * slice + s));
      targeted[target] = true;
    }
  }

  const opcts_tensor_desc in_desc = input.desc();
  const opcts_tensor_desc idx_desc = indices.desc();
  const opcts_tensor_desc upd_desc = updates.desc();
  const opcts_tensor_desc out_desc = output.desc();
  opcts_dml_scatter_nd_desc desc{&in_desc,  &idx_desc, &upd_desc,
                                 &out_desc, idc,       rank >= 2 ? 2u : 1u};
  const std::vector<uint8_t> input_bytes = input.Bytes();
  std::string message;
  const int32_t status = plugin.Execute(
      {OPCTS_OP_DML_SCATTER_ND, &desc},
      {input.binding(), indices.binding(), updates.binding(), output.binding()}, &message);
  if (status != OPCTS_STATUS_OK) {
    return ::testing::AssertionFailure()
           << c.Name() << " seed " << seed << ": status " << status << ": " << message;
  }
  for (const HostTensor* tensor : {&input, &indices, &updates, &output}) {
    if (!tensor->GuardsIntact()) {
      return ::testing::AssertionFailure() << c.Name() << ": guard bytes overwritten";
    }
  }
  if (!c.in_place && input.Bytes() != input_bytes) {
    return ::testing::AssertionFailure() << c.Name() << ": the input was modified";
  }
  for (uint64_t i = 0; i < x.size(); ++i) {
    const uint64_t got = output.Get(i);
    const bool ok = targeted[i] ? candidates[i].count(got) > 0 : got == x[i];
    if (!ok) {
      return ::testing::AssertionFailure()
             << c.Name() << " seed " << seed << ": element " << i << " is 0x" << std::hex << got
             << (targeted[i] ? ", not one of the updates aimed at it" : ", not the input's 0x")
             << (targeted[i] ? 0 : x[i]);
    }
  }
  return ::testing::AssertionSuccess();
}

TEST_F(VulkanTest, ScatterNDEveryDataAndIndexTypeAndRank) {
  uint64_t seed = 9000;
  for (uint32_t t : kDmlTypes) {
    for (uint32_t index_type : kIndexTypes) {
      for (const auto& sizes : kShapes) {
        ScatterCase c;
        c.data_type = t;
        c.index_type = index_type;
        c.input_sizes = sizes;
        c.tuple = std::min<uint32_t>(static_cast<uint32_t>(sizes.size()), 1 + seed % 3);
        c.tuples = 6;
        ASSERT_TRUE(RunScatter(*plugin_, c, ++seed));
      }
    }
  }
}

TEST_F(VulkanTest, ScatterNDDuplicateNegativeAndOutOfRangeIndicesStayInBounds) {
  uint64_t seed = 20000;
  for (uint32_t t :
       {OPCTS_DTYPE_INT8, OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_UINT32, OPCTS_DTYPE_FLOAT64}) {
    for (uint32_t index_type : kIndexTypes) {
      ScatterCase c;
      c.data_type = t;
      c.index_type = index_type;
      c.input_sizes = {4, 6, 5};
      c.tuple = 2;
      c.tuples = 200;  // far more tuples than targets: duplicates are certain
      ASSERT_TRUE(RunScatter(*plugin_, c, ++seed));
      c.tuple = 1;
      c.input_sizes = {1, 7, 3};
      c.input_dimension_count = 2;
      ASSERT_TRUE(RunScatter(*plugin_, c, ++seed));
    }
  }
}

TEST_F(VulkanTest, ScatterNDStridedAndInPlace) {
  uint64_t seed = 30000;
  for (uint32_t t : kDmlTypes) {
    ScatterCase c;
    c.data_type = t;
    c.index_type = t % 2 ? OPCTS_DTYPE_INT64 : OPCTS_DTYPE_INT32;
    c.input_sizes = {3, 4, 5};
    c.tuple = 2;
    c.tuples = 7;
    c.input_layout = Layout::kBroadcast;
    c.output_layout = Layout::kPadded;
    c.indices_layout = Layout::kPadded;
    c.updates_layout = Layout::kPadded;
    ASSERT_TRUE(RunScatter(*plugin_, c, ++seed));
    c.input_layout = c.output_layout = Layout::kPacked;
    c.in_place = true;
    ASSERT_TRUE(RunScatter(*plugin_, c, ++seed));
    c.input_layout = c.output_layout = Layout::kPadded;
    ASSERT_TRUE(RunScatter(*plugin_, c, ++seed));
  }
}

// In place with different views of the same memory: the input view must be read whole before
// the output view is written.
TEST_F(VulkanTest, ScatterNDInPlaceWithDifferentLayouts) {
  std::mt19937_64 rng(3);
  const std::vector<uint32_t> sizes = {2, 3};
  HostTensor shared(OPCTS_DTYPE_UINT16, sizes, Layout::kPadded, rng);
  const uint32_t in_strides[2] = {1, 2};  // column-major view of the same memory
  opcts_tensor_desc in_desc = shared.desc();
  in_desc.strides = in_strides;
  const opcts_tensor_desc out_desc = shared.desc();  // padded row-major
  std::vector<uint64_t> before(6);
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t col = 0; col < 3; ++col) {
      uint16_t v = 0;
      std::memcpy(&v, shared.data() + size_t{2} * (r * in_strides[0] + col * in_strides[1]), 2);
      before[r * 3 + col] = v;
    }
  }
  HostTensor indices(OPCTS_DTYPE_UINT32, {1, 2}, Layout::kPacked, rng);
  indices.Set(0, 1);
  indices.Set(1, 2);
  HostTensor updates(OPCTS_DTYPE_UINT16, {1, 1}, Layout::kPacked, rng);
  updates.Set(0, 0xBEEF);
  const opcts_tensor_desc idx_desc = indices.desc();
  const opcts_tensor_desc upd_desc = updates.desc();
  opcts_dml_scatter_nd_desc desc{&in_desc, &idx_desc, &upd_desc, &out_desc, 2, 2};
  std::string message;
  ASSERT_EQ(
      plugin_->Execute({OPCTS_OP_DML_SCATTER_ND, &desc},
                       {shared.binding(), indices.binding(), updates.binding(), shared.binding()},
                       &message),
      OPCTS_STATUS_OK)
      << message;
  for (uint64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(shared.Get(i), i == 5 ? 0xBEEFu : before[i]) << "element " << i;
  }
  EXPECT_TRUE(shared.GuardsIntact());
}

// ONNX ScatterND of {base, x} with `reduction`, every tuple on element 0, one update each:
// element 0 of the output (element 1 must stay x), or a test failure.
uint64_t ReduceIntoElement0(const Plugin& plugin, uint32_t dtype, uint32_t reduction, uint64_t base,
                            const std::vector<uint64_t>& updates) {
  std::mt19937_64 rng(7);
  const auto n = static_cast<uint32_t>(updates.size());
  HostTensor data(dtype, {2}, Layout::kPacked, rng), output(dtype, {2}, Layout::kPacked, rng);
  HostTensor indices(OPCTS_DTYPE_INT64, {n, 1}, Layout::kPacked, rng),
      update_tensor(dtype, {n}, Layout::kPacked, rng);
  data.Set(0, base);
  const uint64_t untouched = data.Get(1);
  for (uint32_t t = 0; t < n; ++t) {
    indices.Set(t, 0);
    update_tensor.Set(t, updates[t]);
  }
  const opcts_tensor_desc d = data.desc(), i = indices.desc(), u = update_tensor.desc(),
                          o = output.desc();
  const opcts_onnx_scatter_nd_desc desc{&d, &i, &u, &o, reduction};
  std::string message;
  const int32_t status = plugin.Execute(
      {OPCTS_OP_ONNX_SCATTER_ND, &desc},
      {data.binding(), indices.binding(), update_tensor.binding(), output.binding()}, &message);
  EXPECT_EQ(status, OPCTS_STATUS_OK) << message;
  EXPECT_EQ(output.Get(1), untouched) << "untouched element, dtype " << dtype;
  EXPECT_TRUE(output.GuardsIntact());
  return output.Get(0);
}

// Sixteen duplicate tuples on element 0. float16 add: 2048 + 16 x 1 is 2064 (0x6808)
// accumulated in float32 and rounded once (rounding after every update would stay at 2048,
// 0x6800). INT8 mul: 3^16 = 43046721 = 0x290D741, modulo 256 0x41. UINT64 add: 2^63 + 16 x 2^59 =
// 2^64, which wraps to 0 (a carry across the 32-bit words). float32 max with NaN updates: the NaN.
TEST_F(VulkanTest, ScatterReductionsOfDuplicatesInTupleOrder) {
  struct Case {
    uint32_t dtype, reduction;
    uint64_t base, update, want;
  };
  const Case cases[] = {
      {OPCTS_DTYPE_FLOAT16, OPCTS_SCATTER_REDUCTION_ADD, 0x6800, 0x3C00, 0x6808},
      {OPCTS_DTYPE_INT8, OPCTS_SCATTER_REDUCTION_MUL, 1, 3, 0x41},
      {OPCTS_DTYPE_UINT64, OPCTS_SCATTER_REDUCTION_ADD, 0x8000000000000000ull,
       0x0800000000000000ull, 0},
      {OPCTS_DTYPE_FLOAT32, OPCTS_SCATTER_REDUCTION_MAX, 0x3F800000, 0x7FC00000, 0x7FC00000},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ReduceIntoElement0(*plugin_, c.dtype, c.reduction, c.base,
                                 std::vector<uint64_t>(16, c.update)),
              c.want)
        << std::hex << "dtype " << c.dtype;
  }
}

// As the scans above: where float32 arithmetic flushes subnormals, ONNX ScatterND's float32 and
// bfloat16 reductions compute in float64 and round each result once (float32 add and mul give
// the float32 operation's own result, subnormals included; max and min keep an operand's bits).
TEST_F(VulkanTest, ScatterReductionsThatMustKeepSubnormalsComputeInFloat64WhereFloat32FlushesThem) {
  const SharedInstance& flushing = Shared("validation=1;disable=float32_subnormals");
  ASSERT_NE(flushing.plugin, nullptr) << flushing.message;
  const std::string details = flushing.plugin->Info().details;
  if (details.find("float64 scans=1") == std::string::npos)
    GTEST_SKIP() << "this device has no float64 arithmetic to compute in: " << details;
  const Plugin& p = *flushing.plugin;
  constexpr uint32_t kAdd = OPCTS_SCATTER_REDUCTION_ADD, kMul = OPCTS_SCATTER_REDUCTION_MUL,
                     kMax = OPCTS_SCATTER_REDUCTION_MAX, kMin = OPCTS_SCATTER_REDUCTION_MIN;
  // float32: 3 + 3 units of 2^-149; 2^-126 x 2^-1 (a subnormal product), 2^-149 x 0.5 (ties to
  // even: +0); +0 against the smallest subnormals.
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_FLOAT32, kAdd, 0x00000003, {0x00000003}),
            0x00000006u);
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_FLOAT32, kMul, 0x00800000, {0x3F000000}),
            0x00400000u);
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_FLOAT32, kMul, 0x00000001, {0x3F000000}), 0u);
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_FLOAT32, kMax, 0x00000000, {0x00000001}),
            0x00000001u);
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_FLOAT32, kMin, 0x00000000, {0x80000001}),
            0x80000001u);
  // bfloat16 accumulates: 1 + 2^-30 - 1 is 2^-30 (0x3080) in float64, 0 in float32 (1 + 2^-30
  // rounds to 1 there), so the sum shows where the arithmetic ran. Then subnormals: 1 + 1 units
  // of 2^-133; max of +0 and one unit.
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_BFLOAT16, kAdd, 0x3F80, {0x3080, 0xBF80}), 0x3080u);
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_BFLOAT16, kAdd, 0x0001, {0x0001}), 0x0002u);
  EXPECT_EQ(ReduceIntoElement0(p, OPCTS_DTYPE_BFLOAT16, kMax, 0x0000, {0x0001}), 0x0001u);

  // Without float64 too, those reductions are refused; plain writes are not.
  const SharedInstance& neither = Shared("validation=1;disable=float32_subnormals,float64");
  ASSERT_NE(neither.plugin, nullptr) << neither.message;
  const uint32_t sizes[1] = {4}, index_sizes[2] = {1, 1}, update_sizes[1] = {1};
  const opcts_tensor_desc t{OPCTS_DTYPE_FLOAT32, 0, 1, sizes, nullptr, 16, 0};
  const opcts_tensor_desc i{OPCTS_DTYPE_INT64, 0, 2, index_sizes, nullptr, 8, 0};
  const opcts_tensor_desc u{OPCTS_DTYPE_FLOAT32, 0, 1, update_sizes, nullptr, 4, 0};
  opcts_onnx_scatter_nd_desc desc{&t, &i, &u, &t, kAdd};
  std::string message;
  EXPECT_EQ(neither.plugin->Query({OPCTS_OP_ONNX_SCATTER_ND, &desc}, &message),
            OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("keeps FLOAT32 subnormals"), std::string::npos) << message;
  desc.reduction = OPCTS_SCATTER_REDUCTION_NONE;
  EXPECT_EQ(neither.plugin->Query({OPCTS_OP_ONNX_SCATTER_ND, &desc}, &message), OPCTS_STATUS_OK)
      << message;
}

// ---------------------------------------------------------------------------------------------
// Claims, errors, resources

TEST_F(VulkanTest, ReportsDeviceAndClaimsWhatTheFeaturesAllow) {
  const opcts_backend_info info = plugin_->Info();
  EXPECT_STREQ(info.name, "vulkan");
  EXPECT_GT(std::strlen(info.device), 0u);
  const std::string details = info.details;
  std::cout << "[ device   ] " << info.device << "\n[ level    ] 0x" << std::hex
            << info.feature_level << std::dec << " extra: \"" << info.extra_support << "\"\n";
  const bool int64 = details.find("int64 scans=1") != std::string::npos;
  const bool float64 = details.find("float64 scans=1") != std::string::npos;
  EXPECT_EQ(info.feature_level, int64 ? OPCTS_FEATURE_LEVEL(5, 0) : OPCTS_FEATURE_LEVEL(4, 1));
  // Every scheme's first level lists FLOAT64 and INT64 (a claim of some level per scheme).
  EXPECT_EQ(opcts::claims::ClaimedSchemes(info.extra_support),
            int64 && float64 ? opcts::claims::ExtraSchemes() : std::set<std::string>{})
      << info.extra_support;
  EXPECT_EQ(Supports(OPCTS_OP_DML_CUMULATIVE_SUMMATION, OPCTS_DTYPE_INT64), int64);
  EXPECT_EQ(Supports(OPCTS_OP_OPENVINO_CUMSUM_3, OPCTS_DTYPE_FLOAT64), float64);
}

TEST_F(VulkanTest, MissingFeaturesAreNotSupportedAndLowerTheLevel) {
  const SharedInstance& reduced = Shared("validation=1;disable=int64,float64");
  ASSERT_NE(reduced.plugin, nullptr) << reduced.message;
  const opcts_backend_info info = reduced.plugin->Info();
  EXPECT_EQ(info.feature_level, OPCTS_FEATURE_LEVEL(4, 1));
  EXPECT_STREQ(info.extra_support, "");
  const uint32_t sizes[1] = {4};
  opcts_tensor_desc t{OPCTS_DTYPE_INT64, 0, 1, sizes, nullptr, 32, 0};
  opcts_dml_cumulative_desc desc{&t, &t, 0, 0, 0};
  std::string message;
  EXPECT_EQ(reduced.plugin->Query({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc}, &message),
            OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("shaderInt64"), std::string::npos) << message;
  t.data_type = OPCTS_DTYPE_FLOAT64;
  EXPECT_EQ(reduced.plugin->Query({OPCTS_OP_DML_CUMULATIVE_PRODUCT, &desc}, &message),
            OPCTS_STATUS_NOT_SUPPORTED);
  // Data movement needs no feature: ScatterND still moves 64-bit elements.
  ScatterCase c;
  c.data_type = OPCTS_DTYPE_INT64;
  c.index_type = OPCTS_DTYPE_INT64;
  c.input_sizes = {4, 5};
  ASSERT_TRUE(RunScatter(*reduced.plugin, c, 77));
}

TEST_F(VulkanTest, BadInputIsAStatusNeverACrash) {
  std::mt19937_64 rng(5);
  HostTensor a(OPCTS_DTYPE_FLOAT32, {4, 5}, Layout::kPacked, rng);
  const opcts_tensor_desc d = a.desc();
  std::string message;
  opcts_dml_cumulative_desc bad_axis{&d, &d, 2, 0, 0};
  EXPECT_EQ(plugin_->Query({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &bad_axis}, &message),
            OPCTS_STATUS_INVALID);
  opcts_dml_cumulative_desc ok{&d, &d, 1, 0, 0};
  EXPECT_EQ(plugin_->Execute({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &ok}, {a.binding()}, &message),
            OPCTS_STATUS_INVALID);
  // OpenVINO's axis is data: out of range is INVALID at execute.
  HostTensor axis = HostTensor::Scalar(OPCTS_DTYPE_INT32, 5);
  const opcts_tensor_desc axis_desc = axis.desc();
  opcts_openvino_cumsum_desc ov{&d, &axis_desc, &d, 0, 0};
  EXPECT_EQ(plugin_->Execute({OPCTS_OP_OPENVINO_CUMSUM_3, &ov},
                             {a.binding(), axis.binding(), a.binding()}, &message),
            OPCTS_STATUS_INVALID);
  // A tensor beyond maxStorageBufferRange is NOT_SUPPORTED, and the message gives the limit.
  const std::string details = plugin_->Info().details;
  const size_t at = details.find("maxStorageBufferRange=");
  ASSERT_NE(at, std::string::npos);
  const uint64_t limit = std::strtoull(details.c_str() + at + 22, nullptr, 10);
  const uint32_t huge_sizes[1] = {
      static_cast<uint32_t>(std::min<uint64_t>(limit / 4 + 1, 1u << 30))};
  opcts_tensor_desc huge{OPCTS_DTYPE_FLOAT32,         0, 1, huge_sizes, nullptr,
                         uint64_t{huge_sizes[0]} * 4, 0};
  opcts_dml_cumulative_desc huge_desc{&huge, &huge, 0, 0, 0};
  EXPECT_EQ(plugin_->Query({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &huge_desc}, &message),
            OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("maxStorageBufferRange"), std::string::npos) << message;
}

TEST_F(VulkanTest, OptionsAndDeviceSelectionErrors) {
  int32_t status = 0;
  std::string message;
  EXPECT_EQ(Plugin::Create("colour=blue", &status, &message), nullptr);
  EXPECT_EQ(status, OPCTS_STATUS_INVALID);
  EXPECT_NE(message.find("colour"), std::string::npos) << message;
  EXPECT_EQ(Plugin::Create("device=no-such-gpu-anywhere", &status, &message), nullptr);
  EXPECT_EQ(status, OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("no-such-gpu-anywhere"), std::string::npos) << message;
  EXPECT_EQ(Plugin::Create("device=99", &status, &message), nullptr);
  EXPECT_EQ(status, OPCTS_STATUS_NOT_SUPPORTED);
  // By index and by name: the device the default instance picked.
  const std::string name = plugin_->Info().device;
  std::unique_ptr<Plugin> by_name =
      Plugin::Create("device=" + name.substr(0, 4), &status, &message);
  EXPECT_NE(by_name, nullptr) << message;
}

TEST_F(VulkanTest, NoDriverMeansNotSupportedWithAClearMessage) {
  const char* saved_icd = std::getenv("VK_ICD_FILENAMES");
  const char* saved_driver = std::getenv("VK_DRIVER_FILES");
  const std::string icd = saved_icd ? saved_icd : "";
  const std::string driver = saved_driver ? saved_driver : "";
  setenv("VK_ICD_FILENAMES", "/nonexistent/opcts_icd.json", 1);
  setenv("VK_DRIVER_FILES", "/nonexistent/opcts_icd.json", 1);
  int32_t status = 0;
  std::string message;
  std::unique_ptr<Plugin> none = Plugin::Create("", &status, &message);
  saved_icd ? setenv("VK_ICD_FILENAMES", icd.c_str(), 1) : unsetenv("VK_ICD_FILENAMES");
  saved_driver ? setenv("VK_DRIVER_FILES", driver.c_str(), 1) : unsetenv("VK_DRIVER_FILES");
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(status, OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message.find("no Vulkan device with a compute queue found"), std::string::npos)
      << message;
}

TEST_F(VulkanTest, NoLeaksOverThousandsOfExecutes) {
  std::mt19937_64 rng(11);
  HostTensor a(OPCTS_DTYPE_FLOAT16, {16, 33}, Layout::kPadded, rng);
  HostTensor b(OPCTS_DTYPE_FLOAT16, {16, 33}, Layout::kPacked, rng);
  HostTensor indices(OPCTS_DTYPE_INT32, {2, 1}, Layout::kPacked, rng);
  indices.Set(0, 3);
  indices.Set(1, static_cast<uint64_t>(-1));
  HostTensor updates(OPCTS_DTYPE_FLOAT16, {2, 33}, Layout::kPacked, rng);
  const opcts_tensor_desc da = a.desc();
  const opcts_tensor_desc db = b.desc();
  const opcts_tensor_desc di = indices.desc();
  const opcts_tensor_desc du = updates.desc();
  opcts_dml_cumulative_desc scan{&da, &db, 1, 0, 1};
  opcts_dml_scatter_nd_desc scatter{&da, &di, &du, &db, 2, 2};
  // Warm-up creates every pipeline and buffer the loop needs. After it, a leak grows RSS in
  // every window of executes, while heap placement only moves it in occasional steps: so at
  // least one window must be flat.
  constexpr int kWarmup = 500;
  constexpr int kWindow = 500;
  constexpr int kWindows = 12;
  std::vector<long> rss;
  std::string message;
  for (int i = 0; i < kWarmup + kWindow * kWindows; ++i) {
    if (i >= kWarmup && (i - kWarmup) % kWindow == 0) rss.push_back(ResidentKiB());
    scan.axis = i % 2;
    const int32_t status =
        i % 3 == 0 ? plugin_->Execute(
                         {OPCTS_OP_DML_SCATTER_ND, &scatter},
                         {a.binding(), indices.binding(), updates.binding(), b.binding()}, &message)
                   : plugin_->Execute({OPCTS_OP_DML_CUMULATIVE_SUMMATION, &scan},
                                      {a.binding(), b.binding()}, &message);
    ASSERT_EQ(status, OPCTS_STATUS_OK) << message;
  }
  rss.push_back(ResidentKiB());
  long flattest = std::numeric_limits<long>::max();
  std::ostringstream windows;
  for (size_t w = 1; w < rss.size(); ++w) {
    flattest = std::min(flattest, rss[w] - rss[w - 1]);
    windows << (w > 1 ? " " : "") << rss[w] - rss[w - 1];
  }
  std::cout << "[ rss      ] " << kWindow * kWindows << " executes after warm-up: RSS "
            << rss.front() << " KiB -> " << rss.back() << " KiB; growth per " << kWindow
            << "-execute window (KiB): " << windows.str() << "\n";
  RecordProperty("rss_growth_kib", std::to_string(rss.back() - rss.front()));
  EXPECT_LE(flattest, 0) << "RSS grew in every window (KiB): " << windows.str();
}

}  // namespace
}  // namespace opcts::vulkan_test
