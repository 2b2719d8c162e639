// Where the running program lives: the installed opcts finds its specs and built-in plugins
// relative to itself, so an install prefix can be moved (README.md, "Install").
//
//   std::string specs = FolderBesideExecutable("../share/opcts/spec");  // "" if none there
#pragma once

#include <string>

namespace opcts {

// The folder of the running executable (/proc/self/exe), "" if it cannot be read.
std::string ExecutableDir();
// ExecutableDir()/relative, normalized, when that folder exists; else "".
std::string FolderBesideExecutable(const std::string& relative);

}  // namespace opcts
