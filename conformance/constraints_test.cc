// The constraint evaluator on ScatterND's updates-sizes rule: the sizes it demands, in both
// forms, and shapes no updates tensor can satisfy, which make the operation invalid all the way
// to a backend's verdict.
#include "conformance/constraints.h"

#include <gtest/gtest.h>

#include "conformance/case_run.h"
#include "conformance/plugin_loader.h"
#include "conformance/spec_set.h"

namespace opcts {
namespace {

class ScatterUpdatesRuleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir())); }
  static void TearDownTestSuite() { delete specs_; }

  // DML_SCATTER_ND, FLOAT32 data and UINT32 indices of the sizes given.
  static Operation Dml(const std::vector<uint32_t>& input, const std::vector<uint32_t>& indices,
                       const std::vector<uint32_t>& updates, int64_t input_dims,
                       int64_t indices_dims) {
    Operation op{specs_->Find("DML_SCATTER_ND"),
                 {{"InputDimensionCount", input_dims}, {"IndicesDimensionCount", indices_dims}},
                 {},
                 false};
    op.tensors = {{"InputTensor", MakeTensor(PackedDesc(DType::kFloat32, input))},
                  {"IndicesTensor", MakeTensor(PackedDesc(DType::kUInt32, indices))},
                  {"UpdatesTensor", MakeTensor(PackedDesc(DType::kFloat32, updates))},
                  {"OutputTensor", MakeTensor(PackedDesc(DType::kFloat32, input))}};
    return op;
  }
  // ONNX_SCATTER_ND, FLOAT32 data and INT64 indices.
  static Operation Onnx(const std::vector<uint32_t>& data, const std::vector<uint32_t>& indices,
                        const std::vector<uint32_t>& updates) {
    Operation op{specs_->Find("ONNX_SCATTER_ND"), {}, {}, false};
    op.tensors = {{"data", MakeTensor(PackedDesc(DType::kFloat32, data))},
                  {"indices", MakeTensor(PackedDesc(DType::kInt64, indices))},
                  {"updates", MakeTensor(PackedDesc(DType::kFloat32, updates))},
                  {"output", MakeTensor(PackedDesc(DType::kFloat32, data))}};
    return op;
  }
  // The violations' "constraint: message" lines.
  static std::vector<std::string> Broken(const Operation& op) {
    std::vector<std::string> lines;
    for (const Violation& v : FindViolations(op, /*with_data=*/true))
      lines.push_back(v.constraint + ": " + v.message);
    return lines;
  }

  static SpecSet* specs_;
};
SpecSet* ScatterUpdatesRuleTest::specs_ = nullptr;

TEST_F(ScatterUpdatesRuleTest, DemandsTheDocumentsShapes) {
  // DirectML's worked example: input [3,4,5,6,7] (every dimension meaningful), tuples of 3 in a
  // grid [2,2]: updates are the grid then the input's dimensions after the tuple, [6,7],
  // right-aligned with ones.
  EXPECT_EQ(ScatterNDUpdatesSizes({3, 4, 5, 6, 7}, {1, 1, 2, 2, 3}, 5, 3),
            (std::vector<uint32_t>{1, 2, 2, 6, 7}));
  EXPECT_TRUE(Broken(Dml({3, 4, 5, 6, 7}, {1, 1, 2, 2, 3}, {1, 2, 2, 6, 7}, 5, 3)).empty());
  // ONNX's Example 2: data 4x4x4, indices 2x1, updates 2x4x4.
  EXPECT_EQ(ScatterNDUpdatesSizes({4, 4, 4}, {2, 1}), (std::vector<uint32_t>{2, 4, 4}));
  EXPECT_TRUE(Broken(Onnx({4, 4, 4}, {2, 1}, {2, 4, 4})).empty());
  EXPECT_EQ(Broken(Onnx({4, 4, 4}, {2, 1}, {2, 4, 3})),
            (std::vector<std::string>{"updates-sizes: updates.Sizes [2,4,3] should be [2,4,4]"}));
}

TEST_F(ScatterUpdatesRuleTest, MoreMeaningfulDimensionsThanTheRankIsAViolation) {
  // Four tuples of one coordinate, each a 2x2 slice: the updates need [2,2] ++ [2,2], four
  // dimensions, in tensors of DimensionCount 3. No rule fired on this before.
  EXPECT_EQ(ScatterNDUpdatesSizes({2, 2, 2}, {2, 2, 1}, 3, 3), std::nullopt);
  EXPECT_EQ(Broken(Dml({2, 2, 2}, {2, 2, 1}, {2, 2, 2}, 3, 3)),
            (std::vector<std::string>{
                "updates-sizes: UpdatesTensor.Sizes [2,2,2] cannot satisfy the rule: the "
                "meaningful index dimensions but the last [2,2] then the input's after the tuple "
                "[2,2] make 4 dimensions, more than DimensionCount 3"}));
}

TEST_F(ScatterUpdatesRuleTest, OnnxShapesTheTensorModelCannotHoldAreViolations) {
  // A whole-rank tuple addresses one element: the updates have rank 0, which the tensor model
  // keeps for scalar inputs, so [1,1,1] (one element too) is no substitute.
  EXPECT_EQ(ScatterNDUpdatesSizes({4, 8, 8}, {3}), std::nullopt);
  EXPECT_EQ(Broken(Onnx({4, 8, 8}, {3}, {1, 1, 1})),
            (std::vector<std::string>{
                "updates-sizes: updates.Sizes [1,1,1] cannot satisfy the rule: each index tuple "
                "addresses a single element, so the updates have rank 0, which the tensor model "
                "keeps for scalar inputs"}));
  // A grid of rank 7 over rank-8 data with tuples of one: the updates would have rank 14.
  const std::vector<uint32_t> data(8, 2), indices = {2, 2, 2, 2, 2, 2, 2, 1};
  EXPECT_EQ(ScatterNDUpdatesSizes(data, indices), std::nullopt);
  EXPECT_EQ(Broken(Onnx(data, indices, std::vector<uint32_t>(8, 2))),
            (std::vector<std::string>{
                "updates-sizes: updates.Sizes [2,2,2,2,2,2,2,2] cannot satisfy the rule: the "
                "updates would have rank 14 [2,2,2,2,2,2,2,2,2,2,2,2,2,2], above the tensor "
                "model's 8"}));
}

TEST_F(ScatterUpdatesRuleTest, UnsatisfiableUpdatesAreAnInvalidCaseThatBackendsMustReject) {
  PluginLoad load = LoadPlugin(OPCTS_CPU_REFERENCE, "");
  ASSERT_TRUE(load.ok()) << load.error().message;
  for (Operation op :
       {Dml({2, 2, 2}, {2, 2, 1}, {2, 2, 2}, 3, 3), Onnx({4, 8, 8}, {3}, {1, 1, 1})}) {
    PreparedCase prepared(std::move(op));
    ASSERT_TRUE(prepared.invalid_reason().has_value()) << prepared.op().spec->name;
    EXPECT_EQ(prepared.invalid_reason()->rfind("updates-sizes: ", 0), 0u);
    const CaseGroup group = GroupOfOperation(prepared, ClaimsOf(**load));
    EXPECT_EQ(group, CaseGroup::kInvalid);
    // Invalid: nothing asks the reference, which would have had to read past the updates.
    const CaseVerdict v = RunCase(**load, prepared, group);
    EXPECT_EQ(v.outcome.status, Status::kInvalidRejected) << v.outcome.message;
    EXPECT_TRUE(v.acceptable);
  }
}

}  // namespace
}  // namespace opcts
