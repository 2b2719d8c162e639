#include "reports/waivers.h"

#include <gtest/gtest.h>

#include "reports/test_support.h"

namespace opcts {
namespace {

TEST(Glob, MatchesStarsAndQuestionMarks) {
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("*", "anything.at.all"));
  EXPECT_TRUE(GlobMatch("dml_cumulative_product.f32.*", "dml_cumulative_product.f32.rank2.s1"));
  EXPECT_FALSE(GlobMatch("dml_cumulative_product.f32.*", "dml_cumulative_product.f16.rank2.s1"));
  EXPECT_TRUE(GlobMatch("*.rank?.*", "op.f32.rank4.s1"));
  EXPECT_FALSE(GlobMatch("*.rank?.*", "op.f32.rank10.s1"));
  EXPECT_TRUE(GlobMatch("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(GlobMatch("a*b*c", "aXXbYYcd"));
  EXPECT_FALSE(GlobMatch("exact", "exact.more"));
  EXPECT_TRUE(GlobMatch("exact", "exact"));
}

TEST(Dates, IsoDatesMustBeRealDays) {
  EXPECT_TRUE(IsIsoDate("2026-01-31"));
  EXPECT_TRUE(IsIsoDate("2024-02-29"));
  EXPECT_FALSE(IsIsoDate("2025-02-29"));
  EXPECT_FALSE(IsIsoDate("2026-13-01"));
  EXPECT_FALSE(IsIsoDate("2026-1-01"));
  EXPECT_FALSE(IsIsoDate("26-01-01xx"));
  EXPECT_TRUE(IsIsoDate(TodayUtc()));
}

TEST(Waivers, ExpiryIsInclusiveOfTheLastDay) {
  Waiver waiver;
  waiver.expires = "2026-03-31";
  EXPECT_FALSE(IsExpired(waiver, "2026-03-31"));
  EXPECT_TRUE(IsExpired(waiver, "2026-04-01"));
  waiver.expires.reset();
  EXPECT_FALSE(IsExpired(waiver, "2999-01-01"));
}

TEST(Waivers, LoadsFixtureFile) {
  const auto waivers = LoadWaivers(testing::Testdata("waivers.yaml"));
  ASSERT_TRUE(waivers.ok()) << waivers.error().message;
  ASSERT_EQ(waivers->size(), 3u);
  const Waiver& first = (*waivers)[0];
  EXPECT_EQ(first.id_glob, "dml_cumulative_product.f32.*");
  EXPECT_EQ(first.backend_glob, "cpu-simd");
  EXPECT_EQ(first.reason, "known float32 product drift (issue 12)");
  EXPECT_EQ(first.expires, "2099-12-31");
  EXPECT_EQ(first.location, testing::Testdata("waivers.yaml") + ":3");
  EXPECT_EQ((*waivers)[2].backend_glob, "cpu-simd");
  EXPECT_FALSE((*waivers)[2].expires);
}

TEST(Waivers, JsonFormIsAccepted) {
  const auto waivers =
      ParseWaivers(R"({"waivers":[{"id":"a.*","reason":"r","expires":"2030-01-01"}]})", "w.json");
  ASSERT_TRUE(waivers.ok()) << waivers.error().message;
  ASSERT_EQ(waivers->size(), 1u);
  EXPECT_EQ((*waivers)[0].backend_glob, "*");
}

TEST(Waivers, ErrorsNameFileLineAndField) {
  const auto error = [](const std::string& text) {
    return ParseWaivers(text, "w.yaml").error().message;
  };
  EXPECT_EQ(error("waivers:\n  - id: a\n    reason: r\n    expiry: 2030-01-01\n"),
            "w.yaml:4: field \"expiry\": unknown (expected id, backend, reason, expires)");
  EXPECT_EQ(error("waivers:\n  - id: a\n    reason: r\n    expires: 2030-02-30\n"),
            "w.yaml:4: field \"expires\": \"2030-02-30\" is not a date YYYY-MM-DD");
  EXPECT_EQ(error("waivers:\n  - id: a\n"), "w.yaml:2: field \"reason\": missing");
  EXPECT_EQ(error("waivers:\n  - reason: r\n"), "w.yaml:2: field \"id\": missing");
  EXPECT_EQ(error("waivers: 3\n"), "w.yaml:1: field \"waivers\": missing or not a list");
  EXPECT_EQ(error("waiver:\n  - id: a\n"),
            "w.yaml:1: unknown top-level field \"waiver\" (expected \"waivers\")");
  EXPECT_EQ(error(""), "w.yaml:1: expected a map with a \"waivers\" list");
  const std::string syntax = error("waivers:\n  - id: [a\n");
  EXPECT_EQ(syntax.rfind("w.yaml:", 0), 0u) << syntax;
  EXPECT_EQ(LoadWaivers("/nonexistent/w.yaml").error().message,
            "/nonexistent/w.yaml: cannot open for reading");
  EXPECT_EQ(LoadWaivers("/nonexistent/w.yaml").error().code, ErrorCode::kIo);
  EXPECT_EQ(ParseWaivers("waivers: 3\n", "w.yaml").error().code, ErrorCode::kInvalidInput);
}

TEST(Waivers, EmptyListIsFine) {
  const auto waivers = ParseWaivers("waivers: []\n", "w.yaml");
  ASSERT_TRUE(waivers.ok()) << waivers.error().message;
  EXPECT_TRUE(waivers->empty());
}

}  // namespace
}  // namespace opcts
