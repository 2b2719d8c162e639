#include "base/shell_word.h"

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

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
    FILE* pipe = popen(("printf %s " + ShellWord(word)).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buffer[256];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    const int status = pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << word;
    EXPECT_EQ(out, word);
  }
}

}  // namespace
}  // namespace opcts
