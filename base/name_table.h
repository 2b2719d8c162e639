// An enum's one name table: the spelling a journal, an id or a command line uses for each value.
//
//   constexpr std::pair<Layout, std::string_view> kLayoutNames[] = {{Layout::kPacked, "packed"},
//   ...}; std::string_view name = NameIn(kLayoutNames, Layout::kPacked);      // "packed"
//   std::optional<Layout> layout = ValueNamed(kLayoutNames, "padded");  // Layout::kPadded
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace opcts {

// "?" for a value missing from the table: each table's test proves none is.
template <typename Enum, size_t N>
std::string_view NameIn(const std::pair<Enum, std::string_view> (&table)[N], Enum value) {
  for (const auto& [e, name] : table)
    if (e == value) return name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> ValueNamed(const std::pair<Enum, std::string_view> (&table)[N],
                               std::string_view name) {
  for (const auto& [e, n] : table)
    if (n == name) return e;
  return std::nullopt;
}

}  // namespace opcts
