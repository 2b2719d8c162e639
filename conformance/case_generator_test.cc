// The generated cases keep their promises: valid cases are valid at the level they name,
// invalid cases break the rule their id names, every constraint and table entry is covered,
// ids are unique and materialization is deterministic.
#include "conformance/case_generator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "conformance/constraints.h"
#include "conformance/scatter_form.h"
#include "spec/element.h"

namespace opcts {
namespace {

class CaseGeneratorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir()));
    cases_ = new std::vector<CaseRecipe>(GenerateCases(*specs_, {}));
  }
  static void TearDownTestSuite() {
    delete cases_;
    delete specs_;
  }
  static SpecSet* specs_;
  static std::vector<CaseRecipe>* cases_;
};
SpecSet* CaseGeneratorTest::specs_ = nullptr;
std::vector<CaseRecipe>* CaseGeneratorTest::cases_ = nullptr;

TEST_F(CaseGeneratorTest, IdsAreUniqueAndDotted) {
  std::set<std::string> ids;
  for (const CaseRecipe& c : *cases_) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_EQ(c.id.rfind(OperatorKey(*c.spec) + ".", 0), 0u) << c.id;
    EXPECT_NE(c.id.find(".s1"), std::string::npos) << c.id;
  }
}

TEST_F(CaseGeneratorTest, ValidCasesBreakNoRuleAndNameTheirLevel) {
  for (const CaseRecipe& c : *cases_) {
    if (c.group != CaseGroup::kValid) continue;
    const Operation op = Materialize(c);
    const std::vector<Violation> v = FindViolations(op, /*with_data=*/true);
    EXPECT_TRUE(v.empty()) << c.id << ": " << v[0].constraint << ": " << v[0].message;
    EXPECT_EQ(c.level, LowestSupportingLevel(op).value_or("")) << c.id;
  }
}

TEST_F(CaseGeneratorTest, InvalidCasesBreakExactlyTheirRule) {
  for (const CaseRecipe& c : *cases_) {
    if (c.group != CaseGroup::kInvalid) continue;
    const std::vector<Violation> v = FindViolations(Materialize(c), /*with_data=*/true);
    std::set<std::string> broken;
    for (const Violation& x : v) broken.insert(x.constraint);
    if (c.abi_fault != AbiFault::kNone) {  // its defect is below the Operation: the only one
      EXPECT_EQ(broken, std::set<std::string>{}) << c.id;
      continue;
    }
    // Rules that cannot be broken alone, and what necessarily breaks with them.
    static const std::map<std::string, std::set<std::string>> kInseparable = {
        // Adding a dimension changes the Sizes too.
        {"same-rank", {"same-sizes", "updates-sizes"}},
        // With InputDimensionCount 0 no tuple size (>= 1) fits, nor does any non-1 dimension.
        {"input-dimension-count-range", {"index-tuple-size", "input-leading-ones"}},
    };
    if (auto it = kInseparable.find(c.violates); it != kInseparable.end())
      for (const std::string& rule : it->second) broken.erase(rule);
    const std::string want =
        c.violates.rfind("param-", 0) == 0 ? "param"
        : (c.violates == "size-zero" || c.violates == "total-bytes-below-minimum" ||
           c.violates == "alignment-not-power-of-two" || c.violates == "dimension-count-zero" ||
           c.violates == "dimension-count-nine")
            ? "tensor-desc"
            : c.violates;
    EXPECT_EQ(broken, std::set<std::string>{want}) << c.id;
  }
}

TEST_F(CaseGeneratorTest, EveryConstraintHasAnInvalidCase) {
  for (const OperatorSpec& spec : specs_->specs)
    for (const Constraint& constraint : spec.constraints) {
      bool found = false;
      for (const CaseRecipe& c : *cases_) found |= c.spec == &spec && c.violates == constraint.id;
      EXPECT_TRUE(found) << spec.name << " " << constraint.id;
    }
}

// The forms every operator's invalid cases include besides its constraints' (the plugin
// template's README lists them for vendors).
TEST_F(CaseGeneratorTest, EveryOperatorHasEveryGenericInvalidForm) {
  for (const OperatorSpec& spec : specs_->specs) {
    std::map<std::string, AbiFault> forms = {
        {"size-zero", AbiFault::kNone},
        {"total-bytes-below-minimum", AbiFault::kNone},
        {"alignment-not-power-of-two", AbiFault::kNone},
        {"dimension-count-zero", AbiFault::kNone},
        {"dimension-count-nine", AbiFault::kNone},
        {"tensor-desc-null", AbiFault::kNullTensorDesc},
        {"data-type-zero", AbiFault::kDataTypeZero},
        {"data-type-past-last", AbiFault::kDataTypePastLast},
        {"binding-count-below", AbiFault::kBindingCountBelow},
        {"binding-count-above", AbiFault::kBindingCountAbove},
        {"binding-size-mismatch", AbiFault::kBindingSizeMismatch}};
    for (const ParamSpec& p : spec.params)
      if (p.type == ParamType::kBool || p.type == ParamType::kEnum)
        forms["param-" + p.name] = AbiFault::kNone;
    for (const auto& entry : forms) {
      const std::string& form = entry.first;  // a lambda may not capture a structured binding
      const AbiFault fault = entry.second;
      const auto c = std::find_if(cases_->begin(), cases_->end(), [&](const CaseRecipe& r) {
        return r.spec == &spec && r.group == CaseGroup::kInvalid && r.violates == form;
      });
      ASSERT_NE(c, cases_->end()) << spec.name << " has no invalid case " << form;
      EXPECT_NE(c->id.find(".invalid." + form + "."), std::string::npos) << c->id;
      EXPECT_EQ(c->abi_fault, fault) << c->id;
    }
  }
}

// The shapes of the updates-sizes bug: indices whose demand no updates tensor can meet.
TEST_F(CaseGeneratorTest, ScatterHasUpdatesNoTensorCanSatisfy) {
  int seen = 0;
  for (const CaseRecipe& c : *cases_) {
    if (c.id.find(".invalid.updates-sizes-unsatisfiable.") == std::string::npos) continue;
    const std::vector<Violation> v = FindViolations(Materialize(c), /*with_data=*/true);
    ASSERT_EQ(v.size(), 1u) << c.id;
    EXPECT_EQ(v[0].constraint, "updates-sizes") << c.id;
    EXPECT_NE(v[0].message.find("cannot satisfy the rule"), std::string::npos) << v[0].message;
    ++seen;
  }
  EXPECT_EQ(seen, 2);  // DirectML's form and ONNX's
}

TEST_F(CaseGeneratorTest, BoolAndRankFormsHoldTheValuesTheirNamesSay) {
  int seen = 0;
  for (const CaseRecipe& c : *cases_) {
    if (c.group != CaseGroup::kInvalid) continue;
    const Operation op = Materialize(c);
    const std::string first = c.spec->tensors.front().name;
    if (c.violates == "dimension-count-zero") {
      EXPECT_EQ(op.Tensor(first)->desc.rank(), 0u) << c.id;
    }
    if (c.violates == "dimension-count-nine") {
      EXPECT_EQ(op.Tensor(first)->desc.rank(), 9u) << c.id;
    }
    const ParamSpec* p =
        c.violates.rfind("param-", 0) == 0 ? c.spec->FindParam(c.violates.substr(6)) : nullptr;
    if (p == nullptr || p->type != ParamType::kBool) continue;
    EXPECT_EQ(op.Param(p->name), 2) << c.id;
    ++seen;
  }
  EXPECT_GT(seen, 0);
}

// The default run sends every index dtype's huge values (0xFFFFFFFF, 2^64 - 1; the minimum's
// 2^31 and 2^63 bits), in tensors that also hold in-range coordinates.
TEST_F(CaseGeneratorTest, ScatterIndicesReachTheIndexDtypesExtremes) {
  std::map<std::pair<const OperatorSpec*, DType>, std::set<uint64_t>> seen;
  for (const CaseRecipe& c : *cases_) {
    if (c.spec->family.name != "scatter_nd" || c.value_tag != "extremes") continue;
    const Operation op = Materialize(c);
    const TensorData& indices = *op.Tensor(ScatterFormOf(*c.spec).indices);
    std::set<uint64_t>& values = seen[{c.spec, indices.desc.dtype}];
    for (uint64_t i = 0; i < ElementCount(indices.desc); ++i)
      values.insert(LoadBits(indices.desc.dtype, indices.Element(i)));
  }
  int checked = 0;
  for (const OperatorSpec& spec : specs_->specs) {
    if (spec.family.name != "scatter_nd") continue;
    for (DType t : TopSupport(spec).tensors.at(ScatterFormOf(spec).indices).dtypes) {
      const std::set<uint64_t>& values = seen[{&spec, t}];
      const uint64_t huge = IsSignedInt(t) ? uint64_t{1} << (DTypeBits(t) - 1) : BitsMask(t);
      EXPECT_TRUE(values.count(huge)) << spec.name << " " << DTypeName(t);
      EXPECT_TRUE(values.count(0) && values.count(1)) << spec.name << " " << DTypeName(t);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 + 1);  // DirectML's four index dtypes, ONNX's INT64
}

// Every float reduction (ONNX ScatterND's add, mul, max, min, each float dtype of its tables)
// meets the smallest subnormal, ±infinity, NaN and -0.0 in its input and updates, with unique
// and with repeated tuples: the random values of the other reduction cases hold none of them.
TEST_F(CaseGeneratorTest, ScatterReductionsMeetTheFloatSpecials) {
  std::map<std::tuple<const OperatorSpec*, DType, int64_t>, std::set<std::string>> seen;
  for (const CaseRecipe& c : *cases_) {
    const std::string& tag = c.value_tag;
    const std::string suffix = "-specials";
    if (tag.size() < suffix.size() ||
        tag.compare(tag.size() - suffix.size(), suffix.size(), suffix))
      continue;
    const ScatterForm form = ScatterFormOf(*c.spec);
    std::set<std::string>& found = seen[{c.spec, c.dtype, c.params.at(form.reduction_param)}];
    found.insert(tag);
    const Operation op = Materialize(c);
    for (const std::string& name : {form.input, form.updates}) {
      const TensorData& t = *op.Tensor(name);
      for (uint64_t i = 0; i < ElementCount(t.desc); ++i) {
        const long double x = BitsToLongDouble(c.dtype, LoadBits(c.dtype, t.Element(i)));
        if (std::isnan(x)) found.insert("nan");
        if (std::isinf(x)) found.insert(x > 0 ? "+inf" : "-inf");
        if (x == 0 && std::signbit(x)) found.insert("-0");
        if (std::fabs(x) == SmallestSubnormal(c.dtype)) found.insert("subnormal");
      }
    }
  }
  int checked = 0;
  for (const OperatorSpec& spec : specs_->specs) {
    if (spec.family.name != "scatter_nd" || ScatterFormOf(spec).reduction_param.empty()) continue;
    const ParamSpec& reduction = *spec.FindParam(ScatterFormOf(spec).reduction_param);
    for (DType t : TopSupport(spec).tensors.at(ScatterFormOf(spec).input).dtypes) {
      if (!IsFloat(t)) continue;
      for (int64_t r = 1; r < static_cast<int64_t>(reduction.enum_values.size()); ++r) {
        const std::set<std::string>& found = seen[{&spec, t, r}];
        for (const char* want :
             {"unique-specials", "duplicates-specials", "nan", "+inf", "-inf", "-0", "subnormal"})
          EXPECT_TRUE(found.count(want))
              << spec.name << " " << DTypeName(t) << " reduction " << r << ": no " << want;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 4 * 4);  // ONNX: float16, bfloat16, float32, float64 x add, mul, max, min
}

TEST_F(CaseGeneratorTest, EveryTableEntryHasCases) {
  for (const OperatorSpec& spec : specs_->specs) {
    std::set<std::pair<DType, unsigned>> covered;
    for (const CaseRecipe& c : *cases_)
      if (c.spec == &spec && c.group == CaseGroup::kValid)
        covered.insert({c.dtype, static_cast<unsigned>(c.shape.size())});
    for (const SupportLevel& level : spec.support) {
      const TensorSupport& data = level.tensors.at(spec.tensors.front().name);
      for (DType t : data.dtypes)
        for (unsigned r = data.min_rank; r <= data.max_rank; ++r)
          EXPECT_TRUE(covered.count({t, r})) << spec.name << " " << DTypeName(t) << " rank " << r;
    }
  }
}

TEST_F(CaseGeneratorTest, CoversTheIssueCaseClasses) {
  std::map<std::string, int> seen;
  for (const CaseRecipe& c : *cases_) {
    ++seen["layout:" + std::string(LayoutName(c.layout))];
    ++seen["values:" + c.value_tag];
    if (c.group == CaseGroup::kValid && !c.level.empty()) {
      uint64_t longest = 0;
      for (uint32_t s : c.shape) longest = std::max<uint64_t>(longest, s);
      if (longest > 65536) ++seen["long>65536:" + c.spec->name];
    }
    if (c.id.find(".axism") != std::string::npos) ++seen["negative-axis"];
    if (c.level.empty() && c.group == CaseGroup::kValid) ++seen["outside-tables"];
  }
  for (const char* key : {"layout:packed",
                          "layout:padded",
                          "layout:transposed",
                          "layout:broadcast",
                          "layout:broadcast-axis",
                          "layout:in-place",
                          "values:random",
                          "values:specials",
                          "values:extremes",
                          "values:unique",
                          "values:boundary",
                          "values:negative",
                          "values:duplicates",
                          "values:out-of-range",
                          "values:neg-zero",
                          "values:cancellation",
                          "values:zero-overflow",
                          "values:underflow-recover",
                          "negative-axis",
                          "outside-tables",
                          "long>65536:DML_CUMULATIVE_SUMMATION",
                          "long>65536:DML_CUMULATIVE_PRODUCT",
                          "long>65536:OPENVINO_CUMSUM_3"})
    EXPECT_GT(seen[key], 0) << key;
}

// The scanned lines of a valid scan case's input, each in axis order, read through the layout.
std::vector<std::vector<long double>> ScanLines(const CaseRecipe& c) {
  const ScanBinding binding = ScanBindingOf(*c.spec);
  const int64_t signed_axis = binding.axis_param.empty() ? c.tensors.at(binding.axis_tensor).scalar
                                                         : c.params.at(binding.axis_param);
  const size_t axis = static_cast<size_t>(
      signed_axis < 0 ? signed_axis + static_cast<int64_t>(c.shape.size()) : signed_axis);
  uint64_t inner = 1;
  for (size_t d = axis + 1; d < c.shape.size(); ++d) inner *= c.shape[d];
  const uint64_t n = c.shape[axis];
  const Operation op = Materialize(c);
  const TensorData& input = *op.Tensor(binding.input);
  const StridedIndexer indexer(input.desc);
  std::vector<std::vector<long double>> lines;
  for (uint64_t first = 0; first < ElementCount(input.desc); ++first) {
    if (first / inner % n != 0) continue;  // not a line's first element
    std::vector<long double>& line = lines.emplace_back();
    for (uint64_t k = 0; k < n; ++k)
      line.push_back(BitsToLongDouble(
          c.dtype, LoadBits(c.dtype, input.Element(indexer.BufferIndex(first + k * inner)))));
  }
  return lines;
}

bool IsNegativeZero(long double x) { return x == 0 && std::signbit(x); }

// The float edge classes hold what their names promise, in every case that has them, and stay
// a small part of the default run.
TEST_F(CaseGeneratorTest, FloatEdgeClassesHoldTheirEdges) {
  std::map<std::string, int> cases;
  for (const CaseRecipe& c : *cases_) {
    if (c.group != CaseGroup::kValid) continue;
    const std::string& tag = c.value_tag;
    if (tag != "neg-zero" && tag != "cancellation" && tag != "zero-overflow" &&
        tag != "underflow-recover")
      continue;
    ++cases[tag];
    ASSERT_TRUE(IsFloat(c.dtype)) << c.id;
    const std::vector<std::vector<long double>> lines = ScanLines(c);
    const long double max = MaxFinite(c.dtype), tiny = SmallestSubnormal(c.dtype);
    bool some_line_all_negative_zero = false, some_zero_before_two_factors = false;
    for (const std::vector<long double>& x : lines) {
      ASSERT_GE(x.size(), 2u) << c.id;
      if (tag == "neg-zero") {
        // -0.0 heads the line in both directions.
        EXPECT_TRUE(IsNegativeZero(x.front()) && IsNegativeZero(x.back())) << c.id;
        some_line_all_negative_zero |= std::all_of(x.begin(), x.end(), IsNegativeZero);
      } else if (tag == "cancellation") {
        // Terms ±L alternate in sign; each term between is lost when added to L in the dtype,
        // and the exact partial sums come back within a few units of 0.
        const long double large = 4 / UnitRoundoff(c.dtype);
        long double sign = 0, sum = 0, smallest = large;
        for (long double v : x) {
          sum += v;
          smallest = std::min(smallest, std::fabs(sum));
          if (std::fabs(v) == large) {
            EXPECT_NE(v, sign) << c.id;
            sign = v;
          } else {
            EXPECT_EQ(DoubleToBits(c.dtype, static_cast<double>(large + v)),
                      DoubleToBits(c.dtype, static_cast<double>(large)))
                << c.id << ": " << static_cast<double>(v);
          }
        }
        EXPECT_NE(sign, 0) << c.id;
        EXPECT_LE(smallest, 2 * x.size()) << c.id;
      } else if (tag == "zero-overflow") {
        // One zero; the product of any two other factors overflows the dtype.
        EXPECT_EQ(std::count(x.begin(), x.end(), 0.0L), 1) << c.id;
        for (long double v : x) {
          if (v != 0) {
            EXPECT_GT(v * v, max) << c.id;
          }
        }
        some_zero_before_two_factors |= std::find(x.begin(), x.end(), 0.0L) < x.end() - 2;
      } else {
        // The exact product underflows the dtype (below half its smallest subnormal) after two
        // factors and is ±1 again after four.
        ASSERT_GE(x.size(), 4u) << c.id;
        EXPECT_LT(std::fabs(x[0] * x[1]), tiny / 2) << c.id;
        EXPECT_EQ(std::fabs(x[0] * x[1] * x[2] * x[3]), 1.0L) << c.id;
      }
    }
    // Line 0 of every -0.0 case is -0.0 throughout; the first line has its zero first.
    if (tag == "neg-zero") {
      EXPECT_TRUE(some_line_all_negative_zero) << c.id;
    }
    if (tag == "zero-overflow") {
      EXPECT_TRUE(some_zero_before_two_factors) << c.id;
    }
  }
  EXPECT_GT(cases["neg-zero"], 0);
  EXPECT_GT(cases["cancellation"], 0);
  EXPECT_GT(cases["zero-overflow"], 0);
  EXPECT_GT(cases["underflow-recover"], 0);
  EXPECT_LE(cases["neg-zero"] + cases["cancellation"] + cases["zero-overflow"] +
                cases["underflow-recover"],
            300);
}

TEST_F(CaseGeneratorTest, MaterializeIsDeterministic) {
  const std::vector<CaseRecipe> again = GenerateCases(*specs_, {});
  ASSERT_EQ(again.size(), cases_->size());
  for (size_t i = 0; i < cases_->size(); i += 97) {
    ASSERT_EQ(again[i].id, (*cases_)[i].id);
    const Operation a = Materialize((*cases_)[i]), b = Materialize(again[i]);
    for (const auto& [name, t] : a.tensors)
      EXPECT_EQ(t.bytes, b.tensors.at(name).bytes) << (*cases_)[i].id;
  }
}

TEST(Layout, EveryLayoutHasOneNameThatRoundTrips) {
  std::set<std::string_view> names;
  for (Layout l : {Layout::kPacked, Layout::kPadded, Layout::kTransposed, Layout::kBroadcast,
                   Layout::kBroadcastAxis, Layout::kInPlace}) {
    EXPECT_TRUE(names.insert(LayoutName(l)).second) << LayoutName(l);
    EXPECT_EQ(LayoutNamed(LayoutName(l)), l);
  }
  EXPECT_EQ(LayoutNamed("diagonal"), std::nullopt);
}

}  // namespace
}  // namespace opcts
