// The `opcts` subcommands (one cmd_*.cc each). Each takes the arguments after its own name and
// returns the exit code: 0 success, 1 a check failed (a gate), 2 bad input or usage.
#pragma once

#include <string>
#include <vector>

namespace opcts {

using Args = std::vector<std::string>;

int SpecCommand(const Args& args);
int VectorsCommand(const Args& raw);
int RunCommand(const Args& raw);
int ListCommand(const Args& raw);
int ReproCommand(const Args& raw);
int ReportCommand(const Args& args);  // cmd_report.h
// A fuzzing campaign over the libFuzzer targets built beside opcts (the `fuzz` preset): each
// selected target runs for --seconds with --jobs workers against --backend; every finding is
// minimized into fuzz/regressions/. Exit 0 nothing found, 1 findings written, 2 usage or not built.
int FuzzCommand(const Args& args);

}  // namespace opcts
