#include "reports/journal_diff.h"

#include <gtest/gtest.h>

#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::CaseLine;
using testing::HeaderLine;

constexpr DiffAllowances kAllowNothing{};
constexpr DiffAllowances kAllowMissing{true, false};
constexpr DiffAllowances kAllowBoth{true, true};

// A one-backend journal ("ref") with the given id -> status lines.
Report Make(const std::vector<std::pair<std::string, std::string>>& cases, uint64_t seed = 1,
            const std::vector<Waiver>& waivers = {}, const ReportOptions& options = {}) {
  std::string text = HeaderLine("ref", seed) + "\n";
  for (const auto& [id, status] : cases) text += CaseLine("ref", id, status, "why " + id) + "\n";
  auto journal = ParseJournal(text, "inline.jsonl");
  EXPECT_TRUE(journal.ok()) << journal.error().message;
  ReportOptions with_today = options;
  with_today.today = "2026-01-01";
  auto report = BuildReport({{"inline.jsonl", *journal}}, waivers, with_today);
  EXPECT_TRUE(report.ok()) << report.error().message;
  return std::move(report).value();
}

std::vector<std::string> Ids(const std::vector<DiffEntry>& entries) {
  std::vector<std::string> ids;
  ids.reserve(entries.size());
  for (const auto& entry : entries) ids.push_back(entry.id);
  return ids;
}

TEST(Diff, ClassifiesEveryKindOfChange) {
  const Report base =
      Make({{"a", "Pass"}, {"b", "Fail"}, {"c", "Pass"}, {"d", "Pass"}, {"e", "Fail"}});
  const Report next =
      Make({{"a", "Fail"}, {"b", "Pass"}, {"c", "NotSupported"}, {"e", "Crash"}, {"f", "Pass"}});
  const JournalDiff diff = DiffReports(base, next);
  EXPECT_EQ(Ids(diff.regressions), std::vector<std::string>{"a"});
  EXPECT_EQ(Ids(diff.fixed), std::vector<std::string>{"b"});
  EXPECT_EQ(Ids(diff.changed), std::vector<std::string>{"e"});
  EXPECT_EQ(Ids(diff.missing), std::vector<std::string>{"d"});
  EXPECT_EQ(Ids(diff.coverage_lost), (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(Ids(diff.added), std::vector<std::string>{"f"});
  ASSERT_EQ(diff.regressions.size(), 1u);
  EXPECT_EQ(diff.regressions[0].backend, "ref");
  EXPECT_EQ(diff.regressions[0].base_status, Status::kPass);
  EXPECT_EQ(diff.regressions[0].new_status, Status::kFail);
  EXPECT_EQ(diff.regressions[0].message, "why a");
  EXPECT_EQ(diff.regressions[0].repro, "opcts repro a");
  EXPECT_TRUE(diff.Regressed(kAllowNothing));
  EXPECT_TRUE(diff.Regressed(kAllowBoth));
  EXPECT_TRUE(diff.warnings.empty());
}

TEST(Diff, NewFailingCaseIsARegression) {
  const JournalDiff diff =
      DiffReports(Make({{"a", "Pass"}}), Make({{"a", "Pass"}, {"g", "Timeout"}}));
  ASSERT_EQ(diff.regressions.size(), 1u);
  EXPECT_EQ(diff.regressions[0].id, "g");
  EXPECT_EQ(diff.regressions[0].base_status, std::nullopt);
  EXPECT_TRUE(diff.Regressed(kAllowBoth));
}

TEST(Diff, MissingCasesFailUnlessAllowed) {
  const JournalDiff diff =
      DiffReports(Make({{"a", "Pass"}, {"d", "NotSupported"}}), Make({{"a", "Pass"}}));
  EXPECT_TRUE(diff.regressions.empty());
  EXPECT_EQ(Ids(diff.missing), std::vector<std::string>{"d"});
  EXPECT_TRUE(diff.coverage_lost.empty());  // d proved nothing in BASE either
  EXPECT_TRUE(diff.Regressed(kAllowNothing));
  EXPECT_FALSE(diff.Regressed(kAllowMissing));
}

TEST(Diff, PassingCaseTurnedNotSupportedLosesCoverage) {
  const JournalDiff diff = DiffReports(Make({{"a", "Pass"}, {"q", "QualityWarning"}}),
                                       Make({{"a", "NotSupported"}, {"q", "NotSupported"}}));
  EXPECT_EQ(Ids(diff.coverage_lost), (std::vector<std::string>{"a", "q"}));
  EXPECT_TRUE(diff.changed.empty());
  EXPECT_TRUE(diff.regressions.empty());
  EXPECT_TRUE(diff.Regressed(kAllowMissing));
  EXPECT_FALSE(diff.Regressed({false, true}));
}

TEST(Diff, AllowMissingAloneDoesNotForgiveLostCoverage) {
  const JournalDiff diff = DiffReports(Make({{"a", "Pass"}, {"d", "Pass"}}), Make({{"a", "Pass"}}));
  EXPECT_EQ(Ids(diff.missing), std::vector<std::string>{"d"});
  EXPECT_EQ(Ids(diff.coverage_lost), std::vector<std::string>{"d"});
  EXPECT_TRUE(diff.Regressed(kAllowMissing));
  EXPECT_TRUE(diff.Regressed({false, true}));
  EXPECT_FALSE(diff.Regressed(kAllowBoth));
}

TEST(Diff, UnmetRequirementOfNewFailsTheDiff) {
  ReportOptions options;
  options.required = {{"DML_SCATTER_ND", "3_0"}};
  const JournalDiff diff =
      DiffReports(Make({{"a", "Pass"}}, 1, {}, options), Make({{"a", "Pass"}}, 1, {}, options));
  EXPECT_EQ(diff.unmet_requirements,
            std::vector<std::string>{
                "--require DML_SCATTER_ND=3_0: no case of operator DML_SCATTER_ND was run"});
  EXPECT_TRUE(diff.Regressed(kAllowBoth));
  const std::string text = RenderDiff(diff, kAllowBoth);
  EXPECT_NE(text.find("Required levels not met in NEW (fails the diff) (1):\n  --require "
                      "DML_SCATTER_ND=3_0: no case of operator DML_SCATTER_ND was run\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(", 1 requirement(s) not met: REGRESSED\n"), std::string::npos) << text;
}

TEST(Diff, IdenticalRunsAndFixesDoNotRegress) {
  const Report base = Make({{"a", "Pass"}, {"b", "Fail"}});
  EXPECT_FALSE(DiffReports(base, base).Regressed(kAllowNothing));
  const JournalDiff diff = DiffReports(base, Make({{"a", "Pass"}, {"b", "Pass"}}));
  EXPECT_EQ(Ids(diff.fixed), std::vector<std::string>{"b"});
  EXPECT_FALSE(diff.Regressed(kAllowNothing));
}

TEST(Diff, WaivedNewFailureIsNoRegression) {
  Waiver waiver;
  waiver.id_glob = "a";
  waiver.reason = "known";
  waiver.location = "w.yaml:2";
  const JournalDiff diff =
      DiffReports(Make({{"a", "Pass"}}, 1, {waiver}), Make({{"a", "Fail"}}, 1, {waiver}));
  EXPECT_TRUE(diff.regressions.empty());
  EXPECT_EQ(Ids(diff.changed), std::vector<std::string>{"a"});  // Pass -> Waived
  EXPECT_FALSE(diff.Regressed(kAllowNothing));
}

TEST(Diff, DifferentSeedsWarn) {
  const JournalDiff diff = DiffReports(Make({{"a", "Pass"}}, 1), Make({{"a", "Pass"}}, 2));
  ASSERT_EQ(diff.warnings.size(), 1u);
  EXPECT_EQ(diff.warnings[0], "the runs used different seeds (1 and 2); case ids will not line up");
}

TEST(Diff, DifferentOptionsWarn) {
  Report base = Make({{"a", "Pass"}});
  Report next = Make({{"a", "Pass"}});
  next.headers[0].options["timeout_ms"] = "100";
  EXPECT_EQ(DiffReports(base, next).warnings,
            std::vector<std::string>{"the runs used different options"});
}

TEST(Diff, RenderListsSectionsAndVerdict) {
  const JournalDiff diff = DiffReports(Make({{"a", "Pass"}, {"d", "Pass"}}), Make({{"a", "Fail"}}));
  const std::string text = RenderDiff(diff, kAllowNothing);
  EXPECT_NE(
      text.find("Regressions (1):\n  ref a: Pass -> Fail\n    why a\n    repro: opcts repro a\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("Missing from NEW (fails the diff) (1):\n  ref d: Pass -> (absent)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Coverage lost (fails the diff) (1):\n  ref d: Pass -> (absent)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("diff: 1 regression(s), 1 missing, 1 coverage lost, 0 fixed, 0 changed, "
                      "0 new: REGRESSED\n"),
            std::string::npos)
      << text;
  const std::string allowed = RenderDiff(diff, kAllowBoth);
  EXPECT_NE(allowed.find("Missing from NEW (allowed) (1):\n"), std::string::npos) << allowed;
  EXPECT_NE(allowed.find("Coverage lost (allowed) (1):\n"), std::string::npos) << allowed;
}

TEST(Diff, RenderNeutralisesTerminalEscapes) {
  const JournalDiff diff =
      DiffReports(Make({{"a", "Pass"}}), Make({{"a", "Fail"}, {"\\u001b[2K\\rb", "Crash"}}));
  const std::string text = RenderDiff(diff, kAllowNothing);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_NE(text.find("  ref  b: (absent) -> Crash\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace opcts
