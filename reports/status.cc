#include "reports/status.h"

#include <utility>

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

template <typename Enum, size_t N>
std::string_view NameOf(const std::pair<Enum, std::string_view> (&table)[N], Enum value) {
  for (const auto& [e, name] : table)
    if (e == value) return name;
  return "?";  // unreachable: every enumerator is in its table (status_test.cc)
}

template <typename Enum, size_t N>
std::optional<Enum> Named(const std::pair<Enum, std::string_view> (&table)[N],
                          std::string_view name) {
  for (const auto& [e, n] : table)
    if (n == name) return e;
  return std::nullopt;
}

}  // namespace

const std::vector<Status>& AllStatuses() {
  static const std::vector<Status> all = [] {
    std::vector<Status> v;
    for (const auto& [status, name] : kStatusNames) v.push_back(status);
    return v;
  }();
  return all;
}

std::string_view StatusName(Status status) { return NameOf(kStatusNames, status); }
std::optional<Status> StatusNamed(std::string_view name) { return Named(kStatusNames, name); }
std::string_view GroupName(CaseGroup group) { return NameOf(kGroupNames, group); }
std::optional<CaseGroup> GroupNamed(std::string_view name) { return Named(kGroupNames, name); }

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
