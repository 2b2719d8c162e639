// libFuzzer target: the waiver-file parser on arbitrary YAML, then each waiver's globs matched
// against its own fields (GlobMatch must stay fast on any pattern) and its expiry evaluated.
#include "reports/waivers.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto r = opcts::ParseWaivers(text, "fuzz.yaml");
  if (!r) {
    if (r.error().message.empty()) std::abort();
    return 0;
  }
  for (const opcts::Waiver& w : *r) {
    if (w.expires && !opcts::IsIsoDate(*w.expires)) std::abort();  // the parser vouches for dates
    opcts::GlobMatch(w.id_glob, w.reason + w.backend_glob + w.id_glob);
    opcts::GlobMatch(w.backend_glob, w.location);
    opcts::IsExpired(w, "2030-06-15");
  }
  return 0;
}
