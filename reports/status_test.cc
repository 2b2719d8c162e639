#include "reports/status.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace opcts {
namespace {

constexpr CaseGroup kAllGroups[] = {CaseGroup::kValid, CaseGroup::kUnclaimed, CaseGroup::kInvalid};

TEST(Status, EveryEnumeratorInOrderOnce) {
  // Status is dense from kPass to kWaived: AllStatuses must hold each, in declaration order.
  const std::vector<Status>& all = AllStatuses();
  ASSERT_EQ(all.size(), static_cast<size_t>(Status::kWaived) + 1);
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(static_cast<size_t>(all[i]), i);
}

TEST(Status, NamesAreTheJournalSpellingAndUnique) {
  std::vector<std::string> names;
  for (const Status status : AllStatuses()) names.emplace_back(StatusName(status));
  EXPECT_EQ(names, (std::vector<std::string>{"Pass", "Fail", "QualityWarning", "NotSupported",
                                             "InvalidRejected", "InvalidAccepted", "ClaimViolation",
                                             "Crash", "Timeout", "MemoryLimit", "InternalError",
                                             "Waived"}));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

TEST(Status, NamesRoundTrip) {
  for (const Status status : AllStatuses()) {
    EXPECT_EQ(StatusNamed(StatusName(status)), status) << StatusName(status);
  }
}

TEST(Status, UnknownNamesAreNullopt) {
  for (const char* name : {"", "Passed", "pass", "PASS", " Pass", "Pass ", "?", "valid"}) {
    EXPECT_EQ(StatusNamed(name), std::nullopt) << '"' << name << '"';
  }
}

struct Rule {
  Status status;
  bool gate_failure, strict_gate_failure, passing, strict_passing;
};

// JOURNAL.md's "Pass/fail" and reports/README.md's "Coverage", status by status.
constexpr Rule kRules[] = {
    {Status::kPass, false, false, true, true},
    {Status::kFail, true, true, false, false},
    {Status::kQualityWarning, false, true, true, false},
    {Status::kNotSupported, false, false, false, false},
    {Status::kInvalidRejected, false, false, true, true},
    {Status::kInvalidAccepted, true, true, false, false},
    {Status::kClaimViolation, true, true, false, false},
    {Status::kCrash, true, true, false, false},
    {Status::kTimeout, true, true, false, false},
    {Status::kMemoryLimit, true, true, false, false},
    {Status::kInternalError, true, true, false, false},
    {Status::kWaived, false, false, false, false},
};

TEST(Status, GateRulePerStatus) {
  ASSERT_EQ(std::size(kRules), AllStatuses().size());
  for (const Rule& rule : kRules) {
    const std::string_view name = StatusName(rule.status);
    EXPECT_EQ(IsGateFailure(rule.status, /*strict=*/false), rule.gate_failure) << name;
    EXPECT_EQ(IsGateFailure(rule.status, /*strict=*/true), rule.strict_gate_failure) << name;
    EXPECT_EQ(IsPassing(rule.status, /*strict=*/false), rule.passing) << name;
    EXPECT_EQ(IsPassing(rule.status, /*strict=*/true), rule.strict_passing) << name;
    // Nothing both passes and fails the gate.
    EXPECT_FALSE(rule.passing && rule.gate_failure) << name;
    EXPECT_FALSE(rule.strict_passing && rule.strict_gate_failure) << name;
  }
}

TEST(CaseGroup, NamesAreTheJournalSpellingUniqueAndRoundTrip) {
  ASSERT_EQ(std::size(kAllGroups), static_cast<size_t>(CaseGroup::kInvalid) + 1);
  std::vector<std::string> names;
  for (const CaseGroup group : kAllGroups) {
    names.emplace_back(GroupName(group));
    EXPECT_EQ(GroupNamed(GroupName(group)), group) << GroupName(group);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"valid", "unclaimed", "invalid"}));
}

TEST(CaseGroup, UnknownNamesAreNullopt) {
  for (const char* name : {"", "Valid", "invalid ", "claimed", "Pass"}) {
    EXPECT_EQ(GroupNamed(name), std::nullopt) << '"' << name << '"';
  }
}

}  // namespace
}  // namespace opcts
