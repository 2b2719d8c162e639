// The vocabulary of opcts-journal/1 (reports/JOURNAL.md): a case's status and group, each an enum
// with one name table (the journal's spelling), and which statuses fail the gate.
//
//   if (opcts::IsGateFailure(record.status, /*strict=*/false)) ++failures;
//   std::cout << opcts::StatusName(opcts::Status::kQualityWarning);  // "QualityWarning"
//   std::optional<opcts::Status> s = opcts::StatusNamed("Pass");
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace opcts {

// In the order JOURNAL.md lists them.
enum class Status : uint8_t {
  kPass,
  kFail,
  kQualityWarning,
  kNotSupported,
  kInvalidRejected,
  kInvalidAccepted,
  kClaimViolation,
  kCrash,
  kTimeout,
  kMemoryLimit,
  kInternalError,
  kWaived,
};

// Every status, in the order above.
const std::vector<Status>& AllStatuses();
std::string_view StatusName(Status status);
// nullopt for a name that is no status.
std::optional<Status> StatusNamed(std::string_view name);

// True for Fail, InvalidAccepted, ClaimViolation, Crash, Timeout, MemoryLimit, InternalError,
// and with `strict` also QualityWarning. Waived never fails the gate here. The one rule of what a
// case may end as: every command (run, vectors, repro, fuzz, properties) judges by it.
bool IsGateFailure(Status status, bool strict);
// True for the outcomes that prove a case conformant: Pass, InvalidRejected, and QualityWarning
// unless `strict`. NotSupported, Waived and every gate failure prove nothing.
bool IsPassing(Status status, bool strict);

// Which expectation a case was judged by on one backend.
enum class CaseGroup : uint8_t {
  kValid,      // within the backend's claim: it must compute it
  kUnclaimed,  // beyond the claim: NotSupported or a correct answer
  kInvalid,    // breaks a rule: it must be rejected
};
std::string_view GroupName(CaseGroup group);  // "valid", "unclaimed", "invalid"
std::optional<CaseGroup> GroupNamed(std::string_view name);

}  // namespace opcts
