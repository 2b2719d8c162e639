#include "reports/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace opcts {
namespace {

// Writes, flushes to the OS and to disk, and closes; false with errno set when a step fails.
// The file is closed either way.
bool WriteAndClose(std::FILE* file, const std::string& text) {
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size() &&
                       std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const int saved = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written) errno = saved;
  return written && closed;
}

// ErrorCode::kIo for `path`, from errno.
Error CannotWrite(const std::string& path) {
  const int code = errno;
  return {ErrorCode::kIo, path + ": cannot write: " + std::strerror(code), code};
}

}  // namespace

Result<void> WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) return CannotWrite(path);
  if (WriteAndClose(file, text) && std::rename(temporary.c_str(), path.c_str()) == 0) return {};
  const Error error = CannotWrite(path);
  std::remove(temporary.c_str());
  return error;
}

}  // namespace opcts
