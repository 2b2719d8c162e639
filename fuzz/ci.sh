#!/usr/bin/env bash
# The sanitizer and fuzzing stage of .ci/run. One build serves both: the `fuzz` preset (clang-14,
# ASan + UBSan, libFuzzer targets; everything, Vulkan on lavapipe where there is no GPU). Then:
#  1. one `opcts fuzz` campaign over every target: a new finding fails CI and is written to
#     fuzz/regressions/; its report goes to build/fuzz/campaign-report/;
#  2. every test of that build under the sanitizers (`ctest --preset fuzz`: all but
#     fuzz.oss-fuzz-build, a second full sanitized build): the fuzz tests (seed and regression
#     replays, the codec, whole campaigns against a faulty backend) and the rest of the suite.
# `scripts/test.sh debug-asan` runs the same suite under GCC's sanitizers, locally. Prints how long
# each step took. OPCTS_WERROR=ON (as .ci/run sets it) makes warnings errors.
#   fuzz/ci.sh            OPCTS_FUZZ_CI_SECONDS=N (default 30) sets the campaign's fuzzing time
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${OPCTS_FUZZ_CI_SECONDS:-30}
SECONDS=0
step() { echo "fuzz/ci.sh: $1 done after ${SECONDS} s"; }

scripts/build.sh fuzz
step "build"
build/fuzz/opcts fuzz --seconds "$seconds" --jobs "$(nproc)" --report-dir build/fuzz/campaign-report
step "fuzzing"
ctest --preset fuzz -j "$(nproc)"
step "tests"
