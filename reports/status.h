// The case statuses of opcts-journal/1 (reports/JOURNAL.md) and which of them fail the gate.
//   if (opcts::IsGateFailure(record.status, /*strict=*/false)) ++failures;
//   if (opcts::IsPassing(record.status, /*strict=*/false)) ++passing;
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace opcts {

// Every status a journal or a report may carry, in the order JOURNAL.md lists them.
const std::vector<std::string_view>& KnownStatuses();

bool IsKnownStatus(std::string_view status);

// True for Fail, InvalidAccepted, ClaimViolation, Crash, Timeout, InternalError, and with
// `strict` also QualityWarning. Waived and unknown statuses never fail the gate here: the
// journal reader rejects unknown statuses before they get this far.
bool IsGateFailure(std::string_view status, bool strict);

// True for the outcomes that prove a case conformant: Pass, InvalidRejected, and QualityWarning
// unless `strict`. NotSupported, Waived and every gate failure prove nothing.
bool IsPassing(std::string_view status, bool strict);

}  // namespace opcts
