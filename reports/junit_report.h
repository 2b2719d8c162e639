// JUnit XML for CI systems: one <testsuite> per backend and operator, one <testcase> per case.
// Gate failures are <failure> (wrong answers, claims) or <error> (Crash, Timeout,
// InternalError) with the message and repro command; NotSupported and Waived are <skipped>
// with their reason; everything else passes. Each suite's <properties> name the backend, its
// version, device and claimed level, the run's seed and opcts version, and the coverage; gate
// reasons that are no case fail in a suite `opcts.gate`. Valid against
// reports/schema/junit-10.xsd (Jenkins' junit-10.xsd), which reports/junit_schema_test.cc checks.
#pragma once

#include <string>

#include "reports/report_model.h"

namespace opcts {

std::string RenderJunit(const Report& report);

}  // namespace opcts
