#include "base/result.h"

#include <memory>

#include <gtest/gtest.h>

namespace opcts {
namespace {

Result<int> Parse(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return InvalidInput("count: '" + text + "' is not a number");
  return std::stoi(text);
}

Result<int> Doubled(const std::string& text) {
  OPCTS_ASSIGN_OR_RETURN(const int n, Parse(text));
  return 2 * n;
}

Result<void> Check(const std::string& text) {
  OPCTS_TRY(Parse(text));
  return {};
}

TEST(Result, CarriesAValueOrTheErrorSayingWhy) {
  const Result<int> good = Parse("21");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 21);
  const Result<int> bad = Parse("x");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(bad.error().message, "count: 'x' is not a number");
}

TEST(Result, TryAndAssignOrReturnPassTheErrorOnUnchanged) {
  EXPECT_EQ(*Doubled("21"), 42);
  EXPECT_EQ(Doubled("x").error().message, "count: 'x' is not a number");
  EXPECT_TRUE(Check("7").ok());
  EXPECT_EQ(Check("").error().code, ErrorCode::kInvalidInput);
}

TEST(Result, HoldsMoveOnlyValues) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(5);
  ASSERT_TRUE(r.ok());
  const std::unique_ptr<int> p = std::move(r).value();
  EXPECT_EQ(*p, 5);
}

}  // namespace
}  // namespace opcts
