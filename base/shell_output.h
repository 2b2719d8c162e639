// A shell command run to its end, its standard output captured: how the tests drive programs
// (opcts itself, xmllint, Chromium) as a user's shell would.
//
//   const ShellOutput run = RunShell(opcts + " spec check 2>&1");
//   EXPECT_EQ(run.exit_code, 0) << run.output;
#pragma once

#include <string>

namespace opcts {

struct ShellOutput {
  std::string output;  // everything the command wrote to its standard output
  int exit_code = -1;  // its exit status; -1 when it could not start or a signal ended it
};

// `command` through `/bin/sh -c` (popen), read to the end.
ShellOutput RunShell(const std::string& command);

}  // namespace opcts
