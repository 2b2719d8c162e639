// The mutant catalogue: the table in conformance/mutants/README.md, one row per mutant,
//
//   | `block-carry-dropped` | Fail | the carry between 4096-element blocks is dropped | ... |
//
// columns: name, the status that must catch it, the bug, the real-world class it models.
// CMake builds one plugin per row from the same table; the score driver reads it for the rest.
//
//   Catalogue c = ParseCatalogue(text, "README.md");
//   if (!c.error.empty()) return Fail(c.error);   // "README.md:42: ..."
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/status.h"

namespace opcts {

struct MutantEntry {
  std::string name;  // [a-z0-9-]+; the plugin is opcts-mutant-<name>.so
  Status caught_as =
      Status::kFail;  // a gate-failing status, or QualityWarning where the spec tiers it so
  std::string bug, models;
};

struct Catalogue {
  std::vector<MutantEntry> mutants;
  std::string error;  // "source:line: ..." for the first bad row; mutants is empty then
};

Catalogue ParseCatalogue(std::string_view markdown, const std::string& source);
Catalogue ReadCatalogue(const std::string& path);

// "block-carry-dropped" -> "OPCTS_MUTANT_BLOCK_CARRY_DROPPED", the macro its plugin is built with.
std::string MutantMacro(const std::string& name);

}  // namespace opcts
