#include "conformance/case_id.h"

#include <gtest/gtest.h>

#include "conformance/case_generator.h"
#include "conformance/spec_set.h"

namespace opcts {
namespace {

TEST(CaseId, ReadsWhatItWrites) {
  const CaseId id{"dml_scatter_nd",
                  true,
                  DType::kFloat16,
                  3,
                  {"2x3x4", "in3-idx2-3x1-u32", "packed", "unique"},
                  42};
  EXPECT_EQ(id.ToString(),
            "dml_scatter_nd.prop.f16.rank3.2x3x4.in3-idx2-3x1-u32.packed.unique.s42");
  EXPECT_EQ(id.Stem(), "dml_scatter_nd.prop.f16.rank3.2x3x4.in3-idx2-3x1-u32.packed.unique");
  const Result<CaseId> parsed = CaseId::Parse(id.ToString());
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->ToString(), id.ToString());
  EXPECT_TRUE(parsed->property);
  EXPECT_EQ(parsed->dtype, DType::kFloat16);
  EXPECT_EQ(parsed->rank, 3u);
  EXPECT_EQ(parsed->seed, 42u);
}

TEST(CaseId, EveryGeneratedIdParsesBackToItself) {
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  ASSERT_TRUE(specs.errors.empty());
  const std::vector<CaseRecipe> cases = GenerateCases(specs, {.seed = 7});
  ASSERT_GT(cases.size(), 1000u);
  for (const CaseRecipe& c : cases) {
    const Result<CaseId> id = CaseId::Parse(c.id);
    ASSERT_TRUE(id) << id.error().message;
    EXPECT_EQ(id->ToString(), c.id);
    EXPECT_EQ(id->seed, 7u) << c.id;
    EXPECT_EQ(id->dtype, c.dtype) << c.id;
    EXPECT_FALSE(id->property) << c.id;
  }
}

TEST(CaseId, MalformedIdsAreErrorsNamingThePart) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"dml_cumulative_summation", "too few parts"},
           {"dml_cumulative_summation.f33.rank1.5.axis0.s1", "'f33' is no data type"},
           {"dml_cumulative_summation.f32.rankx.5.axis0.s1", "'rankx' is not rank<N>"},
           {"dml_cumulative_summation.f32.rank1.5.axis0.seven", "does not end in .s<seed>"},
           {"dml_cumulative_summation.f32.rank1..axis0.s1", "an empty part"}}) {
    const Result<CaseId> id = CaseId::Parse(text);
    ASSERT_FALSE(id) << text;
    EXPECT_NE(id.error().message.find(why), std::string::npos) << id.error().message;
    EXPECT_EQ(id.error().code, ErrorCode::kInvalidInput);
  }
}

}  // namespace
}  // namespace opcts
