// The generators: every case they draw is valid by the spec, complete, deterministic; variants
// of one draw share their input; and over many draws they reach every dtype and rank of the
// spec's tables (nothing hard-coded).
#include "conformance/properties/case_gen.h"

#include <set>
#include <stdexcept>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "conformance/case_generator.h"
#include "conformance/case_id.h"
#include "conformance/constraints.h"
#include "conformance/properties/property_support.h"
#include "conformance/property_case.h"
#include "spec/element.h"

namespace opcts {
namespace {

const OperatorSpec& Spec(const std::string& name) {
  const OperatorSpec* spec = LoadedSpecs().Find(name);
  if (spec == nullptr) throw std::runtime_error("no spec " + name + " in " + DefaultSpecDir());
  return *spec;
}

std::vector<const OperatorSpec*> GeneratedSpecs() {
  std::vector<const OperatorSpec*> specs;
  for (const OperatorSpec& spec : LoadedSpecs().specs) specs.push_back(&spec);
  return specs;
}

TEST(CaseGen, EveryShippedOperatorHasAGenerator) {
  ASSERT_TRUE(LoadedSpecs().errors.empty()) << LoadedSpecs().errors.front();
  for (const OperatorSpec& spec : LoadedSpecs().specs) EXPECT_NO_THROW(CaseGen(spec)) << spec.name;
}

RC_GTEST_PROP(CaseGen, DrawsValidCompleteCases, ()) {
  const OperatorSpec& spec = **rc::gen::elementOf(GeneratedSpecs());
  const CaseRecipe recipe = *CaseGen(spec);
  RC_ASSERT(recipe.id.rfind(OperatorKey(spec) + ".prop.", 0) == 0);
  RC_ASSERT(!recipe.level.empty());
  const Operation op = Materialize(recipe);
  for (const Violation& v : FindViolations(op, /*with_data=*/true))
    RC_FAIL(recipe.id + " breaks " + v.constraint + ": " + v.message);
  for (const auto& [name, t] : op.tensors)
    RC_ASSERT(
        ValidateTensorDesc(t.desc, spec.FindTensor(name)->role == TensorRole::kScalarInput).ok());
  const Operation again = Materialize(recipe);  // the same bytes every time
  for (const auto& [name, t] : op.tensors) RC_ASSERT(again.tensors.at(name).bytes == t.bytes);
}

// `opcts repro` resolves every id a property test prints: the id alone rebuilds the same case.
RC_GTEST_PROP(CaseGen, EveryDrawnIdLeadsBackToItsCase, ()) {
  const OperatorSpec& spec = **rc::gen::elementOf(GeneratedSpecs());
  const CaseRecipe recipe = *CaseGen(spec);
  const Result<CaseId> id = CaseId::Parse(recipe.id);
  if (!id) RC_FAIL(id.error().message);
  RC_ASSERT(id->property);
  const Result<CaseRecipe> again = PropertyCaseRecipe(LoadedSpecs(), *id);
  if (!again) RC_FAIL(again.error().message);
  RC_ASSERT(again->id == recipe.id);
  RC_ASSERT(again->level == recipe.level);
  const Operation op = Materialize(recipe), rebuilt = Materialize(*again);
  RC_ASSERT(rebuilt.params == op.params);
  for (const auto& [name, t] : op.tensors) {
    RC_ASSERT(rebuilt.tensors.at(name).desc == t.desc);
    RC_ASSERT(rebuilt.tensors.at(name).bytes == t.bytes);
  }
}

TEST(CaseGen, AnIdNoDrawMakesIsAnError) {
  // Exclusive and reverse swapped in the attributes' order: it reads, but no draw writes it so.
  const Result<CaseId> id =
      CaseId::Parse("dml_cumulative_summation.prop.f32.rank1.3.axis0-incl-fwd.packed.random.s5");
  ASSERT_TRUE(id);
  const Result<CaseRecipe> r = PropertyCaseRecipe(LoadedSpecs(), *id);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no property test draws it"), std::string::npos)
      << r.error().message;
  const Result<CaseRecipe> shape = PropertyCaseRecipe(
      LoadedSpecs(),
      *CaseId::Parse("dml_cumulative_summation.prop.f32.rank1.3y.axis0-fwd-incl.packed.random.s5"));
  ASSERT_FALSE(shape);
  EXPECT_NE(shape.error().message.find("'3y' is not a shape"), std::string::npos)
      << shape.error().message;
}

RC_GTEST_PROP(CaseGen, ScanVariantsShareTheirInput, ()) {
  const OperatorSpec& spec = Spec("DML_CUMULATIVE_SUMMATION");
  ScanChoices choices = *ScanChoicesGen(spec, {});
  const Operation first = Materialize(BuildScanRecipe(choices));
  choices.exclusive = !choices.exclusive;
  choices.reverse = !choices.reverse;
  const Operation variant = Materialize(BuildScanRecipe(choices));
  RC_ASSERT(first.tensors.at(ScanInputName(spec)).bytes ==
            variant.tensors.at(ScanInputName(spec)).bytes);
}

// Draws many choices outside a property, at the sizes a 100-test run uses, and collects what
// they cover.
template <typename Choices, typename Key>
std::set<std::pair<DType, unsigned>> Coverage(const rc::Gen<Choices>& gen, Key key) {
  std::set<std::pair<DType, unsigned>> seen;
  for (int i = 0; i < 4000; ++i) seen.insert(key(gen(rc::Random(i), i % 100).value()));
  return seen;
}

std::set<std::pair<DType, unsigned>> TableEntries(const OperatorSpec& spec,
                                                  const std::string& tensor) {
  std::set<std::pair<DType, unsigned>> entries;
  for (const SupportLevel& level : spec.support)
    for (DType t : level.tensors.at(tensor).dtypes)
      for (unsigned rank = level.tensors.at(tensor).min_rank;
           rank <= level.tensors.at(tensor).max_rank; ++rank)
        entries.insert({t, rank});
  return entries;
}

TEST(CaseGen, ScanDrawsReachEveryTableEntry) {
  for (const OperatorSpec* spec : GeneratedSpecs()) {
    if (!IsScanFamily(*spec)) continue;
    EXPECT_EQ(Coverage(ScanChoicesGen(*spec, {}),
                       [](const ScanChoices& c) {
                         return std::pair{c.dtype, static_cast<unsigned>(c.shape.size())};
                       }),
              TableEntries(*spec, ScanInputName(*spec)))
        << spec->name;
  }
}

TEST(CaseGen, ScatterDrawsReachEveryTableEntry) {
  const OperatorSpec& spec = Spec("DML_SCATTER_ND");
  const ScatterForm n = ScatterFormOf(spec);
  EXPECT_EQ(Coverage(ScatterChoicesGen(spec, {}),
                     [](const ScatterChoices& c) {
                       return std::pair{c.dtype, static_cast<unsigned>(c.shapes.input.size())};
                     }),
            TableEntries(spec, n.input));
  EXPECT_EQ(
      Coverage(ScatterChoicesGen(spec, {}),
               [](const ScatterChoices& c) {
                 return std::pair{c.index_dtype, static_cast<unsigned>(c.shapes.indices.size())};
               }),
      TableEntries(spec, n.indices));
}

// ONNX ScatterND's float reductions are drawn with data from the float specials too, and only
// they: every float dtype x reduction the tables list.
TEST(CaseGen, ScatterDrawsFloatReductionsWithSpecials) {
  const OperatorSpec& spec = Spec("ONNX_SCATTER_ND");
  const rc::Gen<ScatterChoices> gen = ScatterChoicesGen(spec, {});
  std::set<std::pair<DType, int64_t>> float_reductions, with_specials;
  for (int i = 0; i < 4000; ++i) {
    const ScatterChoices c = gen(rc::Random(i), i % 100).value();
    if (IsFloat(c.dtype) && c.reduction != 0) float_reductions.insert({c.dtype, c.reduction});
    if (!c.specials) continue;
    EXPECT_TRUE(IsFloat(c.dtype) && c.reduction != 0) << BuildScatterRecipe(c).id;
    with_specials.insert({c.dtype, c.reduction});
  }
  EXPECT_EQ(float_reductions.size(), 4u * 4u);  // float16, bfloat16, float32, float64 x 4
  EXPECT_EQ(with_specials, float_reductions);
}

// Distinct targets: no two index tuples name the same element (negative coordinates counted
// from the back).
RC_GTEST_PROP(CaseGen, UniqueTargetScattersHaveDistinctTuples, ()) {
  const OperatorSpec& spec = Spec("DML_SCATTER_ND");
  const ScatterChoices choices = *ScatterChoicesGen(spec, {.unique_targets = true});
  const CaseRecipe recipe = BuildScatterRecipe(choices);
  const Operation op = Materialize(recipe);
  const TensorData& indices = op.tensors.at(ScatterFormOf(spec).indices);
  const std::vector<uint32_t>& dims = recipe.tensors.at(ScatterFormOf(spec).indices).index_dims;
  const StridedIndexer indexer(indices.desc);
  std::set<std::vector<int64_t>> tuples;
  const uint64_t q = dims.size();
  for (uint64_t i = 0; i < ElementCount(indices.desc); i += q) {
    std::vector<int64_t> tuple;
    for (uint64_t c = 0; c < q; ++c) {
      const DType t = indices.desc.dtype;
      const int64_t v = BitsToInt64(t, LoadBits(t, indices.Element(indexer.BufferIndex(i + c))));
      RC_ASSERT(v >= -static_cast<int64_t>(dims[c]) && v < static_cast<int64_t>(dims[c]));
      tuple.push_back(v < 0 ? v + dims[c] : v);
    }
    RC_ASSERT(tuples.insert(tuple).second);
  }
}

}  // namespace
}  // namespace opcts
