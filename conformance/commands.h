// The `opcts` subcommands. Each takes the arguments after its own name and returns the exit
// code: 0 success, 1 a check failed (a gate), 2 bad input or usage.
#pragma once

#include <string>
#include <vector>

namespace opcts {

using Args = std::vector<std::string>;

int SpecCommand(const Args& args);
int VectorsCommand(const Args& args);
int RunCommand(const Args& args);
int ListCommand(const Args& args);
int ReproCommand(const Args& args);
int ReportCommand(const Args& args);

// Expands directories to the files with `extension` inside them (recursively, sorted); plain
// files are kept as given.
std::vector<std::string> ExpandPaths(const Args& paths, const std::string& extension);

}  // namespace opcts
