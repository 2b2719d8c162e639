#include "base/executable_dir.h"

#include <unistd.h>

#include <climits>
#include <filesystem>

namespace opcts {

std::string ExecutableDir() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  exe[n] = '\0';
  return std::filesystem::path(exe).parent_path().string();
}

std::string FolderBesideExecutable(const std::string& relative) {
  const std::string exe_dir = ExecutableDir();
  if (exe_dir.empty()) return "";
  // /proc/self/exe has no symbolic links left, so resolving ".." lexically is exact.
  const std::filesystem::path folder =
      (std::filesystem::path(exe_dir) / relative).lexically_normal();
  std::error_code ec;
  return std::filesystem::is_directory(folder, ec) ? folder.string() : "";
}

}  // namespace opcts
