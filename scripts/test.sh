#!/usr/bin/env bash
# The test suite: builds the release preset and runs every test with ctest, on every core.
# `scripts/test.sh debug-asan` runs the same tests under AddressSanitizer + UBSan (GCC);
# `scripts/test.sh fuzz` under clang's, with the fuzz tests (the sanitizer stage of .ci/run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
preset=${1:-release}
scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
