#include "base/shell_word.h"

#include <string>

#include <gtest/gtest.h>

#include "base/shell_output.h"

namespace opcts {
namespace {

TEST(ShellWord, LeavesPlainWordsAlone) {
  EXPECT_EQ(ShellWord("target=AVX2"), "target=AVX2");
  EXPECT_EQ(ShellWord("/opt/vendor/lib-x_1.2@3,4%+:.so"), "/opt/vendor/lib-x_1.2@3,4%+:.so");
}

TEST(ShellWord, QuotesTheRest) {
  EXPECT_EQ(ShellWord(""), "''");
  EXPECT_EQ(ShellWord("threads=1;target=AVX2"), "'threads=1;target=AVX2'");
  EXPECT_EQ(ShellWord("it's"), "'it'\\''s'");
}

// What the shell makes of it: printf receives exactly the word, whatever it holds.
TEST(ShellWord, TheShellGivesBackTheWord) {
  for (const std::string word :
       {"", "a b", "it's", "$(false)`x`", "a;b|c&d>e<f*?[]{}~#!\\\"\n\t"}) {
    const ShellOutput printed = RunShell("printf %s " + ShellWord(word));
    EXPECT_EQ(printed.exit_code, 0) << word;
    EXPECT_EQ(printed.output, word);
  }
}

}  // namespace
}  // namespace opcts
