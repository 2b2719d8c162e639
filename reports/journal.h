// Reads and writes opcts-journal/1 files (reports/JOURNAL.md): one JSON object per line, a
// header first, then one line per case. The runner appends; reports, resume, merge and diff read.
//
//   OPCTS_ASSIGN_OR_RETURN(opcts::JournalWriter writer,
//                          opcts::JournalWriter::Open("run.jsonl", header, /*append=*/false));
//   OPCTS_TRY(writer.Append(record));             // one line, handed to the OS at once
//   opcts::Result<opcts::Journal> journal = opcts::ReadJournal("run.jsonl");
//   if (!journal) return Fail(journal.error().message);  // "run.jsonl:7: case field ..."
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "reports/status.h"

namespace opcts {

inline constexpr std::string_view kJournalFormat = "opcts-journal/1";

// Strings a plugin supplies (messages, backend name, version, device...) longer than this are
// cut when written, at a UTF-8 boundary, and end in " [truncated: N bytes]" (N: the full
// length), this many bytes in all: a backend must not bloat every journal line and report.
inline constexpr size_t kMaxPluginStringBytes = 4096;

struct BackendRecord {
  std::string name, version, device, feature_level;
  std::vector<std::string> extra_support;
  std::string details;
};

struct JournalHeader {
  std::string format = std::string(kJournalFormat), opcts_version, started;
  uint64_t seed = 0;
  uint32_t shard_index = 0, shard_count = 1;
  std::map<std::string, std::string> filters;
  std::map<std::string, std::string> options;  // run options --resume must find unchanged
  std::vector<BackendRecord> backends;
  uint64_t planned_cases = 0;
};

struct CaseRecord {
  std::string id, backend, op, dtype, level;
  CaseGroup group = CaseGroup::kValid;  // what a journal without the field means
  std::string layout, values;
  std::vector<uint32_t> shape;
  nlohmann::json attributes = nlohmann::json::object();
  // Until judged: a record that nobody gave a verdict must not pass.
  Status status = Status::kInternalError;
  std::string message, repro;
  // What the backend did where the spec leaves it a choice, "" if nothing; several joined by
  // kBehaviourSeparator: with data the spec lets it refuse ("out-of-range indices skipped"), and
  // for a float result valid only under the platform's float rules, the judge's words
  // ("flushes FLOAT32 subnormals"). Reports count each per backend.
  std::string behaviour;
  // NaN and infinities are written as the strings "NaN", "Infinity", "-Infinity" (JSON has no
  // such numbers) and read back as the same doubles.
  std::optional<double> max_error, bound, ulp;
  uint64_t duration_us = 0;
};

// The resident memory of one worker process over the cases it finished (isolated runs),
// sampled as their results arrived. A memory line of the journal.
struct MemoryRecord {
  std::string backend;
  uint64_t cases = 0;  // the cases the worker finished
  uint64_t first_bytes = 0, last_bytes = 0, peak_bytes = 0;
  // The fitted growth after the warm-up, in bytes per case (conformance/resident_memory.h).
  double growth_per_case = 0;
  bool leaking = false;  // it grew steadily, by at least kLeakBytes
};

// The smallest case found failing like case `id` (the smallest of its failure group) on
// `backend`, saved as an opcts-vector/1 file. A shrunk line of the journal.
struct ShrunkRecord {
  std::string backend, id;
  std::vector<uint32_t> shape;  // the minimal case's (first tensor)
  uint64_t elements = 0, original_elements = 0;
  std::string file, repro;  // the vector file; `opcts vectors --backend B FILE`
};

// "resident memory grew steadily from 45 MiB to 2.4 GiB over 231 cases (10.5 MiB per case)".
std::string DescribeLeak(const MemoryRecord& record);

// CaseRecord::behaviour joins a case's behaviours with this.
inline constexpr std::string_view kBehaviourSeparator = "; ";
// The behaviours in CaseRecord::behaviour, in order; none for "".
std::vector<std::string> SplitBehaviours(std::string_view behaviour);
// Whether a behaviour is the judge's account of a float result valid only under the platform's
// float rules: "flushes FLOAT32 subnormals", "truncates FLOAT32 arithmetic", or both joined by
// " and " (any float dtype in their place).
bool IsPlatformFloatBehaviour(std::string_view behaviour);

struct Journal {
  JournalHeader header;
  std::vector<CaseRecord> cases;
  std::vector<MemoryRecord> memory;
  std::vector<ShrunkRecord> shrunk;
  std::vector<std::string> warnings;  // "file:line: ..." for things skipped, e.g. a torn last line
};

struct SourcedJournal {
  std::string source;  // the path it was read from, for messages
  Journal journal;
};

// How journals (and the JSON summary) write an optional double: null, a number, or one of the
// strings "NaN", "Infinity", "-Infinity".
nlohmann::ordered_json JsonNumber(const std::optional<double>& value);

// One journal line as JSON, without the trailing newline. Invalid UTF-8 in strings (a backend's
// message) is replaced by U+FFFD rather than failing; plugin strings are capped at
// kMaxPluginStringBytes (the case's message and backend; every string of the header's backends).
std::string ToJsonLine(const JournalHeader& header);
std::string ToJsonLine(const CaseRecord& record);
std::string ToJsonLine(const MemoryRecord& record);
std::string ToJsonLine(const ShrunkRecord& record);

// Parses journal text; `source` names it in errors and warnings ("source:line: ...").
// A last line without its newline that does not parse (a run killed mid-write) is dropped with a
// warning; any other line that does not parse or has a field of the wrong type is an error.
// Blank lines are skipped; unknown fields and unknown line types are ignored (the latter warned).
// Errors are ErrorCode::kInvalidInput and name "source:line: ...".
Result<Journal> ParseJournal(std::string_view text, const std::string& source);
// ParseJournal on the file's text; a file that cannot be read is ErrorCode::kIo.
Result<Journal> ReadJournal(const std::string& path);

// Appends lines to a journal file, flushing each to the OS before Append returns, so a crash
// of the process loses at most the line being written.
class JournalWriter {
 public:
  // append=false: creates or truncates `path` and writes the header line.
  // append=true: continues an existing journal (the caller checked its header with ReadJournal);
  // a torn last line is cut off first so the next line starts clean. Writes the header only if
  // the file is missing or empty. Failures are ErrorCode::kIo with the errno as native_code
  // ("run.jsonl: cannot open for writing: No such file or directory").
  static Result<JournalWriter> Open(const std::string& path, const JournalHeader& header,
                                    bool append);

  // ErrorCode::kIo ("run.jsonl: cannot write a case: No space left on device") when the line
  // could not be written.
  Result<void> Append(const CaseRecord& record);
  Result<void> Append(const MemoryRecord& record);
  Result<void> Append(const ShrunkRecord& record);

 private:
  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  JournalWriter(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  Result<void> WriteLine(const std::string& line, const char* what);

  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string path_;  // for messages
};

}  // namespace opcts
