// Replays a test vector on a backend, judged exactly as the conformance run judges a case: the
// reference's expectation (with the vector's tolerance), the backend's claim deciding whether
// NotSupported is acceptable. The fuzz targets use the same acceptance rule.
//
//   ReplayOutcome r = ReplayVector(plugin, vector);
//   if (!r.ok) std::cout << r.status << ": " << r.message;
#pragma once

#include <string>

#include "conformance/case_executor.h"
#include "conformance/vector_file.h"

namespace opcts {

// Pass and QualityWarning (unless strict); NotSupported only beyond the backend's claim;
// InvalidRejected for an invalid case.
bool IsAcceptableOutcome(const std::string& status, CaseGroup group, bool strict = false);

struct ReplayOutcome {
  bool ok = false;
  std::string status;   // a journal status, or "BadVector" when the vector contradicts the reference
  std::string message;
};

ReplayOutcome ReplayVector(const Plugin& plugin, const TestVector& vector);

}  // namespace opcts
