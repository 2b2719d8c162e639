// `opcts fuzz`: a fuzzing campaign over the libFuzzer targets built beside opcts (the `fuzz`
// preset). Each selected target runs for --seconds with --jobs workers (libFuzzer -fork, which
// goes on after a crash) against --backend; every crash, leak, timeout and mismatch is
// minimized and written to fuzz/regressions/ (a differential finding as an opcts-vector/1 JSON,
// anything else as the raw input under regressions/<target>/), and each target's executions per
// second are reported. Exit code: 0 nothing found, 1 findings written, 2 usage or not built.
//
//   opcts fuzz --backend cpu-simd --seconds 60 --jobs 2 [--target 'opcts_fuzz_dml_*']
#pragma once

#include <string>
#include <vector>

namespace opcts {

int FuzzCommand(const std::vector<std::string>& args);

}  // namespace opcts
