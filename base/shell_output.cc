#include "base/shell_output.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>

namespace opcts {

ShellOutput RunShell(const std::string& command) {
  ShellOutput result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> chunk;
  for (size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0;)
    result.output.append(chunk.data(), n);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace opcts
