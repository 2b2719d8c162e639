// The case filter as the command line sets it: names validated, repeats a union, exclusions,
// case lists, shards from the flag or the test runners' variables.
#include "conformance/case_filter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

namespace opcts {
namespace {

class CaseFilterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { specs_ = new SpecSet(LoadSpecSet(DefaultSpecDir())); }
  static void TearDownTestSuite() { delete specs_; }

  // Parses `args` with `env`; the error, "" on success.
  std::string Read(const std::vector<std::string>& args,
                   const std::map<std::string, std::string>& env = {}) {
    CliArgs cli(args, {},
                {"--op", "--dtype", "--level", "--id", "--exclude", "--case-list", "--seed",
                 "--max-cases", "--shard"});
    EXPECT_EQ(cli.error(), "");
    filter_ = CaseFilter{};
    const EnvLookup lookup = [env](const char* name) -> const char* {
      const auto it = env.find(name);
      return it == env.end() ? nullptr : it->second.c_str();
    };
    const Result<void> read = ReadCaseFilter(cli, *specs_, lookup, filter_, seed_);
    return read ? "" : read.error().message;
  }
  std::vector<CaseRecipe> Selected() { return SelectCases(*specs_, seed_, filter_); }

  static SpecSet* specs_;
  CaseFilter filter_;
  uint64_t seed_ = 1;
};
SpecSet* CaseFilterTest::specs_ = nullptr;

TEST_F(CaseFilterTest, DtypeNamesMatchInAnySpelling) {
  ASSERT_EQ(Read({"--dtype", "f16"}), "");
  const size_t f16 = Selected().size();
  ASSERT_GT(f16, 0u);
  for (const char* spelling : {"FLOAT16", "float16", "F16"}) {
    ASSERT_EQ(Read({"--dtype", spelling}), "") << spelling;
    EXPECT_EQ(Selected().size(), f16) << spelling;
  }
}

TEST_F(CaseFilterTest, UnknownValuesAreErrorsListingTheValidOnes) {
  const std::string dtype = Read({"--dtype", "float17"});
  EXPECT_NE(dtype.find("unknown --dtype 'float17'"), std::string::npos) << dtype;
  EXPECT_NE(dtype.find("f16 (FLOAT16)"), std::string::npos) << dtype;
  const std::string op = Read({"--op", "cumsum"});
  EXPECT_NE(op.find("unknown --op 'cumsum'"), std::string::npos) << op;
  EXPECT_NE(op.find("dml_scatter_nd"), std::string::npos) << op;
  const std::string level = Read({"--level", "9_9"});
  EXPECT_NE(level.find("unknown --level '9_9'"), std::string::npos) << level;
  EXPECT_NE(level.find("opset3"), std::string::npos) << level;
}

TEST_F(CaseFilterTest, RepeatedFiltersAreAUnion) {
  ASSERT_EQ(Read({"--dtype", "f16"}), "");
  const size_t f16 = Selected().size();
  ASSERT_EQ(Read({"--dtype", "f32"}), "");
  const size_t f32 = Selected().size();
  ASSERT_EQ(Read({"--dtype", "f16", "--dtype", "f32"}), "");
  EXPECT_EQ(Selected().size(), f16 + f32);
}

TEST_F(CaseFilterTest, ExcludeDropsMatchingIds) {
  ASSERT_EQ(Read({"--op", "dml_scatter_nd"}), "");
  const size_t all = Selected().size();
  ASSERT_EQ(Read({"--op", "dml_scatter_nd", "--exclude", "*.invalid.*"}), "");
  const std::vector<CaseRecipe> kept = Selected();
  EXPECT_LT(kept.size(), all);
  for (const CaseRecipe& c : kept) EXPECT_EQ(c.id.find(".invalid."), std::string::npos) << c.id;
}

TEST_F(CaseFilterTest, CaseListKeepsTheListedIdsAndGlobs) {
  ASSERT_EQ(Read({"--op", "dml_cumulative_product", "--max-cases", "3"}), "");
  const std::vector<CaseRecipe> some = Selected();
  ASSERT_EQ(some.size(), 3u);
  const std::string path =
      (std::filesystem::temp_directory_path() / "opcts-case-list.txt").string();
  std::ofstream(path) << "# two exact ids and a glob\n"
                      << some[0].id << "\n  " << some[1].id
                      << "  # trailing comment\n\nopenvino_cumsum_3.bf16.*\n";
  ASSERT_EQ(Read({"--case-list", path}), "");
  const std::vector<CaseRecipe> listed = Selected();
  ASSERT_GT(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, some[0].id);
  EXPECT_EQ(listed[1].id, some[1].id);
  for (size_t i = 2; i < listed.size(); ++i)
    EXPECT_EQ(listed[i].id.rfind("openvino_cumsum_3.bf16.", 0), 0u);

  std::ofstream(path) << "# nothing but comments\n";
  EXPECT_NE(Read({"--case-list", path}).find("lists no case"), std::string::npos);
  EXPECT_NE(Read({"--case-list", path + ".missing"}).find("cannot read"), std::string::npos);
  std::remove(path.c_str());
}

TEST_F(CaseFilterTest, ShardsAreValidatedWithoutWrapping) {
  EXPECT_EQ(Read({"--shard", "1/4"}), "");
  EXPECT_EQ(filter_.shard_index, 1u);
  EXPECT_EQ(filter_.shard_count, 4u);
  for (const char* bad : {"4/4", "0/0", "1", "-1/4", "1/4x", "/4"})
    EXPECT_NE(Read({"--shard", bad}).find("I/N"), std::string::npos) << bad;
  EXPECT_NE(Read({"--shard", "4294967296/4294967297"}).find("not supported"), std::string::npos);
  EXPECT_NE(Read({"--shard", "0/99999999999999999999999"}), "");
}

TEST_F(CaseFilterTest, TestRunnerVariablesSelectTheShard) {
  ASSERT_EQ(Read({}, {{"GTEST_TOTAL_SHARDS", "3"}, {"GTEST_SHARD_INDEX", "2"}}), "");
  EXPECT_EQ(filter_.shard_index, 2u);
  EXPECT_EQ(filter_.shard_count, 3u);
  ASSERT_EQ(Read({}, {{"TEST_TOTAL_SHARDS", "5"}, {"TEST_SHARD_INDEX", "4"}}), "");
  EXPECT_EQ(filter_.shard_count, 5u);
  // The flag wins over the variables.
  ASSERT_EQ(Read({"--shard", "0/2"}, {{"GTEST_TOTAL_SHARDS", "3"}, {"GTEST_SHARD_INDEX", "2"}}),
            "");
  EXPECT_EQ(filter_.shard_count, 2u);
  EXPECT_NE(Read({}, {{"GTEST_TOTAL_SHARDS", "3"}}).find("GTEST_SHARD_INDEX is not set"),
            std::string::npos);
  EXPECT_NE(
      Read({}, {{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "3"}}).find("TEST_SHARD_INDEX"),
      std::string::npos);

  const std::string status =
      (std::filesystem::temp_directory_path() / "opcts-shard-status").string();
  std::remove(status.c_str());
  ASSERT_EQ(Read({}, {{"TEST_TOTAL_SHARDS", "2"},
                      {"TEST_SHARD_INDEX", "0"},
                      {"TEST_SHARD_STATUS_FILE", status}}),
            "");
  EXPECT_TRUE(std::filesystem::exists(status)) << "TEST_SHARD_STATUS_FILE must be touched";
  std::remove(status.c_str());
}

TEST_F(CaseFilterTest, MaxCasesZeroIsAnError) {
  EXPECT_NE(Read({"--max-cases", "0"}).find("--max-cases 0"), std::string::npos);
  ASSERT_EQ(Read({"--max-cases", "7"}), "");
  EXPECT_EQ(Selected().size(), 7u);
}

TEST_F(CaseFilterTest, DescribeRecordsEveryFilter) {
  ASSERT_EQ(Read({"--dtype", "f16", "--dtype", "f32", "--exclude", "*rank8*"}), "");
  const auto d = filter_.Describe();
  EXPECT_EQ(d.at("dtype"), "f16,f32");
  EXPECT_EQ(d.at("op"), "*");
  EXPECT_EQ(d.at("exclude"), "*rank8*");
  EXPECT_EQ(FilterText(filter_), "--dtype f16 --dtype f32 --exclude *rank8*");
}

}  // namespace
}  // namespace opcts
