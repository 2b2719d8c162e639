#include "reports/status.h"

#include <algorithm>

namespace opcts {

const std::vector<std::string_view>& KnownStatuses() {
  static const std::vector<std::string_view> kStatuses = {"Pass",
                                                          "Fail",
                                                          "QualityWarning",
                                                          "NotSupported",
                                                          "InvalidRejected",
                                                          "InvalidAccepted",
                                                          "ClaimViolation",
                                                          "Crash",
                                                          "Timeout",
                                                          "MemoryLimit",
                                                          "InternalError",
                                                          "Waived"};
  return kStatuses;
}

bool IsKnownStatus(std::string_view status) {
  const auto& known = KnownStatuses();
  return std::find(known.begin(), known.end(), status) != known.end();
}

bool IsGateFailure(std::string_view status, bool strict) {
  static constexpr std::string_view kAlwaysFail[] = {
      "Fail", "InvalidAccepted", "ClaimViolation", "Crash", "Timeout", "MemoryLimit", "InternalError"};
  if (std::find(std::begin(kAlwaysFail), std::end(kAlwaysFail), status) != std::end(kAlwaysFail)) {
    return true;
  }
  return strict && status == "QualityWarning";
}

bool IsPassing(std::string_view status, bool strict) {
  return status == "Pass" || status == "InvalidRejected" || (!strict && status == "QualityWarning");
}

}  // namespace opcts
