// The benchmark cases derived from the shipped specs: the dtypes each spec allows (listed here by
// hand from the YAML files), the layout classes and sizes, and that every case is a valid
// operation whose byte count matches its tensors.
#include "bench/bench_cases.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/scatter_form.h"
#include "spec/element.h"

namespace opcts::bench {
namespace {

const SpecSet& Specs() {
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  return specs;
}

const std::vector<BenchCase>& Cases() {
  static const std::vector<BenchCase> cases = GenerateBenchCases(Specs());
  return cases;
}

TEST(BenchCases, SpecsLoad) { ASSERT_TRUE(Specs().errors.empty()) << Specs().errors.front(); }

// Of f32 f16 i32 i64 f64 u8, what each spec's widest table lists for its data tensor (the
// first one). The shipped specs' tables, read here from the YAML, include: DML cumulative
// product {f32, f16}, OpenVINO CumSum all six.
TEST(BenchCases, TakeTheRepresentativeDTypesEachSpecAllows) {
  std::map<std::string, std::set<std::string>> expected;
  for (const OperatorSpec& spec : Specs().specs) {
    const auto& dtypes = spec.support.back().tensors.at(spec.tensors.front().name).dtypes;
    for (const char* t : {"f32", "f16", "i32", "i64", "f64", "u8"})
      for (DType d : dtypes)
        if (DTypeShortName(d) == std::string(t)) expected[OperatorKey(spec)].insert(t);
  }
  EXPECT_EQ(expected.at("dml_cumulative_product"), (std::set<std::string>{"f32", "f16"}));
  EXPECT_EQ(expected.at("openvino_cumsum_3").size(), 6u);
  std::map<std::string, std::set<std::string>> seen;
  for (const BenchCase& c : Cases()) seen[c.op].insert(c.dtype);
  EXPECT_EQ(seen, expected);
}

TEST(BenchCases, CoverEveryLayoutAndSizeOnce) {
  std::map<std::string, std::set<std::string>> layouts;
  std::set<std::string> names;
  std::map<std::string, int> per_op;
  for (const BenchCase& c : Cases()) {
    EXPECT_TRUE(names.insert(c.Name("b")).second) << "duplicate " << c.Name("b");
    layouts[c.op].insert(c.layout);
    ++per_op[c.op];
  }
  const std::set<std::string> scan = {"1d", "inner", "outer", "middle", "strided", "in-place"};
  EXPECT_EQ(layouts["dml_cumulative_summation"], scan);
  EXPECT_EQ(layouts["dml_cumulative_product"], scan);
  std::set<std::string> no_in_place = scan;  // OpenVINO's output may not alias its input
  no_in_place.erase("in-place");
  EXPECT_EQ(layouts["openvino_cumsum_3"], no_in_place);
  std::set<std::string> scatter;
  for (const char* slice : {"slice64B", "slice1KiB", "slice16KiB"})
    for (const char* variant : {"-all", "-sparse", "-sparse-in-place"})
      scatter.insert(std::string(slice) + variant);
  EXPECT_EQ(layouts["dml_scatter_nd"], scatter);
  // dtypes x layouts x 3 sizes
  EXPECT_EQ(per_op["dml_cumulative_summation"], 4 * 6 * 3);
  EXPECT_EQ(per_op["dml_cumulative_product"], 2 * 6 * 3);
  EXPECT_EQ(per_op["openvino_cumsum_3"], 6 * 5 * 3);
  EXPECT_EQ(per_op["dml_scatter_nd"], 6 * 9 * 3);
}

TEST(BenchCases, SizeClassesHoldTheirBytes) {
  for (const BenchCase& c : Cases()) {
    const uint64_t tensor_bytes = c.elements * DTypeSize(c.recipe.dtype);
    if (c.size == "L2") {
      EXPECT_EQ(tensor_bytes, 128u << 10) << c.Name("b");
    } else if (c.size == "L3") {
      EXPECT_EQ(tensor_bytes, 4u << 20) << c.Name("b");
    } else {
      EXPECT_EQ(c.size, "DRAM");
      EXPECT_GE(c.elements, 16u << 20) << c.Name("b");
      EXPECT_GE(tensor_bytes, 64u << 20) << c.Name("b");
    }
  }
}

uint64_t Bytes(const TensorDesc& desc) { return ElementCount(desc) * DTypeSize(desc.dtype); }

uint64_t TensorBytes(const Operation& op, TensorRole role, bool first_only) {
  uint64_t bytes = 0;
  for (const TensorSpec& t : op.spec->tensors) {
    if (t.role != role || op.Tensor(t.name) == nullptr) continue;
    bytes += Bytes(op.Tensor(t.name)->desc);
    if (first_only) break;
  }
  return bytes;
}

// Small cases are materialized: valid operations, the axis where the layout says, and the byte
// count the memcpy baseline copies equal to what the tensors hold.
TEST(BenchCases, SmallCasesAreValidOperations) {
  int checked = 0;
  for (const BenchCase& c : Cases()) {
    if (c.size != "L2") continue;
    SCOPED_TRACE(c.Name("b"));
    const Operation op = Materialize(c.recipe);
    for (const Violation& v : FindViolations(op, /*with_data=*/true))
      ADD_FAILURE() << v.constraint << ": " << v.message;
    EXPECT_EQ(op.in_place, c.layout.ends_with("in-place"));
    if (op.spec->family.name == "scatter_nd") {
      const uint64_t moved = TensorBytes(op, TensorRole::kInput, false) -
                             TensorBytes(op, TensorRole::kInput, true);  // updates + indices
      EXPECT_EQ(c.bytes, moved + (op.in_place ? 0 : TensorBytes(op, TensorRole::kOutput, false)));
      // In place, the scattered copy moves the updates' slices into rows that tile the output.
      const ScatterForm form = ScatterFormOf(*op.spec);
      const uint64_t slice_bytes = c.layout.starts_with("slice64B")    ? 64
                                   : c.layout.starts_with("slice1KiB") ? 1024
                                                                       : 16384;
      if (op.in_place) {
        EXPECT_EQ(c.scatter.slice_bytes, slice_bytes);
        EXPECT_EQ(c.scatter.count * slice_bytes, Bytes(op.Tensor(form.updates)->desc));
        EXPECT_EQ(c.scatter.rows * slice_bytes, Bytes(op.Tensor(form.input)->desc));
      } else {
        EXPECT_EQ(c.scatter.count, 0u);
      }
    } else {
      EXPECT_EQ(c.bytes, TensorBytes(op, TensorRole::kOutput, false));
      const std::vector<uint32_t>& sizes = c.recipe.shape;
      const std::string axis_role = op.spec->Role("axis");
      int64_t axis = op.Param(axis_role).value_or(-1);
      if (const TensorData* t = op.Tensor(axis_role))
        axis = BitsToInt64(t->desc.dtype, LoadBits(t->desc.dtype, t->Element(0)));
      const int64_t expected = c.layout == "1d" || c.layout == "outer" ? 0
                               : c.layout == "middle"                  ? 1
                                                      : static_cast<int64_t>(sizes.size()) - 1;
      EXPECT_EQ(axis, expected);
      const TensorDesc& input = op.Tensor(op.spec->tensors[0].name)->desc;
      EXPECT_EQ(input.strides.empty(), c.layout != "strided");
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(Cases().size() / 3));
}

}  // namespace
}  // namespace opcts::bench
