#!/usr/bin/env bash
# The sanitizer and fuzzing stage of .ci/run. One build serves both: the `fuzz` preset (clang-14,
# ASan + UBSan, libFuzzer targets; everything, Vulkan on lavapipe where there is no GPU). Then:
#  1. one `opcts fuzz` campaign over every target: a new finding fails CI and is written to
#     fuzz/regressions/; its report goes to build/fuzz/campaign-report/. Where cpu-simd dispatches
#     an AVX-512 target, a second one (2/3 of the time) fuzzes its AVX2 kernels
#     (`--backend-options target=AVX2`) with the operator targets, one per spec, which no other
#     campaign here reaches; its report goes to build/fuzz/campaign-report-avx2/;
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
# Captured (`grep -q` stops reading early: pipefail); no leak check, as `opcts list` loads the
# vulkan plugin (OPCTS_VULKAN_LEAK_EXEMPTION, CMakeLists.txt).
backends=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" build/fuzz/opcts list)
if grep -Eq 'dispatched target AVX3[A-Z0-9_]*; compiled targets[^;]* AVX2( |;|$)' <<<"$backends"; then
  operators=()
  for spec in spec/*.yaml; do operators+=(--target "opcts_fuzz_$(basename "$spec" .yaml)"); done
  build/fuzz/opcts fuzz --backend-options target=AVX2 --seconds $((seconds * 2 / 3)) \
    --jobs "$(nproc)" "${operators[@]}" --report-dir build/fuzz/campaign-report-avx2
  step "fuzzing cpu-simd's AVX2 kernels"
else
  echo "fuzz/ci.sh: cpu-simd dispatches no AVX-512 target here: the campaign above fuzzed the one it does"
fi
ctest --preset fuzz -j "$(nproc)"
step "tests"
