// One argument of a printed command line (a repro), quoted for a POSIX shell only when it needs it,
// so a copied command runs the same case however odd its backend path or options are.
//
//   "opcts vectors --backend " + ShellWord(path) + " --backend-options " + ShellWord(options)
#pragma once

#include <string>

namespace opcts {

// `word` as it is when every character is one a shell leaves alone (letters, digits, `_@%+=:,./-`)
// and it is not empty; else in single quotes, each ' written as '\''.
std::string ShellWord(const std::string& word);

}  // namespace opcts
