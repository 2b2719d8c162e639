// opcts: the conformance suite's command line. `opcts help` lists the subcommands.
#include <cstdio>
#include <exception>
#include <iostream>

#include "cli/commands.h"
#include "opcts/backend.h"
#include "opcts/version.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const opcts::Args&);
  const char* help;
};

const Command kCommands[] = {
    {"spec", opcts::SpecCommand,
     "spec check [FILE...]      validate operator specs (default: all); spec float-rules: "
     "each platform's float rules"},
    {"vectors", opcts::VectorsCommand,
     "vectors FILE|DIR...       check test vectors against the reference"},
    {"list", opcts::ListCommand,
     "list [--cases] [FILTERS]  built-in backends, operators and cases"},
    {"run", opcts::RunCommand, "run [--backend B]... ...  the conformance run (opcts run --help)"},
    {"repro", opcts::ReproCommand,
     "repro [--backend B] ID    re-run one case and show inputs, expected, actual"},
    {"report", opcts::ReportCommand,
     "report ...                render, diff or merge journals (reports/README.md)"},
    {"fuzz", opcts::FuzzCommand,
     "fuzz [--backend B] [--seconds N] [--jobs J]  libFuzzer campaign (fuzz/README.md)"},
};

int Usage(std::ostream& out) {
  out << "usage: opcts COMMAND [ARGS]   (opcts COMMAND --help for its options; opcts --version)\n\n"
         "commands:\n";
  for (const Command& c : kCommands) out << "  " << c.help << "\n";
  out << "\nenvironment (opcts list shows the folders in use):\n"
         "  OPCTS_SPEC_DIR    operator specs; default: installed, ../share/opcts/spec from the\n"
         "                    binary's folder; in the build tree, the source tree's spec/\n"
         "  OPCTS_PLUGIN_DIR  built-in backends; default: installed, ../lib/opcts/plugins from\n"
         "                    the binary's folder; in the build tree, plugins/ beside it\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc < 2) return Usage(std::cerr);
  const std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    Usage(std::cout);
    return 0;
  }
  if (name == "--version" || name == "version") {
    std::cout << "opcts " << OPCTS_VERSION_STRING << " (backend ABI " << OPCTS_ABI_VERSION << ")\n";
    return 0;
  }
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    try {
      return c.run(opcts::Args(argv + 2, argv + argc));
    } catch (const std::exception& e) {
      // Commands report bad input themselves; reaching here is a bug in opcts.
      std::cerr << "opcts " << name << ": internal error: " << e.what() << "\n";
      return 3;
    }
  }
  std::cerr << "opcts: unknown command '" << name << "'\n";
  return Usage(std::cerr);
}
