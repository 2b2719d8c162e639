// Hand-checked tests of the oracle: every expected value here is written out by hand or comes
// from a naive coordinate loop in this file, never from reference/ itself.
#include "reference/reference.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "conformance/judge.h"
#include "conformance/spec_set.h"
#include "spec/element.h"
#include "spec/half.h"

namespace opcts {
namespace {

class ReferenceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir())); }
  static void TearDownTestSuite() { delete specs_; }

  static Operation Cumulative(const char* op_name, DType t, const std::vector<uint32_t>& sizes,
                              const std::vector<double>& values, unsigned axis, bool reverse,
                              bool exclusive) {
    Operation op;
    op.spec = specs_->Find(op_name);
    op.params["Axis"] = axis;
    op.params["AxisDirection"] = reverse;
    op.params[std::string(op_name) == "DML_CUMULATIVE_SUMMATION" ? "HasExclusiveSum"
                                                                 : "HasExclusiveProduct"] =
        exclusive;
    TensorData input = MakeTensor(PackedDesc(t, sizes));
    for (size_t i = 0; i < values.size(); ++i)
      StoreBits(t, input.Element(i), DoubleToBits(t, values[i]));
    op.tensors["InputTensor"] = input;
    op.tensors["OutputTensor"] = MakeTensor(PackedDesc(t, sizes));
    return op;
  }

  static ExpectedTensor Run(const Operation& op) {
    ReferenceResult r = (*FindReferenceKernel(op.spec->reference))(op);
    EXPECT_FALSE(r.invalid.has_value());
    return r.outputs.at(0);
  }

  static SpecSet* specs_;
};
SpecSet* ReferenceTest::specs_ = nullptr;

TEST_F(ReferenceTest, DocumentExampleIntegersAreExact) {
  // dml_cumulative_summation_current.md, Example 1, in INT32: exact bits expected.
  const ExpectedTensor e = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kInt32, {1, 1, 3, 4},
                                          {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4}, 3, false, false));
  const std::vector<uint64_t> want = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(e.elements[i].kind, Expect::kBits);
    EXPECT_EQ(e.elements[i].bits, want[i]) << i;
  }
}

TEST_F(ReferenceTest, EveryAxisOfEveryRank) {
  // Shape: 3 along the axis, 2 along one other dim, 1 elsewhere; values 1..6 in row-major order.
  for (unsigned rank = 1; rank <= 8; ++rank) {
    for (unsigned axis = 0; axis < rank; ++axis) {
      std::vector<uint32_t> sizes(rank, 1);
      sizes[axis] = 3;
      const unsigned other = rank > 1 ? (axis + 1) % rank : axis;
      if (other != axis) sizes[other] = 2;
      const unsigned count = other != axis ? 6 : 3;
      std::vector<double> values;
      for (unsigned i = 0; i < count; ++i) values.push_back(i + 1);
      const ExpectedTensor e = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kUInt32, sizes,
                                              values, axis, false, false));
      // Naive oracle: a line along `axis` is the elements sharing the `other` coordinate.
      const uint32_t axis_stride = other > axis ? 2 : 1;  // row-major: later dims vary faster
      const uint32_t other_stride = other > axis ? 1 : 3;
      for (unsigned line = 0; line < count / 3; ++line) {
        double running = 0;
        for (unsigned k = 0; k < 3; ++k) {
          const unsigned index = k * axis_stride + line * (other != axis ? other_stride : 0);
          running += values[index];
          EXPECT_EQ(e.elements[index].bits, static_cast<uint64_t>(running))
              << "rank " << rank << " axis " << axis << " element " << index;
        }
      }
    }
  }
}

TEST_F(ReferenceTest, ExclusiveReverseOnSizeOneAxisIsIdentity) {
  const ExpectedTensor sum = Run(
      Cumulative("DML_CUMULATIVE_SUMMATION", DType::kUInt32, {1, 1, 2, 1}, {7, 9}, 3, true, true));
  EXPECT_EQ(sum.elements[0].bits, 0u);
  EXPECT_EQ(sum.elements[1].bits, 0u);
  const ExpectedTensor product = Run(
      Cumulative("DML_CUMULATIVE_PRODUCT", DType::kUInt32, {1, 1, 2, 1}, {7, 9}, 3, true, true));
  EXPECT_EQ(product.elements[0].bits, 1u);
  EXPECT_EQ(product.elements[1].bits, 1u);
}

TEST_F(ReferenceTest, UnsignedWrapsSignedOverflowIsUnconstrained) {
  const ExpectedTensor u = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kUInt32, {1, 1, 1, 3},
                                          {4294967295.0, 2, 5}, 3, false, false));
  EXPECT_EQ(u.elements[1].bits, 1u);
  EXPECT_EQ(u.elements[2].bits, 6u);
  const ExpectedTensor s = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kInt32, {1, 1, 1, 3},
                                          {2147483647.0, 1, -5}, 3, false, false));
  EXPECT_EQ(s.elements[0].kind, Expect::kBits);
  EXPECT_EQ(s.elements[1].kind, Expect::kAny);
  EXPECT_EQ(s.elements[2].kind, Expect::kAny);
}

TEST_F(ReferenceTest, SignedProductWithZeroAfterOverflowIsZero) {
  const ExpectedTensor p = Run(Cumulative("DML_CUMULATIVE_PRODUCT", DType::kInt32, {1, 1, 1, 3},
                                          {65536, 65536, 0}, 3, false, false));
  EXPECT_EQ(p.elements[1].kind, Expect::kAny);
  EXPECT_EQ(p.elements[2].kind, Expect::kBits);
  EXPECT_EQ(p.elements[2].bits, 0u);
}

TEST_F(ReferenceTest, NaNAndInfinities) {
  const ExpectedTensor e = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kFloat32, {1, 1, 1, 4},
                                          {INFINITY, 1, -INFINITY, NAN}, 3, false, false));
  EXPECT_EQ(e.elements[0].kind, Expect::kBits);
  EXPECT_EQ(e.elements[0].bits, 0x7f800000u);
  EXPECT_EQ(e.elements[1].bits, 0x7f800000u);
  EXPECT_EQ(e.elements[2].kind, Expect::kNaN);
  EXPECT_EQ(e.elements[3].kind, Expect::kNaN);
  const ExpectedTensor p = Run(Cumulative("DML_CUMULATIVE_PRODUCT", DType::kFloat32, {1, 1, 1, 3},
                                          {-INFINITY, -2, 0}, 3, false, false));
  EXPECT_EQ(p.elements[0].bits, 0xff800000u);
  EXPECT_EQ(p.elements[1].bits, 0x7f800000u);   // -inf * -2 = +inf
  EXPECT_EQ(p.elements[2].kind, Expect::kNaN);  // inf * 0
}

TEST_F(ReferenceTest, Float16OverflowMustBeInfinity) {
  const ExpectedTensor e = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kFloat16, {1, 1, 1, 3},
                                          {60000, 10000, -30000}, 3, false, false));
  TensorData actual = MakeTensor(PackedDesc(DType::kFloat16, {1, 1, 1, 3}));
  const uint16_t finite_max = 0x7bff, inf = 0x7c00;
  StoreBits(DType::kFloat16, actual.Element(0), DoubleToHalfBits(60000));
  StoreBits(DType::kFloat16, actual.Element(1), inf);
  StoreBits(DType::kFloat16, actual.Element(2), DoubleToHalfBits(40000));
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kPass);
  // 70000 is beyond 65520 by far more than the bound: the largest finite value is wrong.
  StoreBits(DType::kFloat16, actual.Element(1), finite_max);
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kFail);
}

TEST_F(ReferenceTest, Float16AccumulatedInFloat16IsOnlyAQualityWarning) {
  // 2048 + sixteen 1s: in float16 each +1 rounds back to 2048 (spacing 2, ties to even); the
  // exact 2064 is representable.
  std::vector<double> values = {2048};
  values.resize(17, 1);
  const ExpectedTensor e = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kFloat16,
                                          {1, 1, 1, 17}, values, 3, false, false));
  TensorData actual = MakeTensor(PackedDesc(DType::kFloat16, {1, 1, 1, 17}));
  for (int i = 0; i < 17; ++i)
    StoreBits(DType::kFloat16, actual.Element(i), DoubleToHalfBits(2048 + i));
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kPass);
  for (int i = 0; i < 17; ++i)
    StoreBits(DType::kFloat16, actual.Element(i), DoubleToHalfBits(2048));
  const Judgement j = JudgeTensor(e, actual);
  EXPECT_EQ(j.verdict, Verdict::kQualityWarning) << j.message;
  StoreBits(DType::kFloat16, actual.Element(16), DoubleToHalfBits(2000));
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kFail);
}

TEST_F(ReferenceTest, Float32BeyondTheBoundFails) {
  const ExpectedTensor e = Run(Cumulative("DML_CUMULATIVE_SUMMATION", DType::kFloat32, {1, 1, 1, 2},
                                          {1, 2}, 3, false, false));
  TensorData actual = MakeTensor(PackedDesc(DType::kFloat32, {1, 1, 1, 2}));
  StoreBits(DType::kFloat32, actual.Element(0), 0x3f800000);  // 1
  // The bound for 1 + 2 (one addition) is u*3 + u*3 = 6 * 2^-24, 1.5 ULPs of 3: 1 ULP passes,
  // 2 fail.
  StoreBits(DType::kFloat32, actual.Element(1), 0x40400001);
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kPass);
  StoreBits(DType::kFloat32, actual.Element(1), 0x40400002);
  const Judgement j = JudgeTensor(e, actual);
  EXPECT_EQ(j.verdict, Verdict::kFail);
  EXPECT_NE(j.message.find("[0,0,0,1]"), std::string::npos) << j.message;
}

TEST_F(ReferenceTest, ScatterNegativeBoundaryAndDuplicateIndices) {
  Operation op;
  op.spec = specs_->Find("DML_SCATTER_ND");
  op.params["InputDimensionCount"] = 1;
  op.params["IndicesDimensionCount"] = 2;
  TensorData input = MakeTensor(PackedDesc(DType::kInt32, {1, 4}));
  for (int i = 0; i < 4; ++i) StoreBits(DType::kInt32, input.Element(i), i + 1);
  TensorData indices = MakeTensor(PackedDesc(DType::kInt64, {3, 1}));
  StoreBits(DType::kInt64, indices.Element(0), static_cast<uint64_t>(-4));  // -dim: element 0
  StoreBits(DType::kInt64, indices.Element(1), static_cast<uint64_t>(-1));  // element 3
  StoreBits(DType::kInt64, indices.Element(2), 3);                          // element 3 again
  TensorData updates = MakeTensor(PackedDesc(DType::kInt32, {1, 3}));
  for (int i = 0; i < 3; ++i) StoreBits(DType::kInt32, updates.Element(i), uint64_t{10} * (i + 1));
  op.tensors = {{"InputTensor", input},
                {"IndicesTensor", indices},
                {"UpdatesTensor", updates},
                {"OutputTensor", MakeTensor(PackedDesc(DType::kInt32, {1, 4}))}};
  const ExpectedTensor e = Run(op);
  EXPECT_EQ(e.elements[0].bits, 10u);
  EXPECT_EQ(e.elements[1].bits, 2u);
  EXPECT_EQ(e.elements[2].bits, 3u);
  ASSERT_EQ(e.elements[3].kind, Expect::kAnyOf);
  EXPECT_EQ(e.candidates[e.elements[3].bits], (std::vector<uint64_t>{20, 30}));

  // -5 is beyond -dim: tuple 0 is out of range. Each element holds what the two in-range tuples
  // give, or the out-of-range tuple's 10 (written anywhere), nothing else.
  StoreBits(DType::kInt64, op.tensors["IndicesTensor"].Element(0), static_cast<uint64_t>(-5));
  const ExpectedTensor oob = Run(op);
  TensorData actual = MakeTensor(oob.desc);
  auto judge = [&](const std::vector<uint64_t>& values) {
    for (size_t i = 0; i < values.size(); ++i)
      StoreBits(DType::kInt32, actual.Element(i), values[i]);
    return JudgeTensor(oob, actual);
  };
  EXPECT_EQ(judge({1, 2, 3, 20}).verdict, Verdict::kPass);   // skipped
  EXPECT_EQ(judge({1, 2, 3, 30}).verdict, Verdict::kPass);   // either duplicate wins
  EXPECT_EQ(judge({10, 2, 3, 30}).verdict, Verdict::kPass);  // -5 wrapped twice: element 0
  EXPECT_EQ(judge({1, 2, 10, 10}).verdict, Verdict::kPass);  // written elsewhere
  EXPECT_EQ(judge({1, 2, 3, 4}).verdict, Verdict::kFail);    // the in-range write lost
  EXPECT_EQ(judge({1, 20, 3, 30}).verdict, Verdict::kFail);  // an in-range value misplaced
  const Judgement garbage = judge({1, 2, 11, 20});
  EXPECT_EQ(garbage.verdict, Verdict::kFail);
  EXPECT_NE(garbage.message.find("expected 3 or a value of an out-of-range tuple {10}, got 11"),
            std::string::npos)
      << garbage.message;
}

// An op of DML_SCATTER_ND over 2x3 data whose tuples address rows (one coordinate each).
Operation DmlRows(const SpecSet& specs, DType index_type, const std::vector<uint64_t>& rows) {
  Operation op;
  op.spec = specs.Find("DML_SCATTER_ND");
  op.params["InputDimensionCount"] = 2;
  op.params["IndicesDimensionCount"] = 2;
  const auto tuples = static_cast<uint32_t>(rows.size());
  TensorData input = MakeTensor(PackedDesc(DType::kInt32, {1, 2, 3}));
  for (int i = 0; i < 6; ++i) StoreBits(DType::kInt32, input.Element(i), i + 1);
  TensorData indices = MakeTensor(PackedDesc(index_type, {1, tuples, 1}));
  for (uint32_t t = 0; t < tuples; ++t) StoreBits(index_type, indices.Element(t), rows[t]);
  TensorData updates = MakeTensor(PackedDesc(DType::kInt32, {1, tuples, 3}));
  for (uint32_t i = 0; i < tuples * 3; ++i)
    StoreBits(DType::kInt32, updates.Element(i), uint64_t{10} * (i + 1));
  op.tensors = {{"InputTensor", input},
                {"IndicesTensor", indices},
                {"UpdatesTensor", updates},
                {"OutputTensor", MakeTensor(PackedDesc(DType::kInt32, {1, 2, 3}))}};
  return op;
}

TEST_F(ReferenceTest, ScatterOutOfRangeSliceIsWhatMayAppearBesideTheInRangeResult) {
  // Tuple 0 writes row 1 with 10, 20, 30; tuple 1 (row 2 of 2) is out of range with 40, 50, 60.
  const ExpectedTensor e = Run(DmlRows(*specs_, DType::kUInt32, {1, 2}));
  TensorData actual = MakeTensor(e.desc);
  auto judge = [&](const std::vector<uint64_t>& values) {
    for (size_t i = 0; i < values.size(); ++i)
      StoreBits(DType::kInt32, actual.Element(i), values[i]);
    return JudgeTensor(e, actual).verdict;
  };
  EXPECT_EQ(judge({1, 2, 3, 10, 20, 30}), Verdict::kPass);     // skipped
  EXPECT_EQ(judge({40, 50, 60, 10, 20, 30}), Verdict::kPass);  // wrapped to row 0
  EXPECT_EQ(judge({1, 2, 3, 40, 50, 60}), Verdict::kPass);     // wrapped to row 1, written last
  EXPECT_EQ(judge({60, 2, 3, 10, 20, 40}), Verdict::kPass);    // any of its values, anywhere
  EXPECT_EQ(judge({1, 2, 30, 10, 20, 30}), Verdict::kFail);    // an in-range value misplaced
  EXPECT_EQ(judge({1, 2, 3, 10, 20, 0}), Verdict::kFail);      // garbage
  EXPECT_EQ(judge({1, 2, 3, 10, 20, 6}), Verdict::kFail);      // input row 2: no such row
}

TEST_F(ReferenceTest, ScatterHugeIndexValuesAreOutOfRange) {
  // 0xFFFFFFFF (UINT32), 2^63 (UINT64) and 2^63 as INT64 bits (INT64_MIN, which wrapping by the
  // dimension leaves negative) address no row: row 1 keeps 4, 5, 6 or takes 10..30 (tuple 0,
  // in range at row 0) or a value of the huge tuple's slice, 40, 50, 60.
  const std::pair<DType, uint64_t> huge[] = {{DType::kUInt32, 0xFFFFFFFFu},
                                             {DType::kUInt64, uint64_t{1} << 63},
                                             {DType::kInt64, uint64_t{1} << 63},
                                             {DType::kInt32, 0x80000000u}};
  for (const auto& [type, value] : huge) {
    const ReferenceResult r =
        (*FindReferenceKernel("scatter_nd"))(DmlRows(*specs_, type, {0, value}));
    ASSERT_TRUE(r.refusable.has_value()) << DTypeName(type);
    EXPECT_NE(r.refusable->find("index tuple 1 is out of range"), std::string::npos);
    const ExpectedTensor& e = r.outputs.at(0);
    const std::vector<uint64_t> skipped = {10, 20, 30, 4, 5, 6};
    for (size_t i = 0; i < skipped.size(); ++i) {
      EXPECT_EQ(e.elements[i].kind, Expect::kBits);
      EXPECT_EQ(e.elements[i].bits, skipped[i]) << DTypeName(type) << " " << i;
    }
    EXPECT_EQ(e.alternatives, (std::vector<uint64_t>{40, 50, 60})) << DTypeName(type);
  }
}

TEST_F(ReferenceTest, ScatterUpdatesTooSmallForTheTuplesAreInvalidNotRead) {
  // input 2x2x2, indices 2x2x1 (four tuples of one coordinate, each a 2x2 slice): the updates
  // would need 16 elements; a 2x2x2 updates tensor holds 8.
  Operation op;
  op.spec = specs_->Find("DML_SCATTER_ND");
  op.params["InputDimensionCount"] = 3;
  op.params["IndicesDimensionCount"] = 3;
  op.tensors = {{"InputTensor", MakeTensor(PackedDesc(DType::kFloat32, {2, 2, 2}))},
                {"IndicesTensor", MakeTensor(PackedDesc(DType::kUInt32, {2, 2, 1}))},
                {"UpdatesTensor", MakeTensor(PackedDesc(DType::kFloat32, {2, 2, 2}))},
                {"OutputTensor", MakeTensor(PackedDesc(DType::kFloat32, {2, 2, 2}))}};
  const ReferenceResult r = (*FindReferenceKernel("scatter_nd"))(op);
  ASSERT_TRUE(r.invalid.has_value());
  EXPECT_EQ(*r.invalid, "the updates hold 8 elements but the 4 index tuples' slices need 16");
  EXPECT_TRUE(r.outputs.empty());
}

TEST_F(ReferenceTest, OpenVINORejectsAxisOutOfRange) {
  Operation op;
  op.spec = specs_->Find("OPENVINO_CUMSUM_3");
  op.tensors["data"] = MakeTensor(PackedDesc(DType::kFloat32, {2, 3}));
  op.tensors["output"] = MakeTensor(PackedDesc(DType::kFloat32, {2, 3}));
  TensorData axis = MakeTensor(TensorDesc{DType::kInt32, {}, {}, 4, 0});
  StoreBits(DType::kInt32, axis.bytes.data(), static_cast<uint64_t>(-3));
  op.tensors["axis"] = axis;
  const ReferenceResult r = (*FindReferenceKernel("openvino_cumsum"))(op);
  ASSERT_TRUE(r.invalid.has_value());
  EXPECT_EQ(*r.invalid, "axis -3 is outside [-2, 1]");
}

// The shipped spec named `name` (spec/*.yaml).
const OperatorSpec& ShippedSpec(const char* name) {
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  const OperatorSpec* spec = specs.Find(name);
  if (spec == nullptr) throw std::runtime_error(std::string("no spec ") + name);
  return *spec;
}

TensorData Values(DType t, std::vector<uint32_t> sizes, const std::vector<double>& values) {
  TensorData d = MakeTensor(PackedDesc(t, std::move(sizes)));
  for (size_t i = 0; i < values.size(); ++i) StoreBits(t, d.Element(i), DoubleToBits(t, values[i]));
  return d;
}

ReferenceResult RunOnnx(const Operation& op) {
  return (*FindReferenceKernel(op.spec->reference))(op);
}

Operation OnnxCumSum(TensorData x, int32_t axis, bool exclusive, bool reverse) {
  Operation op;
  op.spec = &ShippedSpec("ONNX_CUMSUM");
  op.params = {{"exclusive", exclusive}, {"reverse", reverse}};
  op.tensors["y"] = MakeTensor(x.desc);
  op.tensors["x"] = std::move(x);
  op.tensors["axis"] = Values(DType::kInt32, {}, {static_cast<double>(axis)});
  return op;
}

std::vector<uint64_t> Bits(const ExpectedTensor& e) {
  std::vector<uint64_t> bits;
  for (const ExpectedElement& el : e.elements) {
    EXPECT_EQ(el.kind, Expect::kBits);
    bits.push_back(el.bits);
  }
  return bits;
}

TEST(OnnxCumSum, PageSummaryExampleInEveryMode) {
  // onnx__CumSum: input_x = [1, 2, 3], axis = 0.
  const TensorData x = Values(DType::kInt32, {3}, {1, 2, 3});
  auto run = [&](bool exclusive, bool reverse) {
    return Bits(RunOnnx(OnnxCumSum(x, 0, exclusive, reverse)).outputs.at(0));
  };
  EXPECT_EQ(run(false, false), (std::vector<uint64_t>{1, 3, 6}));
  EXPECT_EQ(run(true, false), (std::vector<uint64_t>{0, 1, 3}));
  EXPECT_EQ(run(false, true), (std::vector<uint64_t>{6, 5, 3}));
  EXPECT_EQ(run(true, true), (std::vector<uint64_t>{5, 3, 0}));
}

TEST(OnnxCumSum, NegativeAxisCountsFromTheBack) {
  // onnx__CumSum, cumsum_2d_negative_axis: [[1, 2, 3], [4, 5, 6]] along -1 (INT64 here).
  const ReferenceResult r =
      RunOnnx(OnnxCumSum(Values(DType::kInt64, {2, 3}, {1, 2, 3, 4, 5, 6}), -1, false, false));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{1, 3, 6, 4, 9, 15}));
}

TEST(OnnxCumSum, AxisIsRequiredAndRangeChecked) {
  Operation op = OnnxCumSum(Values(DType::kFloat32, {2, 3}, {}), 2, false, false);
  EXPECT_EQ(RunOnnx(op).invalid, "axis 2 is outside [-2, 1]");
  op.tensors.erase("axis");
  EXPECT_EQ(RunOnnx(op).invalid, "the axis input is required");
}

Operation OnnxScatter(TensorData data, TensorData indices, TensorData updates,
                      const char* reduction) {
  Operation op;
  op.spec = &ShippedSpec("ONNX_SCATTER_ND");
  const auto& names = op.spec->FindParam("reduction")->enum_values;
  op.params["reduction"] = std::find(names.begin(), names.end(), reduction) - names.begin();
  op.tensors["output"] = MakeTensor(data.desc);
  op.tensors["data"] = std::move(data);
  op.tensors["indices"] = std::move(indices);
  op.tensors["updates"] = std::move(updates);
  return op;
}

TEST(OnnxScatterND, RanksDifferAndNegativeIndicesWrap) {
  // data 4x3 (r = 2), indices 1x2x1 (q = 3, k = 1): updates are indices.shape[:-1] ++
  // data.shape[1:] = 1x2x3. Tuple -4 is row 0.
  const ReferenceResult r =
      RunOnnx(OnnxScatter(Values(DType::kInt32, {4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
                          Values(DType::kInt64, {1, 2, 1}, {3, -4}),
                          Values(DType::kInt32, {1, 2, 3}, {10, 20, 30, 40, 50, 60}), "none"));
  EXPECT_FALSE(r.refusable.has_value());
  EXPECT_EQ(Bits(r.outputs.at(0)),
            (std::vector<uint64_t>{40, 50, 60, 4, 5, 6, 7, 8, 9, 10, 20, 30}));
}

TEST(OnnxScatterND, ScalarUpdatesWhenTheTupleAddressesOneElement) {
  // data 2x2, indices [1, 0] (q = 1, k = 2 = r): updates has rank 0.
  const ReferenceResult r = RunOnnx(OnnxScatter(Values(DType::kFloat32, {2, 2}, {1, 2, 3, 4}),
                                                Values(DType::kInt64, {2}, {1, 0}),
                                                Values(DType::kFloat32, {}, {99}), "none"));
  EXPECT_EQ(Bits(r.outputs.at(0)),
            (std::vector<uint64_t>{0x3f800000, 0x40000000, 0x42c60000, 0x40800000}));
}

TEST(OnnxScatterND, OutOfRangeTupleUnderAReductionLeavesItsValuesAsTheyAre) {
  // -5 is beyond -4 for a dimension of 4. The in-range tuple adds 20 to element 1 (2 + 20); the
  // out-of-range one may leave its 10 anywhere, but no sum with it is accepted.
  const ReferenceResult r = RunOnnx(OnnxScatter(Values(DType::kInt32, {4}, {1, 2, 3, 4}),
                                                Values(DType::kInt64, {2, 1}, {-5, 1}),
                                                Values(DType::kInt32, {2}, {10, 20}), "add"));
  ASSERT_TRUE(r.refusable.has_value());
  const ExpectedTensor& e = r.outputs.at(0);
  EXPECT_EQ(Bits(e), (std::vector<uint64_t>{1, 22, 3, 4}));
  TensorData actual = MakeTensor(e.desc);
  auto judge = [&](const std::vector<uint64_t>& values) {
    for (size_t i = 0; i < values.size(); ++i)
      StoreBits(DType::kInt32, actual.Element(i), values[i]);
    return JudgeTensor(e, actual).verdict;
  };
  EXPECT_EQ(judge({1, 22, 3, 4}), Verdict::kPass);
  EXPECT_EQ(judge({10, 22, 3, 10}), Verdict::kPass);
  EXPECT_EQ(judge({1, 22, 3, 14}), Verdict::kFail);  // 4 + 10: combined, not left as it is
  EXPECT_EQ(judge({1, 2, 3, 4}), Verdict::kFail);    // the in-range update lost
}

TEST(OnnxScatterND, IntegerReductionsOfDuplicatesWrap) {
  // INT8 add: 100 + 100 + 100 = 300 = 44 (mod 256); 5 + (-3) = 2.
  const TensorData indices = Values(DType::kInt64, {3, 1}, {0, 0, 1});
  ReferenceResult r = RunOnnx(OnnxScatter(Values(DType::kInt8, {2}, {100, 5}), indices,
                                          Values(DType::kInt8, {3}, {100, 100, -3}), "add"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{44, 2}));
  // INT16 mul: -300 * 300 * 2 = -180000 = 16608 (mod 65536); 7 * 9 = 63.
  r = RunOnnx(OnnxScatter(Values(DType::kInt16, {2}, {-300, 7}), indices,
                          Values(DType::kInt16, {3}, {300, 2, 9}), "mul"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{16608, 63}));
  // UINT8 mul: 16 * 16 * 2 = 512 = 0 (mod 256).
  r = RunOnnx(OnnxScatter(Values(DType::kUInt8, {2}, {16, 3}), indices,
                          Values(DType::kUInt8, {3}, {16, 2, 1}), "mul"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{0, 3}));
  // INT32 max and min over -5, -7, 3 (signed order); element 1: 5 against -1.
  const TensorData data = Values(DType::kInt32, {2}, {-5, 5});
  const TensorData updates = Values(DType::kInt32, {3}, {-7, 3, -1});
  r = RunOnnx(OnnxScatter(data, indices, updates, "max"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{3, 5}));
  r = RunOnnx(OnnxScatter(data, indices, updates, "min"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{0xfffffff9, 0xffffffff}));
}

TEST(OnnxScatterND, OneFloatUpdateIsOneCorrectlyRoundedOperation) {
  // float16 2048 + 3 = 2051 lies halfway between 2050 (0x6801) and 2052 (0x6802): even wins.
  // bfloat16 1.0078125 (0x3f81) + 2^-8 lies halfway between 0x3f81 and 0x3f82: even wins.
  // float32 inf + -inf is NaN.
  const TensorData one = Values(DType::kInt64, {1, 1}, {0});
  ReferenceResult r = RunOnnx(OnnxScatter(Values(DType::kFloat16, {1}, {2048}), one,
                                          Values(DType::kFloat16, {1}, {3}), "add"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{0x6802}));
  r = RunOnnx(OnnxScatter(Values(DType::kBFloat16, {1}, {1.0078125}), one,
                          Values(DType::kBFloat16, {1}, {0.00390625}), "add"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{0x3f82}));
  r = RunOnnx(OnnxScatter(Values(DType::kFloat32, {1}, {INFINITY}), one,
                          Values(DType::kFloat32, {1}, {-INFINITY}), "add"));
  EXPECT_EQ(r.outputs.at(0).elements[0].kind, Expect::kNaN);
  // float32 3 * (1/3 rounded) = 1.00000002980232... rounds to 1 (0x3f800000).
  r = RunOnnx(OnnxScatter(Values(DType::kFloat32, {1}, {3}), one,
                          Values(DType::kFloat32, {1}, {1.0 / 3}), "mul"));
  EXPECT_EQ(Bits(r.outputs.at(0)), (std::vector<uint64_t>{0x3f800000}));
}

TEST(OnnxScatterND, FloatDuplicatesAreJudgedAsASumInAnyOrder) {
  // 1 + 2 + 4 = 7: two additions over sum|x| = 7, so the bound is (2u + u) * 7 = 21 * 2^-24
  // (u = 2^-24, the float32 output's own rounding included). One ULP of 7 is 8 * 2^-24: two
  // ULPs pass, three fail.
  const TensorData indices = Values(DType::kInt64, {2, 1}, {0, 0});
  const ReferenceResult r = RunOnnx(OnnxScatter(Values(DType::kFloat32, {1}, {1}), indices,
                                                Values(DType::kFloat32, {2}, {2, 4}), "add"));
  const ExpectedTensor& e = r.outputs.at(0);
  ASSERT_EQ(e.elements[0].kind, Expect::kNear);
  EXPECT_EQ(e.elements[0].value, 7);
  TensorData actual = MakeTensor(e.desc);
  StoreBits(DType::kFloat32, actual.Element(0), 0x40e00002);  // 7 + 2 ULPs
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kPass);
  StoreBits(DType::kFloat32, actual.Element(0), 0x40e00003);  // 7 + 3 ULPs
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kFail);
  // mul: 3 * 0.5 * 4 = 6, a product of the three.
  const ReferenceResult p = RunOnnx(OnnxScatter(Values(DType::kFloat32, {1}, {3}), indices,
                                                Values(DType::kFloat32, {2}, {0.5, 4}), "mul"));
  ASSERT_EQ(p.outputs.at(0).elements[0].kind, Expect::kNear);
  EXPECT_EQ(p.outputs.at(0).elements[0].value, 6);
}

TEST(OnnxScatterND, Float16DuplicatesAddedInFloat16AreAQualityWarning) {
  // 2048 + 1 + 1 = 2050 exactly (0x6801). Added one at a time in float16 each +1 ties back to
  // 2048: 2 off, beyond the Pass bound (~1.0) but within the float16-accumulation one
  // (3 * 2^-11 * 2050 ~ 3.0).
  const ReferenceResult r = RunOnnx(OnnxScatter(Values(DType::kFloat16, {1}, {2048}),
                                                Values(DType::kInt64, {2, 1}, {0, 0}),
                                                Values(DType::kFloat16, {2}, {1, 1}), "add"));
  const ExpectedTensor& e = r.outputs.at(0);
  TensorData actual = MakeTensor(e.desc);
  StoreBits(DType::kFloat16, actual.Element(0), 0x6801);
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kPass);
  StoreBits(DType::kFloat16, actual.Element(0), 0x6800);
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kQualityWarning);
  StoreBits(DType::kFloat16, actual.Element(0), 0x6804);  // 2056
  EXPECT_EQ(JudgeTensor(e, actual).verdict, Verdict::kFail);
}

TEST(OnnxScatterND, MaxMinPropagateNaNAndLetEitherZeroWinATie) {
  // data [1, NaN, +0, -0, 5]; element 0 gets NaN and 3, element 1 gets 7, element 2 gets -0,
  // element 3 gets -0, element 4 gets -inf and +inf.
  const TensorData data = Values(DType::kFloat32, {5}, {1, NAN, 0.0, -0.0, 5});
  const TensorData indices = Values(DType::kInt64, {7, 1}, {0, 0, 1, 2, 3, 4, 4});
  const TensorData updates =
      Values(DType::kFloat32, {7}, {NAN, 3, 7, -0.0, -0.0, -INFINITY, INFINITY});
  for (const char* reduction : {"max", "min"}) {
    const ReferenceResult r = RunOnnx(OnnxScatter(data, indices, updates, reduction));
    const ExpectedTensor& e = r.outputs.at(0);
    EXPECT_EQ(e.elements[0].kind, Expect::kNaN) << reduction;
    EXPECT_EQ(e.elements[1].kind, Expect::kNaN) << reduction;
    ASSERT_EQ(e.elements[2].kind, Expect::kAnyOf) << reduction;
    EXPECT_EQ(e.candidates[e.elements[2].bits], (std::vector<uint64_t>{0, 0x80000000}))
        << reduction;
    EXPECT_EQ(e.elements[3].kind, Expect::kBits) << reduction;
    EXPECT_EQ(e.elements[3].bits, 0x80000000u) << reduction;
    EXPECT_EQ(e.elements[4].kind, Expect::kBits) << reduction;
    EXPECT_EQ(e.elements[4].bits, std::string(reduction) == "max" ? 0x7f800000u : 0xff800000u);
  }
}

TEST(OnnxScatterND, UnwrittenElementsKeepTheirBitsUnderEveryReduction) {
  // A NaN payload that no tuple touches is data movement: exact.
  TensorData data = MakeTensor(PackedDesc(DType::kFloat32, {2}));
  StoreBits(DType::kFloat32, data.Element(0), 0x7fc00123);
  for (const char* reduction : {"none", "add", "mul", "max", "min"}) {
    const ReferenceResult r = RunOnnx(OnnxScatter(data, Values(DType::kInt64, {1, 1}, {1}),
                                                  Values(DType::kFloat32, {1}, {2}), reduction));
    EXPECT_EQ(r.outputs.at(0).elements[0].kind, Expect::kBits) << reduction;
    EXPECT_EQ(r.outputs.at(0).elements[0].bits, 0x7fc00123u) << reduction;
  }
}

}  // namespace
}  // namespace opcts
