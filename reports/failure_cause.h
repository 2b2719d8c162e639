// What a failure is, without its numbers: the key that groups failures of one bug together
// whatever element, shape, sign or value each case happened to show.
//
//   NormalizedCause(record)   // "OutputTensor: wrong elements"
//   MismatchKindOf(record)    // "beyond the accuracy bound"
//   DtypeClass("FLOAT16")     // "float"
#pragma once

#include <string>
#include <string_view>

#include "reports/journal.h"

namespace opcts {

// A message with every number (hex, signed, exponent) replaced by '#' and a list of numbers
// by one '#', so "index [3,1]: got -1.5" and "index [7]: got 2" group together.
std::string CauseOf(std::string_view message);

// "float", "integer", or the dtype itself (bool, unknown).
std::string DtypeClass(std::string_view dtype);

// The group key of a failure. A value mismatch of the judge ("T: N of M elements wrong; first
// element [..]: expected X, got Y") is "T: wrong elements", whatever the mismatch (one bug shows
// several kinds across value classes: MismatchKindOf tells them apart within the group). A write
// outside the buffer, near or far, is "T: wrote past the end" (or "before the start") "(outside
// TotalTensorSizeInBytes)". Any other message is CauseOf it.
std::string NormalizedCause(const CaseRecord& record);

// The kind of a judge's value mismatch, from its first wrong element: left unwritten, NaN where a
// number is expected, a number where NaN is expected, an infinity where a finite value is
// expected (or the reverse), the wrong sign of a zero, the wrong sign, none of the allowed
// values, beyond the accuracy bound (floats), a wrong value (integers); "" for other messages.
std::string MismatchKindOf(const CaseRecord& record);

// The whole group key as one line, "Fail DML_SCATTER_ND (float): OutputTensor: wrong elements"
// (status, operator, DtypeClass, NormalizedCause): how a fuzzing campaign tells its findings
// apart, as the reports group a run's failures.
std::string FailureSignature(const CaseRecord& record);

}  // namespace opcts
