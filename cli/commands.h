// The `opcts` subcommands (one cmd_*.cc each). Each takes the arguments after its own name and
// returns the exit code: 0 success, 1 a check failed (a gate), 2 bad input or usage.
#pragma once

#include <string>
#include <vector>

#include "base/cli_args.h"
#include "base/result.h"
#include "conformance/float_rules.h"

namespace opcts {

using Args = std::vector<std::string>;

// `--float-rules platform|ieee` of run, vectors and repro: its usage lines (a literal, to end
// each command's usage), and its value, platform when absent (cmd_run.cc).
#define OPCTS_FLOAT_RULES_USAGE                                                                \
  "--float-rules platform (default): float results that fail IEEE 754 pass where the spec's\n" \
  "platform rules allow them (DirectML FLOAT32: subnormals flushed to sign-preserved zero,\n"  \
  "rounding toward zero), the behaviour recorded; ieee: IEEE 754 alone.\n"
Result<FloatRules> ReadFloatRules(const CliArgs& args);

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
