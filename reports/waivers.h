// Waiver (expected-failure) files: which gate failures a vendor accepts for now, why, and until
// when. Format in reports/README.md ("Waiver files").
//
//   opcts::Result<std::vector<opcts::Waiver>> waivers = opcts::LoadWaivers("waivers.yaml");
//   if (!waivers) return Usage(waivers.error().message);  // "waivers.yaml:4: field ..."
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace opcts {

struct Waiver {
  std::string id_glob;             // matched against the whole case id
  std::string backend_glob = "*";  // matched against the backend name
  std::string reason;
  std::optional<std::string> expires;  // YYYY-MM-DD, the last day the waiver applies
  std::string location;                // "file:line" of the entry, for messages
};

// `*` matches any run of characters (dots included), `?` exactly one; everything else literally.
bool GlobMatch(std::string_view glob, std::string_view text);

// True when `date` is a real calendar date written YYYY-MM-DD.
bool IsIsoDate(std::string_view date);

// Today's UTC date as YYYY-MM-DD.
std::string TodayUtc();

bool IsExpired(const Waiver& waiver, std::string_view today);

// ErrorCode::kIo when the file cannot be read, else as ParseWaivers.
Result<std::vector<Waiver>> LoadWaivers(const std::string& path);
// The same from text; `source` names it in errors, which are ErrorCode::kInvalidInput
// ("source:line: ...").
Result<std::vector<Waiver>> ParseWaivers(const std::string& text, const std::string& source);

}  // namespace opcts
