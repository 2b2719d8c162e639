#include "conformance/mutants/catalogue.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace opcts {
namespace {

std::string Read(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(MutantCatalogue, ReadsRowsAndSkipsOtherTables) {
  const Catalogue c = ParseCatalogue(
      "| file | what |\n|---|---|\n| `backend/` | the backend |\n\n"
      "| mutant | caught as | bug | models |\n|---|---|---|---|\n"
      "| `block-carry-dropped` | Fail | carry dropped | carries dropped on long axes |\n"
      "| `float16-accumulator` | QualityWarning | f16 sums in f16 | f16 accumulated in f16 |\n",
      "cat.md");
  ASSERT_EQ(c.error, "");
  ASSERT_EQ(c.mutants.size(), 2u);
  EXPECT_EQ(c.mutants[0].name, "block-carry-dropped");
  EXPECT_EQ(c.mutants[0].caught_as, Status::kFail);
  EXPECT_EQ(c.mutants[0].bug, "carry dropped");
  EXPECT_EQ(c.mutants[1].models, "f16 accumulated in f16");
}

TEST(MutantCatalogue, RejectsBadRowsNamingTheLine) {
  EXPECT_EQ(ParseCatalogue("x\n| `a` | Fail | bug |\n", "c.md").error,
            "c.md:2: a mutant row needs 4 cells (name, caught as, bug, models), not 3");
  EXPECT_EQ(ParseCatalogue("| `a` | Fail | b | m |\n| `a` | Fail | b | m |\n", "c.md").error,
            "c.md:2: mutant 'a' appears twice");
  EXPECT_EQ(ParseCatalogue("| `a` | Pass | b | m |\n", "c.md").error,
            "c.md:1: mutant 'a': caught-as 'Pass' is not a status that fails the gate (or "
            "QualityWarning)");
  EXPECT_EQ(ParseCatalogue("| `none` | Fail | b | m |\n", "c.md").error,
            "c.md:1: 'none' is the control's name, not a mutant's");
  EXPECT_EQ(ParseCatalogue("| `a` | Fail |  | m |\n", "c.md").error,
            "c.md:1: mutant 'a' has an empty bug or models cell");
  EXPECT_NE(ParseCatalogue("no table\n", "c.md").error, "");
  EXPECT_TRUE(ParseCatalogue("| `a` | Fail | b |\n", "c.md").mutants.empty());
}

TEST(MutantCatalogue, MacroSpellsTheName) {
  EXPECT_EQ(MutantMacro("int64-indices-as-int32"), "OPCTS_MUTANT_INT64_INDICES_AS_INT32");
}

// A row whose macro no backend source tests would build the correct backend and survive; say
// so here, by name, before the score run does.
TEST(MutantCatalogue, ShippedCatalogueHasTwentyMutantsEachUsedByTheBackend) {
  const Catalogue c = ReadCatalogue(std::string(OPCTS_MUTANTS_DIR) + "/README.md");
  ASSERT_EQ(c.error, "");
  EXPECT_GE(c.mutants.size(), 20u);
  std::string sources;
  for (const char* file : {"plugin.cc", "layout.cc", "scan.cc", "scatter_nd.cc", "elements.h"})
    sources += Read(std::string(OPCTS_MUTANTS_DIR) + "/backend/" + file);
  for (const MutantEntry& m : c.mutants)
    EXPECT_NE(sources.find(MutantMacro(m.name)), std::string::npos)
        << m.name << ": no source uses " << MutantMacro(m.name);
}

}  // namespace
}  // namespace opcts
