#include "conformance/mutants/catalogue.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "reports/status.h"

namespace opcts {
namespace {

std::string Trim(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  return std::string(s.substr(begin, s.find_last_not_of(" \t") - begin + 1));
}

bool IsName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!std::islower(static_cast<unsigned char>(c)) &&
        !std::isdigit(static_cast<unsigned char>(c)) && c != '-')
      return false;
  return true;
}

}  // namespace

Catalogue ParseCatalogue(std::string_view markdown, const std::string& source) {
  Catalogue catalogue;
  std::set<std::string> names;
  size_t line_number = 0;
  const auto fail = [&](const std::string& what) {
    catalogue.mutants.clear();
    catalogue.error = source + ":" + std::to_string(line_number) + ": " + what;
    return catalogue;
  };
  while (!markdown.empty()) {
    const size_t end = markdown.find('\n');
    const std::string_view line = markdown.substr(0, end);
    markdown = end == std::string_view::npos ? std::string_view() : markdown.substr(end + 1);
    ++line_number;
    // A catalogue row starts with its name in backticks, as CMake's regex ^| `[a-z0-9-]+` | says.
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    for (size_t begin = 1, bar; (bar = line.find('|', begin)) != std::string_view::npos;
         begin = bar + 1)
      cells.push_back(Trim(line.substr(begin, bar - begin)));
    if (cells.empty() || cells[0].size() < 2 || cells[0].back() != '`' ||
        !IsName(cells[0].substr(1, cells[0].size() - 2)))
      continue;  // another table's row, e.g. a file name
    if (cells.size() != 4)
      return fail("a mutant row needs 4 cells (name, caught as, bug, models), not " +
                  std::to_string(cells.size()));
    const std::string name = cells[0].substr(1, cells[0].size() - 2);
    const std::optional<Status> caught_as = StatusNamed(cells[1]);
    if (name == "none") return fail("'none' is the control's name, not a mutant's");
    if (!names.insert(name).second) return fail("mutant '" + name + "' appears twice");
    if (!caught_as || !IsGateFailure(*caught_as, /*strict=*/true))
      return fail("mutant '" + name + "': caught-as '" + cells[1] +
                  "' is not a status that fails the gate (or QualityWarning)");
    MutantEntry m{name, *caught_as, cells[2], cells[3]};
    if (m.bug.empty() || m.models.empty())
      return fail("mutant '" + m.name + "' has an empty bug or models cell");
    catalogue.mutants.push_back(std::move(m));
  }
  if (catalogue.mutants.empty())
    return fail("no mutant rows (| `name` | caught as | bug | models |)");
  return catalogue;
}

Catalogue ReadCatalogue(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    Catalogue c;
    c.error = path + ": cannot read the mutant catalogue";
    return c;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return ParseCatalogue(text.str(), path);
}

std::string MutantMacro(const std::string& name) {
  std::string macro = "OPCTS_MUTANT_";
  for (char c : name)
    macro += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return macro;
}

}  // namespace opcts
