// The relation checkers on hand-written tensors: each accepts a correct pair and reports a
// corrupted one, naming the element.
#include "conformance/properties/relations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/case_generator.h"
#include "spec/element.h"

namespace opcts {
namespace {

using testing::HasSubstr;

TensorData Tensor(DType t, const TensorDesc& desc, const std::vector<double>& values) {
  TensorData data = MakeTensor(desc);
  const StridedIndexer indexer(desc);
  for (size_t i = 0; i < values.size(); ++i)
    StoreBits(t, data.Element(indexer.BufferIndex(i)), DoubleToBits(t, values[i]));
  return data;
}
TensorData Tensor(DType t, const std::vector<uint32_t>& sizes, const std::vector<double>& values) {
  return Tensor(t, PackedDesc(t, sizes), values);
}

// An expectation of the given kind and bound for every element of `t` (only kinds and bounds
// matter to the relations).
ExpectedTensor Expected(const TensorData& t, Expect kind = Expect::kBits, double bound = 0) {
  ExpectedTensor e;
  e.desc = t.desc;
  ExpectedElement element;
  element.kind = kind;
  element.pass_bound = element.warn_bound = bound;
  e.elements.assign(ElementCount(t.desc), element);
  return e;
}

struct Pair {
  TensorData a, b;
  ExpectedTensor ea, eb;
  Pair(TensorData x, TensorData y, Expect kind = Expect::kBits, double bound = 0)
      : a(std::move(x)),
        b(std::move(y)),
        ea(Expected(a, kind, bound)),
        eb(Expected(b, kind, bound)) {}
  ObservedOutput A() const { return {a, ea}; }
  ObservedOutput B() const { return {b, eb}; }
};

TEST(ExclusiveIsShiftedInclusive, AcceptsShiftedRowsBothDirections) {
  const DType t = DType::kInt32;
  const Pair forward(Tensor(t, {2, 3}, {1, 3, 6, 4, 9, 15}), Tensor(t, {2, 3}, {0, 1, 3, 0, 4, 9}));
  EXPECT_EQ(CheckExclusiveIsShiftedInclusive(forward.A(), forward.B(), 1, false, 0), std::nullopt);
  const Pair reverse(Tensor(t, {2, 3}, {6, 5, 3, 15, 11, 6}),
                     Tensor(t, {2, 3}, {5, 3, 0, 11, 6, 0}));
  EXPECT_EQ(CheckExclusiveIsShiftedInclusive(reverse.A(), reverse.B(), 1, true, 0), std::nullopt);
  const Pair columns(Tensor(t, {2, 3}, {1, 2, 3, 5, 7, 9}), Tensor(t, {2, 3}, {1, 1, 1, 1, 2, 3}));
  EXPECT_EQ(CheckExclusiveIsShiftedInclusive(columns.A(), columns.B(), 0, false, 1), std::nullopt);
}

TEST(ExclusiveIsShiftedInclusive, ReportsAShiftedElement) {
  const DType t = DType::kUInt16;
  const Pair p(Tensor(t, {2, 3}, {1, 3, 6, 4, 9, 15}), Tensor(t, {2, 3}, {0, 1, 3, 0, 4, 10}));
  EXPECT_THAT(CheckExclusiveIsShiftedInclusive(p.A(), p.B(), 1, false, 0).value_or(""),
              HasSubstr("exclusive at [1,2] = 10, but inclusive at [1,1] = 9"));
}

TEST(ExclusiveIsShiftedInclusive, ReportsAMissingIdentity) {
  const DType t = DType::kFloat32;
  const Pair p(Tensor(t, {3}, {2, 6, 24}), Tensor(t, {3}, {2, 2, 6}));
  EXPECT_THAT(CheckExclusiveIsShiftedInclusive(p.A(), p.B(), 0, false, 1).value_or(""),
              HasSubstr("exclusive at [0] = 2 (0x40000000), but the first element in scan order "
                        "must be the identity 1"));
}

TEST(ExclusiveIsShiftedInclusive, FloatsAgreeWithinTheSumOfBothBounds) {
  const DType t = DType::kFloat32;
  const double one_up = 1.0 + 0x1p-23;  // one float32 ULP (1.19e-7) above 1
  const Pair within(Tensor(t, {2}, {1, 3}), Tensor(t, {2}, {0, one_up}), Expect::kNear, 6e-8);
  EXPECT_EQ(CheckExclusiveIsShiftedInclusive(within.A(), within.B(), 0, false, 0), std::nullopt);
  const Pair beyond(Tensor(t, {2}, {1, 3}), Tensor(t, {2}, {0, one_up}), Expect::kNear, 5e-8);
  EXPECT_THAT(
      CheckExclusiveIsShiftedInclusive(beyond.A(), beyond.B(), 0, false, 0).value_or(""),
      HasSubstr("exclusive at [1] = 1.0000001192092896 (0x3f800001), but inclusive at [0] = 1"));
}

TEST(ExclusiveIsShiftedInclusive, SkipsUnconstrainedElements) {
  const DType t = DType::kInt8;
  const Pair p(Tensor(t, {2}, {100, 50}), Tensor(t, {2}, {0, 7}), Expect::kAny);
  EXPECT_EQ(CheckExclusiveIsShiftedInclusive(p.A(), p.B(), 0, false, 0), std::nullopt);
}

TEST(ReverseIsFlippedForward, AcceptsTheMirrorAndReportsACorruption) {
  const DType t = DType::kInt64;
  // reverse inclusive sum of rows [1,2,3],[4,5,6]; forward sum of the flipped rows [3,2,1],[6,5,4]
  const Pair good(Tensor(t, {2, 3}, {6, 5, 3, 15, 11, 6}), Tensor(t, {2, 3}, {3, 5, 6, 6, 11, 15}));
  EXPECT_EQ(CheckReverseIsFlippedForward(good.A(), good.B(), 1), std::nullopt);
  const Pair bad(Tensor(t, {2, 3}, {6, 5, 3, 15, 11, 6}), Tensor(t, {2, 3}, {3, 5, 6, 6, 12, 15}));
  EXPECT_THAT(
      CheckReverseIsFlippedForward(bad.A(), bad.B(), 1).value_or(""),
      HasSubstr("reverse scan at [1,1] = 11, but forward scan of the flipped input at [1,1] = 12"));
}

TEST(LastInclusiveIsTotal, SumsAndProductsWrapLikeTheType) {
  const DType t = DType::kUInt8;
  const TensorData input = Tensor(t, {2}, {200, 100});
  const TensorData sums = Tensor(t, {2}, {200, 44});  // 300 mod 256
  const ExpectedTensor exact = Expected(sums);
  EXPECT_EQ(CheckLastInclusiveIsTotal({sums, exact}, input, 0, false, false), std::nullopt);
  const TensorData reverse_sums = Tensor(t, {2}, {44, 100});
  EXPECT_EQ(CheckLastInclusiveIsTotal({reverse_sums, exact}, input, 0, true, false), std::nullopt);
  const TensorData products = Tensor(t, {2}, {200, 32});  // 20000 mod 256
  EXPECT_EQ(CheckLastInclusiveIsTotal({products, exact}, input, 0, false, true), std::nullopt);
  const TensorData wrong = Tensor(t, {2}, {200, 45});
  EXPECT_THAT(CheckLastInclusiveIsTotal({wrong, exact}, input, 0, false, false).value_or(""),
              HasSubstr("inclusive at [1] = 45, but the line's total is 44"));
}

TEST(LastInclusiveIsTotal, SignedTotalsAndFloatTolerance) {
  const TensorData input = Tensor(DType::kInt16, {3}, {-5, 2, -1});
  const TensorData sums = Tensor(DType::kInt16, {3}, {-5, -3, -4});
  EXPECT_EQ(CheckLastInclusiveIsTotal({sums, Expected(sums)}, input, 0, false, false),
            std::nullopt);

  const DType f = DType::kFloat16;
  const TensorData x = Tensor(f, {2}, {0.25, 1024});
  const TensorData rounded = Tensor(f, {2}, {0.25, 1024});  // 1024.25 is not a float16
  EXPECT_EQ(CheckLastInclusiveIsTotal({rounded, Expected(rounded, Expect::kNear, 0.5)}, x, 0, false,
                                      false),
            std::nullopt);
  EXPECT_THAT(CheckLastInclusiveIsTotal({rounded, Expected(rounded, Expect::kNear, 0.1)}, x, 0,
                                        false, false)
                  .value_or(""),
              HasSubstr("but the line's total is 1024.25"));
}

TEST(AllOnes, ReportsTheFirstElementThatIsNotOne) {
  const DType t = DType::kFloat16;
  EXPECT_EQ(CheckAllOnes(Tensor(t, {2, 2}, {1, 1, 1, 1})), std::nullopt);
  EXPECT_THAT(CheckAllOnes(Tensor(t, {2, 2}, {1, 1, -1, 1})).value_or(""),
              HasSubstr("at [1,0] = -1"));
}

TEST(SameBits, DistinguishesNaNPayloadsAndSignedZeros) {
  const DType t = DType::kFloat32;
  TensorData a = Tensor(t, {2}, {0.0, 1.0}), b = a;
  EXPECT_EQ(CheckSameBits(a, b), std::nullopt);
  StoreBits(t, b.Element(0), 0x80000000u);  // -0
  EXPECT_THAT(CheckSameBits(a, b).value_or(""),
              HasSubstr("first at [0] = 0 (0x00000000), second -0 (0x80000000)"));
  StoreBits(t, a.Element(0), 0x7FC00001u);
  StoreBits(t, b.Element(0), 0x7FC00002u);
  EXPECT_NE(CheckSameBits(a, b), std::nullopt);
}

TEST(FlipAlongAxis, ReversesLogicalElementsThroughStrides) {
  const DType t = DType::kInt32;
  const TensorData x = Tensor(t, LayoutDesc(t, {2, 3}, Layout::kTransposed), {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(CheckSameBits(FlipAlongAxis(x, 1), Tensor(t, {2, 3}, {3, 2, 1, 6, 5, 4})),
            std::nullopt);
  EXPECT_EQ(CheckSameBits(FlipAlongAxis(x, 0), Tensor(t, {2, 3}, {4, 5, 6, 1, 2, 3})),
            std::nullopt);
}

TEST(CopyLogical, MovesElementsBetweenLayouts) {
  const DType t = DType::kUInt32;
  const TensorData padded = Tensor(t, LayoutDesc(t, {2, 3}, Layout::kPadded), {1, 2, 3, 4, 5, 6});
  TensorData packed = MakeTensor(PackedDesc(t, {2, 3}));
  CopyLogical(padded, packed);
  EXPECT_EQ(CheckSameBits(packed, Tensor(t, {2, 3}, {1, 2, 3, 4, 5, 6})), std::nullopt);
}

}  // namespace
}  // namespace opcts
