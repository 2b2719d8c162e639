#!/usr/bin/env bash
# CI: the smallest opcts (the `minimal` preset: no tests, benchmarks, Vulkan or fuzzing) from a
# fresh build directory on a machine view without GoogleTest, rapidcheck, Google Benchmark and
# Vulkan (CMAKE_DISABLE_FIND_PACKAGE_*: a find_package of one of them fails the configure), then
# proof that the product works: a short conformance run of both CPU backends with its reports,
# and `opcts fuzz` saying it was built without fuzzing (exit 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-deps.sh
build=build/minimal
rm -rf "$build"
SECONDS=0
cmake --preset minimal --no-warn-unused-cli ${OPCTS_WERROR:+-DOPCTS_WERROR=$OPCTS_WERROR} \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_rapidcheck=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_Vulkan=ON >/dev/null
echo "minimal-build.sh: configured in ${SECONDS} s"
cmake --build --preset minimal -j "$(nproc)"
echo "minimal-build.sh: built after ${SECONDS} s"

"$build/opcts" run --backend cpu-reference --backend cpu-simd --op DML_CUMULATIVE_SUMMATION \
  --max-cases 200 --no-progress --report-dir "$build/run"
code=0
"$build/opcts" fuzz 2>"$build/fuzz.err" || code=$?
[ "$code" -eq 2 ] && grep -q "built without fuzzing" "$build/fuzz.err" || {
  echo "minimal-build.sh: opcts fuzz exited $code: $(cat "$build/fuzz.err")" >&2
  exit 1
}
echo "minimal-build.sh: done after ${SECONDS} s"
