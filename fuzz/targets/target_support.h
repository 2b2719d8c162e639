// What every fuzz target shares: its command-line flags and the backend under test.
//
// The backend is `--backend=NAME|PATH` on the target's command line (libFuzzer ignores flags
// that start with "--"), else $OPCTS_FUZZ_BACKEND, else the build's OPCTS_FUZZ_DEFAULT_BACKEND
// (cpu-simd; .clusterfuzzlite/backend.sh sets it for the services, which pass neither). Built-ins
// are found through $OPCTS_PLUGIN_DIR or plugins/ beside the target binary. Its create() options
// are `--backend-options=S`, else $OPCTS_FUZZ_BACKEND_OPTIONS, else none; a backend given as
// NAME@OPTIONS has its own, as in `opcts run`. `--strict` (or $OPCTS_FUZZ_STRICT=1) makes a
// QualityWarning a mismatch, as `opcts run --strict` fails it.
//
//   extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) { return InitFuzzTarget(*argc,
//   *argv); } const Plugin& backend = FuzzBackend();   // loads once; exits with a message if it
//   cannot
#pragma once

#include "conformance/plugin_loader.h"

namespace opcts {

int InitFuzzTarget(int argc, char** argv);
const Plugin& FuzzBackend();
bool FuzzStrict();

}  // namespace opcts
