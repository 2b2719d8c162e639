// cpu-reference seen as the harness sees it: the built module, loaded with dlopen, driven only
// through the C ABI. Expected values come from the operator documents (../shared/seeds), never
// from the oracle. Every buffer sits between guard bytes that must survive each call.
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/claims_testing.h"
#include "opcts/backend.h"
#include "opcts/version.h"

namespace {

constexpr size_t kGuard = 64;  // keeps the data 16-byte aligned, as the harness promises
constexpr uint8_t kGuardByte = 0xA5;
constexpr uint8_t kFillByte = 0xCD;  // pre-fills outputs so an unwritten element shows

template <typename T>
constexpr uint32_t DTypeOf() {
  if constexpr (std::is_same_v<T, float>) return OPCTS_DTYPE_FLOAT32;
  if constexpr (std::is_same_v<T, uint16_t>) return OPCTS_DTYPE_FLOAT16;  // raw binary16 bits
  if constexpr (std::is_same_v<T, uint8_t>) return OPCTS_DTYPE_UINT8;
  if constexpr (std::is_same_v<T, uint32_t>) return OPCTS_DTYPE_UINT32;
  if constexpr (std::is_same_v<T, int32_t>) return OPCTS_DTYPE_INT32;
  if constexpr (std::is_same_v<T, int64_t>) return OPCTS_DTYPE_INT64;
}

// One tensor of element type T in a guarded buffer. Sizes/strides in elements; no strides =
// packed. TotalTensorSizeInBytes is the documented implied minimum.
template <typename T>
class Tensor {
 public:
  explicit Tensor(std::vector<uint32_t> sizes, const std::vector<T>& values = {},
                  std::vector<uint32_t> strides = {})
      : sizes_(std::move(sizes)), strides_(std::move(strides)) {
    uint64_t packed = 1, last = 0;
    for (size_t d = sizes_.size(); d-- > 0;) {
      walk_.insert(walk_.begin(), strides_.empty() ? static_cast<uint32_t>(packed) : strides_[d]);
      last += uint64_t{sizes_[d] - 1} * walk_.front();
      packed *= sizes_[d];
    }
    count_ = packed;
    total_ = ((last + 1) * sizeof(T) + 3) / 4 * 4;
    buffer_.assign(kGuard + total_ + kGuard, kGuardByte);
    std::memset(data(), kFillByte, total_);
    for (size_t i = 0; i < values.size(); ++i) Set(i, values[i]);
  }

  opcts_tensor_desc Desc() const {
    return {DTypeOf<T>(),
            0,
            static_cast<uint32_t>(sizes_.size()),
            sizes_.data(),
            strides_.empty() ? nullptr : strides_.data(),
            total_,
            0};
  }
  opcts_binding Binding() { return {data(), total_}; }
  uint8_t* data() { return buffer_.data() + kGuard; }

  void Set(uint64_t logical, T v) { std::memcpy(data() + Offset(logical), &v, sizeof(T)); }
  T Get(uint64_t logical) const {
    T v;
    std::memcpy(&v, buffer_.data() + kGuard + Offset(logical), sizeof(T));
    return v;
  }
  std::vector<T> Values() const {
    std::vector<T> v;
    for (uint64_t i = 0; i < count_; ++i) v.push_back(Get(i));
    return v;
  }
  bool GuardsIntact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (buffer_[i] != kGuardByte || buffer_[kGuard + total_ + i] != kGuardByte) return false;
    return true;
  }
  uint64_t total() const { return total_; }

 private:
  uint64_t Offset(uint64_t logical) const {
    uint64_t index = 0;
    for (size_t d = sizes_.size(); d-- > 0;) {
      index += logical % sizes_[d] * walk_[d];
      logical /= sizes_[d];
    }
    return index * sizeof(T);
  }

  std::vector<uint32_t> sizes_, strides_, walk_;
  uint64_t count_ = 0, total_ = 0;
  std::vector<uint8_t> buffer_;
};

struct Outcome {
  int32_t status;
  std::string message;
};

class CpuReference : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    handle_ = dlopen(OPCTS_CPU_REFERENCE_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    auto entry =
        reinterpret_cast<opcts_backend_entry_fn>(dlsym(handle_, OPCTS_BACKEND_ENTRY_SYMBOL));
    ASSERT_NE(entry, nullptr) << dlerror();
    api_ = entry();
  }
  static void TearDownTestSuite() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  void SetUp() override {
    ASSERT_NE(api_, nullptr);
    ASSERT_EQ(api_->abi_version, OPCTS_ABI_VERSION);
    char message[256] = "";
    ASSERT_EQ(api_->create("", &instance_, message, sizeof message), OPCTS_STATUS_OK) << message;
  }
  void TearDown() override {
    if (instance_ != nullptr) api_->destroy(instance_);
  }

  Outcome Query(uint32_t type, const void* desc) {
    const opcts_op_desc op{type, desc};
    char message[512] = "";
    const int32_t status = api_->query(instance_, &op, message, sizeof message);
    return {status, message};
  }
  Outcome Execute(uint32_t type, const void* desc, const std::vector<opcts_binding>& bindings) {
    const opcts_op_desc op{type, desc};
    char message[512] = "";
    const int32_t status =
        api_->execute(instance_, &op, bindings.data(), static_cast<uint32_t>(bindings.size()),
                      message, sizeof message);
    return {status, message};
  }

  // Cumulative sum/product of `input` into `output` (which may be the same tensor).
  template <typename T>
  Outcome Cumulative(uint32_t type, Tensor<T>& input, Tensor<T>& output, uint32_t axis,
                     uint32_t direction, uint32_t exclusive) {
    const opcts_tensor_desc in = input.Desc(), out = output.Desc();
    const opcts_dml_cumulative_desc desc{&in, &out, axis, direction, exclusive};
    Outcome outcome = Execute(type, &desc, {input.Binding(), output.Binding()});
    EXPECT_TRUE(input.GuardsIntact());
    EXPECT_TRUE(output.GuardsIntact());
    return outcome;
  }

  inline static void* handle_ = nullptr;
  inline static const opcts_backend_api* api_ = nullptr;
  void* instance_ = nullptr;
};

// The input every DirectML cumulative example uses: Sizes {1,1,3,4}, FLOAT32.
const std::vector<float> kDocumentInput = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};

struct DocumentExample {
  uint32_t axis, direction, exclusive;
  std::vector<float> expected;
};

TEST_F(CpuReference, InfoDescribesTheOracle) {
  opcts_backend_info info{};
  ASSERT_EQ(api_->get_info(instance_, &info), OPCTS_STATUS_OK);
  EXPECT_STREQ(info.name, "cpu-reference");
  EXPECT_STREQ(info.version, OPCTS_VERSION_STRING);
  EXPECT_STREQ(info.device, "scalar CPU (the opcts oracle)");
  EXPECT_EQ(info.feature_level, OPCTS_FEATURE_LEVEL(5, 0));
  EXPECT_EQ(info.extra_support, opcts::claims::EveryExtraLevel());
  EXPECT_STREQ(info.details, "");
}

TEST_F(CpuReference, CreateRejectsUnknownOptions) {
  void* other = nullptr;
  char message[128] = "";
  EXPECT_EQ(api_->create("device=1", &other, message, sizeof message), OPCTS_STATUS_INVALID);
  EXPECT_NE(std::string(message).find("device=1"), std::string::npos) << message;
  EXPECT_EQ(other, nullptr);
}

TEST_F(CpuReference, CumulativeSummationDocumentExamples) {
  const std::vector<DocumentExample> examples = {
      {3, OPCTS_AXIS_DIRECTION_INCREASING, 0, {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21}},
      {3, OPCTS_AXIS_DIRECTION_INCREASING, 1, {0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17}},
      {3, OPCTS_AXIS_DIRECTION_DECREASING, 0, {11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4}},
      {2, OPCTS_AXIS_DIRECTION_INCREASING, 0, {2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12}},
  };
  for (size_t i = 0; i < examples.size(); ++i) {
    SCOPED_TRACE("example " + std::to_string(i + 1));
    const DocumentExample& e = examples[i];
    Tensor<float> input({1, 1, 3, 4}, kDocumentInput), output({1, 1, 3, 4});
    const Outcome r = Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, e.axis,
                                 e.direction, e.exclusive);
    ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
    EXPECT_EQ(output.Values(), e.expected);
    EXPECT_EQ(input.Values(), kDocumentInput);
  }
}

TEST_F(CpuReference, CumulativeProductDocumentExamples) {
  const std::vector<DocumentExample> examples = {
      {3, OPCTS_AXIS_DIRECTION_INCREASING, 0, {2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432}},
      {3, OPCTS_AXIS_DIRECTION_INCREASING, 1, {1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108}},
      {3, OPCTS_AXIS_DIRECTION_DECREASING, 0, {30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4}},
      {2, OPCTS_AXIS_DIRECTION_INCREASING, 0, {2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60}},
  };
  for (size_t i = 0; i < examples.size(); ++i) {
    SCOPED_TRACE("example " + std::to_string(i + 1));
    const DocumentExample& e = examples[i];
    Tensor<float> input({1, 1, 3, 4}, kDocumentInput), output({1, 1, 3, 4});
    const Outcome r = Cumulative(OPCTS_OP_DML_CUMULATIVE_PRODUCT, input, output, e.axis,
                                 e.direction, e.exclusive);
    ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
    EXPECT_EQ(output.Values(), e.expected);
  }
}

TEST_F(CpuReference, OpenVINOCumSumDocumentExamples) {
  struct Example {
    uint32_t exclusive, reverse;
    std::vector<float> expected;
  };
  const std::vector<Example> examples = {
      {0, 0, {1, 3, 6, 10, 15}},
      {1, 0, {0, 1, 3, 6, 10}},
      {0, 1, {15, 14, 12, 9, 5}},
      {1, 1, {14, 12, 9, 5, 0}},
  };
  for (size_t i = 0; i < examples.size(); ++i) {
    SCOPED_TRACE("example " + std::to_string(i + 1));
    const Example& e = examples[i];
    Tensor<float> data({5}, {1, 2, 3, 4, 5}), output({5});
    int64_t axis_value = 0;
    const opcts_tensor_desc data_desc = data.Desc(), output_desc = output.Desc();
    const opcts_tensor_desc axis_desc{OPCTS_DTYPE_INT64, 0, 0, nullptr, nullptr, 8, 0};
    const opcts_openvino_cumsum_desc desc{&data_desc, &axis_desc, &output_desc, e.exclusive,
                                          e.reverse};
    const Outcome r = Execute(OPCTS_OP_OPENVINO_CUMSUM_3, &desc,
                              {data.Binding(), {&axis_value, 8}, output.Binding()});
    ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
    EXPECT_EQ(output.Values(), e.expected);
    EXPECT_TRUE(output.GuardsIntact());
  }
}

TEST_F(CpuReference, OpenVINOAbsentAxisMeansZero) {
  Tensor<int32_t> data({2, 2}, {1, 2, 3, 4}), output({2, 2});
  const opcts_tensor_desc data_desc = data.Desc(), output_desc = output.Desc();
  const opcts_openvino_cumsum_desc desc{&data_desc, nullptr, &output_desc, 0, 0};
  const Outcome r =
      Execute(OPCTS_OP_OPENVINO_CUMSUM_3, &desc, {data.Binding(), {nullptr, 0}, output.Binding()});
  ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
  EXPECT_EQ(output.Values(), (std::vector<int32_t>{1, 2, 4, 6}));
}

// The document's example with the defects fixed: rank-4 tensors and UINT32 indices.
TEST_F(CpuReference, ScatterNDCorrectedDocumentExample) {
  Tensor<float> input({1, 1, 1, 8}, {1, 2, 3, 4, 5, 6, 7, 8}), output({1, 1, 1, 8});
  Tensor<uint32_t> indices({1, 1, 4, 1}, {4, 3, 1, 7});
  Tensor<float> updates({1, 1, 1, 4}, {9, 10, 11, 12});
  const opcts_tensor_desc in = input.Desc(), idx = indices.Desc(), upd = updates.Desc(),
                          out = output.Desc();
  const opcts_dml_scatter_nd_desc desc{&in, &idx, &upd, &out, 1, 2};
  ASSERT_EQ(Query(OPCTS_OP_DML_SCATTER_ND, &desc).status, OPCTS_STATUS_OK);
  const Outcome r =
      Execute(OPCTS_OP_DML_SCATTER_ND, &desc,
              {input.Binding(), indices.Binding(), updates.Binding(), output.Binding()});
  ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
  EXPECT_EQ(output.Values(), (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));
  EXPECT_TRUE(output.GuardsIntact());
}

TEST_F(CpuReference, ScatterNDDuplicateIndicesWriteOneCandidate) {
  Tensor<int32_t> input({1, 4}, {1, 2, 3, 4}), output({1, 4});
  Tensor<int64_t> indices({2, 1}, {1, -3});  // -3 counts from the end: the same element 1
  Tensor<int32_t> updates({1, 2}, {50, 70});
  const opcts_tensor_desc in = input.Desc(), idx = indices.Desc(), upd = updates.Desc(),
                          out = output.Desc();
  const opcts_dml_scatter_nd_desc desc{&in, &idx, &upd, &out, 1, 2};
  const Outcome r =
      Execute(OPCTS_OP_DML_SCATTER_ND, &desc,
              {input.Binding(), indices.Binding(), updates.Binding(), output.Binding()});
  ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
  EXPECT_EQ(output.Get(0), 1);
  EXPECT_TRUE(output.Get(1) == 50 || output.Get(1) == 70) << output.Get(1);
  EXPECT_EQ(output.Get(2), 3);
  EXPECT_EQ(output.Get(3), 4);
}

TEST_F(CpuReference, AxisEqualToRankIsInvalidAtQuery) {
  const std::vector<uint32_t> sizes = {1, 1, 3, 4};
  const opcts_tensor_desc t{OPCTS_DTYPE_FLOAT32, 0, 4, sizes.data(), nullptr, 48, 0};
  const opcts_dml_cumulative_desc desc{&t, &t, 4, OPCTS_AXIS_DIRECTION_INCREASING, 0};
  const Outcome r = Query(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc);
  EXPECT_EQ(r.status, OPCTS_STATUS_INVALID);
  EXPECT_NE(r.message.find("Axis"), std::string::npos) << r.message;
}

TEST_F(CpuReference, QuerySupportsEveryDTypeAndRank) {
  const std::vector<uint32_t> sizes(8, 2);
  for (uint32_t dtype = OPCTS_DTYPE_FLOAT32; dtype <= OPCTS_DTYPE_BFLOAT16; ++dtype) {
    for (uint32_t rank : {1u, 8u}) {
      // 2^rank elements of at most 8 bytes.
      const opcts_tensor_desc t{dtype, 0, rank, sizes.data(), nullptr, (uint64_t{8} << rank), 0};
      const opcts_dml_cumulative_desc desc{&t, &t, rank - 1, OPCTS_AXIS_DIRECTION_DECREASING, 1};
      const Outcome r = Query(OPCTS_OP_DML_CUMULATIVE_PRODUCT, &desc);
      EXPECT_EQ(r.status, OPCTS_STATUS_OK)
          << "dtype " << dtype << " rank " << rank << ": " << r.message;
    }
  }
}

TEST_F(CpuReference, NullAndMalformedCallsAreRejected) {
  char message[128] = "";
  EXPECT_EQ(api_->query(instance_, nullptr, message, sizeof message), OPCTS_STATUS_INVALID);
  EXPECT_EQ(Query(99, nullptr).status, OPCTS_STATUS_INVALID);
  Tensor<float> input({4}, {1, 2, 3, 4}), output({4});
  const opcts_tensor_desc in = input.Desc(), out = output.Desc();
  const opcts_dml_cumulative_desc desc{&in, &out, 0, 0, 0};
  const Outcome r = Execute(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc, {input.Binding()});
  EXPECT_EQ(r.status, OPCTS_STATUS_INVALID);
  EXPECT_NE(r.message.find("binding_count"), std::string::npos) << r.message;
  EXPECT_EQ(output.Values()[0], output.Values()[1]);  // still the fill pattern: nothing written
}

TEST_F(CpuReference, InPlaceExclusiveSum) {
  Tensor<float> tensor({4}, {1, 2, 3, 4});
  const Outcome r = Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, tensor, tensor, 0,
                               OPCTS_AXIS_DIRECTION_INCREASING, 1);
  ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
  EXPECT_EQ(tensor.Values(), (std::vector<float>{0, 1, 3, 6}));
}

TEST_F(CpuReference, StridedTensorsAreHonoured) {
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const std::vector<float> row_sums = {1, 3, 6, 4, 9, 15};
  {
    SCOPED_TRACE("padded output rows");
    Tensor<float> input({2, 3}, values), output({2, 3}, {}, {4, 1});
    ASSERT_EQ(output.total(), 28u);
    const Outcome r = Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, 1, 0, 0);
    ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
    EXPECT_EQ(output.Values(), row_sums);
  }
  {
    SCOPED_TRACE("transposed output");
    Tensor<float> input({2, 3}, values), output({2, 3}, {}, {1, 2});
    const Outcome r = Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, 1, 0, 0);
    ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
    EXPECT_EQ(output.Values(), row_sums);
  }
  {
    SCOPED_TRACE("broadcast input (stride 0)");
    Tensor<float> input({2, 3}, {1, 2, 3}, {0, 1}), output({2, 3});
    const Outcome r = Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, 1, 0, 0);
    ASSERT_EQ(r.status, OPCTS_STATUS_OK) << r.message;
    EXPECT_EQ(output.Values(), (std::vector<float>{1, 3, 6, 1, 3, 6}));
  }
}

TEST_F(CpuReference, OpenVINOAxisOutOfRangeIsInvalidAtExecute) {
  Tensor<float> data({2, 2}, {1, 2, 3, 4}), output({2, 2});
  int32_t axis_value = 5;
  const opcts_tensor_desc data_desc = data.Desc(), output_desc = output.Desc();
  const opcts_tensor_desc axis_desc{OPCTS_DTYPE_INT32, 0, 0, nullptr, nullptr, 4, 0};
  const opcts_openvino_cumsum_desc desc{&data_desc, &axis_desc, &output_desc, 0, 0};
  EXPECT_EQ(Query(OPCTS_OP_OPENVINO_CUMSUM_3, &desc).status, OPCTS_STATUS_OK);
  const Outcome r = Execute(OPCTS_OP_OPENVINO_CUMSUM_3, &desc,
                            {data.Binding(), {&axis_value, 4}, output.Binding()});
  EXPECT_EQ(r.status, OPCTS_STATUS_INVALID);
  EXPECT_NE(r.message.find("axis"), std::string::npos) << r.message;
}

TEST_F(CpuReference, ValuesAreRoundedToTheDType) {
  {
    SCOPED_TRACE("FLOAT16: 1, 1+2 as binary16 bits");
    Tensor<uint16_t> input({2}, {0x3C00, 0x4000}), output({2});
    ASSERT_EQ(Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, 0, 0, 0).status,
              OPCTS_STATUS_OK);
    EXPECT_EQ(output.Values(), (std::vector<uint16_t>{0x3C00, 0x4200}));
  }
  {
    SCOPED_TRACE("UINT8 wraps modulo 256");
    Tensor<uint8_t> input({2}, {200, 100}), output({2});
    ASSERT_EQ(Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, 0, 0, 0).status,
              OPCTS_STATUS_OK);
    EXPECT_EQ(output.Values(), (std::vector<uint8_t>{200, 44}));
  }
  {
    SCOPED_TRACE("a NaN poisons the rest of the line with the canonical quiet NaN");
    Tensor<float> input({3}, {1, NAN, 2}), output({3});
    ASSERT_EQ(Cumulative(OPCTS_OP_DML_CUMULATIVE_SUMMATION, input, output, 0, 0, 0).status,
              OPCTS_STATUS_OK);
    uint32_t bits[3];
    for (int i = 0; i < 3; ++i) {
      const float v = output.Get(i);
      std::memcpy(&bits[i], &v, 4);
    }
    EXPECT_EQ(bits[0], 0x3F800000u);
    EXPECT_EQ(bits[1], 0x7FC00000u);
    EXPECT_EQ(bits[2], 0x7FC00000u);
  }
}

}  // namespace
