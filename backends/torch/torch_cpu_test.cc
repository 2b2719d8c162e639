// Tests the torch-cpu plugin through its C ABI (dlopen, as the harness loads it): the probe's
// refusals in torch's words, the claims, and hand-computed scans and scatters over the tensor
// model's corners (strides, in place, DirectML's leading ones, negative and out-of-range indices,
// the reductions index_put_ lacks).
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "opcts/backend.h"

namespace {

const opcts_backend_api* Api() {
  static const opcts_backend_api* api = [] {
    void* library = dlopen(OPCTS_TORCH_CPU_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return static_cast<const opcts_backend_api*>(nullptr);
    auto entry =
        reinterpret_cast<opcts_backend_entry_fn>(dlsym(library, OPCTS_BACKEND_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
  }();
  return api;
}

// A tensor of T in a harness-owned buffer; strides in elements (empty: packed).
template <typename T>
struct Tensor {
  Tensor(uint32_t data_type, std::vector<uint32_t> tensor_sizes, std::vector<T> elements,
         std::vector<uint32_t> tensor_strides = {})
      : sizes(std::move(tensor_sizes)),
        strides(std::move(tensor_strides)),
        data(std::move(elements)) {
    desc = {data_type,
            0,
            static_cast<uint32_t>(sizes.size()),
            sizes.data(),
            strides.empty() ? nullptr : strides.data(),
            (data.size() * sizeof(T) + 3) / 4 * 4,
            0};
    data.resize((desc.total_tensor_size_in_bytes + sizeof(T) - 1) / sizeof(T));
  }
  opcts_binding Binding() { return {data.data(), desc.total_tensor_size_in_bytes}; }

  std::vector<uint32_t> sizes, strides;
  std::vector<T> data;
  opcts_tensor_desc desc{};
};

class TorchCpu : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(Api(), nullptr) << dlerror();
    char message[512] = "";
    ASSERT_EQ(Api()->create("", &instance_, message, sizeof message), OPCTS_STATUS_OK) << message;
  }
  void TearDown() override {
    if (instance_ != nullptr) Api()->destroy(instance_);
  }

  int32_t Query(uint32_t type, const void* desc) {
    const opcts_op_desc op{type, desc};
    char message[512] = "";
    const int32_t status = Api()->query(instance_, &op, message, sizeof message);
    message_ = message;
    return status;
  }
  int32_t Execute(uint32_t type, const void* desc, std::vector<opcts_binding> bindings) {
    const opcts_op_desc op{type, desc};
    char message[512] = "";
    const int32_t status =
        Api()->execute(instance_, &op, bindings.data(), static_cast<uint32_t>(bindings.size()),
                       message, sizeof message);
    message_ = message;
    return status;
  }

  void* instance_ = nullptr;
  std::string message_;
};

TEST_F(TorchCpu, ClaimsNoLevelBecauseTorchLacksUnsignedTypes) {
  opcts_backend_info info{};
  ASSERT_EQ(Api()->get_info(instance_, &info), OPCTS_STATUS_OK);
  EXPECT_STREQ(info.name, "torch-cpu");
  EXPECT_EQ(info.feature_level, OPCTS_FEATURE_LEVEL(1, 0));
  EXPECT_STREQ(info.extra_support, "");
  EXPECT_NE(std::string(info.details).find("torch 1."), std::string::npos) << info.details;
}

TEST_F(TorchCpu, RefusesFloat16CumsumAtQueryInTorchsWords) {
  Tensor<uint16_t> x(OPCTS_DTYPE_FLOAT16, {4}, {0, 0, 0, 0});
  const opcts_dml_cumulative_desc desc{&x.desc, &x.desc, 0, 0, 0};
  EXPECT_EQ(Query(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc), OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message_.find("torch.cumsum"), std::string::npos) << message_;
  EXPECT_NE(message_.find("not implemented for 'Half'"), std::string::npos) << message_;
}

TEST_F(TorchCpu, RefusesUnsignedTypesTorchHasNot) {
  Tensor<uint32_t> x(OPCTS_DTYPE_UINT32, {4}, {1, 2, 3, 4});
  const opcts_dml_cumulative_desc desc{&x.desc, &x.desc, 0, 0, 0};
  EXPECT_EQ(Query(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc), OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message_.find("has no UINT32 tensors"), std::string::npos) << message_;
}

TEST_F(TorchCpu, RefusesAnOperatorItDoesNotKnow) {
  const opcts_dml_cumulative_desc desc{};  // what a future operator's struct holds is unknown
  EXPECT_EQ(Query(0xFFFFu, &desc), OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_NE(message_.find("65535"), std::string::npos) << message_;
}

TEST_F(TorchCpu, InvalidDescriptorIsInvalidBeforeUnsupported) {
  Tensor<uint16_t> x(OPCTS_DTYPE_FLOAT16, {4}, {0, 0, 0, 0});
  const opcts_dml_cumulative_desc desc{&x.desc, &x.desc, /*axis=*/1, 0, 0};
  EXPECT_EQ(Query(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc), OPCTS_STATUS_INVALID) << message_;
}

TEST_F(TorchCpu, ReverseExclusiveSumInPlace) {
  Tensor<int32_t> x(OPCTS_DTYPE_INT32, {2, 3}, {1, 2, 3, 10, 20, 30});
  const opcts_dml_cumulative_desc desc{&x.desc, &x.desc, 1, OPCTS_AXIS_DIRECTION_DECREASING, 1};
  ASSERT_EQ(Query(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc), OPCTS_STATUS_OK) << message_;
  ASSERT_EQ(Execute(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc, {x.Binding(), x.Binding()}),
            OPCTS_STATUS_OK)
      << message_;
  EXPECT_EQ(std::vector<int32_t>(x.data.begin(), x.data.begin() + 6),
            (std::vector<int32_t>{5, 3, 0, 50, 30, 0}));
}

TEST_F(TorchCpu, ProductOverTransposedInputIntoPaddedOutput) {
  // Logical [[1, 2, 3], [4, 5, 6]] stored column-major; the output rows are 4 elements apart.
  Tensor<float> in(OPCTS_DTYPE_FLOAT32, {2, 3}, {1, 4, 2, 5, 3, 6}, {1, 2});
  Tensor<float> out(OPCTS_DTYPE_FLOAT32, {2, 3}, std::vector<float>(7, -1.0f), {4, 1});
  const opcts_dml_cumulative_desc desc{&in.desc, &out.desc, 1, 0, 0};
  ASSERT_EQ(Execute(OPCTS_OP_DML_CUMULATIVE_PRODUCT, &desc, {in.Binding(), out.Binding()}),
            OPCTS_STATUS_OK)
      << message_;
  EXPECT_EQ(std::vector<float>(out.data.begin(), out.data.begin() + 7),
            (std::vector<float>{1, 2, 6, -1, 4, 20, 120}));
}

TEST_F(TorchCpu, DirectMLScatterWithLeadingOnesAndNegativeIndices) {
  // Input [1, 4, 2] with InputDimensionCount 2; indices [1, 2, 1] (count 2): rows -1 and 0.
  Tensor<int16_t> in(OPCTS_DTYPE_INT16, {1, 4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor<int32_t> indices(OPCTS_DTYPE_INT32, {1, 2, 1}, {-1, 0});
  Tensor<int16_t> updates(OPCTS_DTYPE_INT16, {1, 2, 2}, {70, 71, 10, 11});
  Tensor<int16_t> out(OPCTS_DTYPE_INT16, {1, 4, 2}, std::vector<int16_t>(8, -1));
  const opcts_dml_scatter_nd_desc desc{&in.desc, &indices.desc, &updates.desc, &out.desc, 2, 2};
  ASSERT_EQ(Query(OPCTS_OP_DML_SCATTER_ND, &desc), OPCTS_STATUS_OK) << message_;
  ASSERT_EQ(Execute(OPCTS_OP_DML_SCATTER_ND, &desc,
                    {in.Binding(), indices.Binding(), updates.Binding(), out.Binding()}),
            OPCTS_STATUS_OK)
      << message_;
  EXPECT_EQ(std::vector<int16_t>(out.data.begin(), out.data.begin() + 8),
            (std::vector<int16_t>{10, 11, 2, 3, 4, 5, 70, 71}));
}

TEST_F(TorchCpu, OutOfRangeIndexIsInvalidAtExecuteWithTorchsMessage) {
  Tensor<float> in(OPCTS_DTYPE_FLOAT32, {3}, {0, 1, 2});
  Tensor<int64_t> indices(OPCTS_DTYPE_INT64, {1, 1}, {5});
  Tensor<float> updates(OPCTS_DTYPE_FLOAT32, {1}, {9});
  const opcts_onnx_scatter_nd_desc desc{&in.desc, &indices.desc, &updates.desc, &in.desc,
                                        OPCTS_SCATTER_REDUCTION_NONE};
  ASSERT_EQ(Query(OPCTS_OP_ONNX_SCATTER_ND, &desc), OPCTS_STATUS_OK) << message_;
  EXPECT_EQ(Execute(OPCTS_OP_ONNX_SCATTER_ND, &desc,
                    {in.Binding(), indices.Binding(), updates.Binding(), in.Binding()}),
            OPCTS_STATUS_INVALID);
  EXPECT_NE(message_.find("index 5 is out of bounds for dimension 0 with size 3"),
            std::string::npos)
      << message_;
}

TEST_F(TorchCpu, ScatterReductionsIndexPutLacksCombineDuplicates) {
  for (const auto& [reduction, expected] : std::vector<std::pair<uint32_t, std::vector<int64_t>>>{
           {OPCTS_SCATTER_REDUCTION_MUL, {1, 2, 30, 4, 5, 42}},
           {OPCTS_SCATTER_REDUCTION_MAX, {1, 2, 5, 4, 5, 7}},
           {OPCTS_SCATTER_REDUCTION_MIN, {1, 2, 2, 4, 5, 6}}}) {
    // Data [3, 2]; tuples of 2 address elements: (1, 0) twice (2 with 3 and 5), (-1, 1) once
    // (6 with 7).
    Tensor<int64_t> data(OPCTS_DTYPE_INT64, {3, 2}, {1, 2, 2, 4, 5, 6});
    Tensor<int64_t> indices(OPCTS_DTYPE_INT64, {3, 2}, {1, 0, 1, 0, -1, 1});
    Tensor<int64_t> updates(OPCTS_DTYPE_INT64, {3}, {3, 5, 7});
    Tensor<int64_t> out(OPCTS_DTYPE_INT64, {3, 2}, std::vector<int64_t>(6, -1));
    const opcts_onnx_scatter_nd_desc desc{&data.desc, &indices.desc, &updates.desc, &out.desc,
                                          reduction};
    ASSERT_EQ(Execute(OPCTS_OP_ONNX_SCATTER_ND, &desc,
                      {data.Binding(), indices.Binding(), updates.Binding(), out.Binding()}),
              OPCTS_STATUS_OK)
        << message_;
    EXPECT_EQ(std::vector<int64_t>(out.data.begin(), out.data.begin() + 6), expected)
        << "reduction " << reduction;
  }
}

TEST(TorchCpuCreate, RefusesOptions) {
  ASSERT_NE(Api(), nullptr) << dlerror();
  void* instance = nullptr;
  char message[256] = "";
  EXPECT_EQ(Api()->create("threads=2", &instance, message, sizeof message), OPCTS_STATUS_INVALID);
  EXPECT_EQ(instance, nullptr);
  EXPECT_NE(std::string(message).find("takes no options"), std::string::npos) << message;
}

}  // namespace
