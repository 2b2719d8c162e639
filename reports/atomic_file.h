// Writes a file so that its final name only ever holds a complete file: the text goes to a
// temporary file in the same directory ("PATH.tmp.<pid>"), is flushed to disk and renamed over
// PATH. A CI gate must never read a truncated summary.json from a failed or killed writer.
//
//   OPCTS_TRY(opcts::WriteFileAtomically("out/summary.json", json));
//   // or: "out/summary.json: cannot write: No such file or directory"
#pragma once

#include <string>

#include "base/result.h"

namespace opcts {

// On failure ErrorCode::kIo, "PATH: cannot write: <strerror of the step that failed>" with that
// errno as native_code; the temporary file is removed and PATH left as it was.
Result<void> WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace opcts
