#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "reports/journal.h"

namespace opcts {
namespace {

// The length of the file up to and including its last newline: what survives of a journal
// whose writer was killed mid-line. Scans backwards so a large journal is not read whole.
std::optional<uintmax_t> CompleteLength(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file || std::fseek(file.get(), 0, SEEK_END) != 0) return std::nullopt;
  long end = std::ftell(file.get());
  if (end < 0) return std::nullopt;
  char buffer[4096];
  while (end > 0) {
    const long chunk = std::min<long>(end, sizeof buffer);
    if (std::fseek(file.get(), end - chunk, SEEK_SET) != 0 ||
        std::fread(buffer, 1, chunk, file.get()) != static_cast<size_t>(chunk)) {
      return std::nullopt;
    }
    for (long i = chunk - 1; i >= 0; --i) {
      if (buffer[i] == '\n') return static_cast<uintmax_t>(end - chunk + i + 1);
    }
    end -= chunk;
  }
  return 0;
}

// ErrorCode::kIo "path: cannot <action>: <strerror>", carrying errno.
Error Errno(const std::string& path, const char* action) {
  const int code = errno;
  return {ErrorCode::kIo, path + ": cannot " + action + ": " + std::strerror(code), code};
}

}  // namespace

Result<JournalWriter> JournalWriter::Open(const std::string& path, const JournalHeader& header,
                                          bool append) {
  bool write_header = true;
  if (append) {
    std::error_code ignored;
    if (std::filesystem::exists(path, ignored)) {
      const auto keep = CompleteLength(path);
      if (!keep) return Errno(path, "read the journal to continue it");
      std::error_code error;
      if (std::filesystem::file_size(path, error) != *keep) {
        std::filesystem::resize_file(path, *keep, error);
        if (error) {
          return Error{ErrorCode::kIo, path + ": cannot cut the torn last line: " + error.message(),
                       error.value()};
        }
      }
      write_header = *keep == 0;
    }
  }
  std::FILE* file = std::fopen(path.c_str(), append ? "ab" : "wb");
  if (!file) return Errno(path, "open for writing");
  JournalWriter writer(file, path);
  if (write_header) OPCTS_TRY(writer.WriteLine(ToJsonLine(header), "write the header"));
  return writer;
}

Result<void> JournalWriter::Append(const CaseRecord& record) {
  return WriteLine(ToJsonLine(record), "write a case");
}

Result<void> JournalWriter::Append(const MemoryRecord& record) {
  return WriteLine(ToJsonLine(record), "write a memory record");
}

Result<void> JournalWriter::Append(const ShrunkRecord& record) {
  return WriteLine(ToJsonLine(record), "write a shrunk case");
}

Result<void> JournalWriter::WriteLine(const std::string& line, const char* what) {
  std::string with_newline = line + '\n';
  // One fwrite per line keeps a crash from interleaving half lines; fflush hands it to the OS.
  if (std::fwrite(with_newline.data(), 1, with_newline.size(), file_.get()) !=
          with_newline.size() ||
      std::fflush(file_.get()) != 0) {
    return Errno(path_, what);
  }
  return {};
}

}  // namespace opcts
