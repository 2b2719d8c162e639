// JUnit XML for CI systems: one <testsuite> per backend and operator, one <testcase> per case.
// Gate failures are <failure> (wrong answers, claims) or <error> (Crash, Timeout,
// InternalError) with the message and repro command; NotSupported and Waived are <skipped>
// with their reason; everything else passes.
#pragma once

#include <string>

#include "reports/report_model.h"

namespace opcts {

std::string RenderJunit(const Report& report);

}  // namespace opcts
