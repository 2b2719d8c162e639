// Writes a file so that its final name only ever holds a complete file: the text goes to a
// temporary file in the same directory ("PATH.tmp.<pid>"), is flushed to disk and renamed over
// PATH. A CI gate must never read a truncated summary.json from a failed or killed writer.
//
//   if (std::string error = opcts::WriteFileAtomically("out/summary.json", json); !error.empty())
//     return Fail("out/summary.json: cannot write: " + error);
#pragma once

#include <string>

namespace opcts {

// "" on success, else the reason (strerror of the step that failed); the temporary file is
// removed and PATH left as it was.
std::string WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace opcts
