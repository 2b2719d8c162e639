// `opcts fuzz` in a build without the fuzz library (neither OPCTS_FUZZ nor OPCTS_BUILD_TESTS:
// its input decoder needs clang's FuzzedDataProvider.h). The command exists, says why it cannot
// run and how to get a build that can, and exits 2; cmd_fuzz.cc is the campaign itself.
#include <iostream>

#include "cli/commands.h"

namespace opcts {

int FuzzCommand(const Args&) {
  std::cerr
      << "opcts fuzz: this opcts was built without fuzzing support: configure with -DOPCTS_FUZZ=ON "
         "(the fuzz preset: cmake --preset fuzz -DOPCTS_VULKAN=OFF)\n";
  return 2;
}

}  // namespace opcts
