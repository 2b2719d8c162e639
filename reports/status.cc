#include "reports/status.h"

#include <utility>

#include "base/name_table.h"

namespace opcts {
namespace {

constexpr std::pair<Status, std::string_view> kStatusNames[] = {
    {Status::kPass, "Pass"},
    {Status::kFail, "Fail"},
    {Status::kQualityWarning, "QualityWarning"},
    {Status::kNotSupported, "NotSupported"},
    {Status::kInvalidRejected, "InvalidRejected"},
    {Status::kInvalidAccepted, "InvalidAccepted"},
    {Status::kClaimViolation, "ClaimViolation"},
    {Status::kCrash, "Crash"},
    {Status::kTimeout, "Timeout"},
    {Status::kMemoryLimit, "MemoryLimit"},
    {Status::kInternalError, "InternalError"},
    {Status::kWaived, "Waived"},
};

constexpr std::pair<CaseGroup, std::string_view> kGroupNames[] = {
    {CaseGroup::kValid, "valid"},
    {CaseGroup::kUnclaimed, "unclaimed"},
    {CaseGroup::kInvalid, "invalid"},
};

}  // namespace

const std::vector<Status>& AllStatuses() {
  static const std::vector<Status> all = [] {
    std::vector<Status> v;
    for (const auto& [status, name] : kStatusNames) v.push_back(status);
    return v;
  }();
  return all;
}

std::string_view StatusName(Status status) { return NameIn(kStatusNames, status); }
std::optional<Status> StatusNamed(std::string_view name) { return ValueNamed(kStatusNames, name); }
std::string_view GroupName(CaseGroup group) { return NameIn(kGroupNames, group); }
std::optional<CaseGroup> GroupNamed(std::string_view name) { return ValueNamed(kGroupNames, name); }

bool IsGateFailure(Status status, bool strict) {
  switch (status) {
    case Status::kFail:
    case Status::kInvalidAccepted:
    case Status::kClaimViolation:
    case Status::kCrash:
    case Status::kTimeout:
    case Status::kMemoryLimit:
    case Status::kInternalError:
      return true;
    case Status::kQualityWarning:
      return strict;
    case Status::kPass:
    case Status::kNotSupported:
    case Status::kInvalidRejected:
    case Status::kWaived:
      return false;
  }
  return true;
}

bool IsPassing(Status status, bool strict) {
  return status == Status::kPass || status == Status::kInvalidRejected ||
         (!strict && status == Status::kQualityWarning);
}

}  // namespace opcts
