#include <iostream>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/spec_set.h"
#include "spec/spec_loader.h"

namespace opcts {

namespace {

constexpr const char* kUsage =
    "usage: opcts spec check [FILE...]\n"
    "Validates operator specs (default: every spec in the spec directory, $OPCTS_SPEC_DIR or the\n"
    "source tree's spec/); each problem as file:line: field: message. Exit 0 valid, 2 not.\n";

}  // namespace

int SpecCommand(const Args& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return PrintUsage(kUsage);
  if (args.empty() || args[0] != "check")
    return PrintUsage(kUsage, "opcts spec: the subcommand is check");
  return SpecCheckMain(Args(args.begin() + 1, args.end()), DefaultSpecDir(), std::cout, std::cerr);
}

}  // namespace opcts
