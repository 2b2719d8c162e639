// libFuzzer target: the journal reader on arbitrary text. A journal that parses must survive
// being written back (ToJsonLine) and read again unchanged: reports, resume and merge rely on it.
#include "reports/journal.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string Written(const opcts::Journal& j) {
  std::string text = opcts::ToJsonLine(j.header) + "\n";
  for (const opcts::CaseRecord& c : j.cases) text += opcts::ToJsonLine(c) + "\n";
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto first = opcts::ParseJournal(text, "fuzz.jsonl");
  if (!first) {
    if (first.error().message.empty()) std::abort();
    return 0;
  }
  const std::string written = Written(*first);
  const auto second = opcts::ParseJournal(written, "fuzz.jsonl");
  if (!second || Written(*second) != written) {
    std::fprintf(stderr, "journal does not survive ToJsonLine + ParseJournal:\n%s\n%s\n",
                 written.c_str(),
                 second ? Written(*second).c_str() : second.error().message.c_str());
    std::abort();
  }
  return 0;
}
