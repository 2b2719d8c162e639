#include "conformance/case_id.h"

#include <charconv>
#include <optional>

namespace opcts {
namespace {

// 'text' (appended, not "'" + ...: GCC 12's -Wrestrict misfires on that).
std::string Quoted(std::string_view text) {
  std::string quoted = "'";
  quoted += text;
  quoted += '\'';
  return quoted;
}

std::vector<std::string_view> Split(std::string_view text) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t dot = text.find('.', start);
    parts.push_back(
        text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

// A decimal number after `prefix` ("rank4", "s17"); nullopt for anything else.
std::optional<uint64_t> NumberAfter(std::string_view part, std::string_view prefix) {
  if (part.substr(0, prefix.size()) != prefix || part.size() == prefix.size()) return std::nullopt;
  uint64_t value = 0;
  const char* end = part.data() + part.size();
  const auto [ptr, ec] = std::from_chars(part.data() + prefix.size(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::string CaseId::Stem() const {
  std::string id = op + (property ? ".prop." : ".") + std::string(DTypeShortName(dtype)) + ".rank" +
                   std::to_string(rank);
  for (const std::string& part : variant) id += "." + part;
  return id;
}

std::string CaseId::ToString() const { return Stem() + ".s" + std::to_string(seed); }

Result<CaseId> CaseId::Parse(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return InvalidInput("case id " + Quoted(text) + ": " + why +
                        " (ids read <operator>[.prop].<dtype>.rank<N>.<variant>....s<seed>; opcts "
                        "list --cases lists them)");
  };
  std::vector<std::string_view> parts = Split(text);
  CaseId id;
  size_t next = 0;
  if (parts.size() < 5 || parts[0].empty()) return bad("too few parts");
  id.op = std::string(parts[next++]);
  if (parts[next] == "prop") {
    id.property = true;
    ++next;
  }
  bool known = false;
  for (DType t : kAllDTypes)
    if (DTypeShortName(t) == parts[next]) id.dtype = t, known = true;
  if (!known) return bad(Quoted(parts[next]) + " is no data type");
  const std::optional<uint64_t> rank = NumberAfter(parts[++next], "rank");
  if (!rank || *rank > 8) return bad(Quoted(parts[next]) + " is not rank<N> with N at most 8");
  id.rank = static_cast<unsigned>(*rank);
  const std::optional<uint64_t> seed = NumberAfter(parts.back(), "s");
  if (!seed) return bad("it does not end in .s<seed>");
  id.seed = *seed;
  for (size_t i = next + 1; i + 1 < parts.size(); ++i) {
    if (parts[i].empty()) return bad("an empty part");
    id.variant.emplace_back(parts[i]);
  }
  if (id.variant.empty()) return bad("no variant between the rank and the seed");
  return id;
}

}  // namespace opcts
