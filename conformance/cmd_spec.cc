#include <iostream>

#include "conformance/commands.h"
#include "conformance/spec_set.h"
#include "spec/spec_loader.h"

namespace opcts {

int SpecCommand(const Args& args) {
  if (args.empty() || args[0] != "check") {
    std::cerr << "usage: opcts spec check [FILE...]\n";
    return 2;
  }
  return SpecCheckMain(Args(args.begin() + 1, args.end()), DefaultSpecDir(), std::cout, std::cerr);
}

}  // namespace opcts
