#!/usr/bin/env bash
# CI for fuzz/ (.ci/run calls it): builds every fuzz target with the `fuzz` preset (clang-14,
# ASan + UBSan, libFuzzer), runs one `opcts fuzz` campaign over every target (a new finding
# fails CI and is written to fuzz/regressions/; its report goes to build/fuzz/campaign-report/),
# then runs the fuzz tests of that build: seed and regression replays under the sanitizers, the
# codec and regression-corpus tests, and whole campaigns against a faulty backend
# (fuzz.campaign). Prints how long each step took. OPCTS_WERROR=ON (as .ci/run sets it) makes
# warnings errors.
#   fuzz/ci.sh            OPCTS_FUZZ_CI_SECONDS=N (default 30) sets the campaign's fuzzing time
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${OPCTS_FUZZ_CI_SECONDS:-30}
SECONDS=0
step() { echo "fuzz/ci.sh: $1 done after ${SECONDS} s"; }

cmake --preset fuzz -DOPCTS_VULKAN=OFF ${OPCTS_WERROR:+-DOPCTS_WERROR=$OPCTS_WERROR} >/dev/null
cmake --build build/fuzz --target opcts opcts_fuzz_targets opcts_fuzz_test opcts_fault_flip_bit_f16 -j2
step "build"
build/fuzz/opcts fuzz --seconds "$seconds" --jobs 2 --report-dir build/fuzz/campaign-report
step "fuzzing"
# fuzz.oss-fuzz-build (build.sh under the OSS-Fuzz contract: a second full build, ~10 min) is
# left to `ctest --preset fuzz` runs; CI keeps to its bounded time.
ctest --test-dir build/fuzz -R '^(fuzz\.|Fuzz|SpecialValues)' -E '^fuzz\.oss-fuzz-build$' --output-on-failure -j2
step "tests"
