#!/usr/bin/env bash
# Builds examples/plugin-template as a vendor would (its own CMake project, out of tree) and runs
# it through opcts: the template must pass the conformance run.
set -euo pipefail
source_dir=$1 build_dir=$2 opcts=$3
cmake -S "$source_dir/examples/plugin-template" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" >/dev/null
"$opcts" run --backend "$build_dir/libmy-opcts-plugin.so" --no-progress --journal "$build_dir/journal.jsonl" | tail -8
# Proof that its cumulative sums were executed and judged, not merely refused.
grep -q '"backend":"my-opcts-plugin".*"op":"DML_CUMULATIVE_SUMMATION".*"dtype":"FLOAT32".*"status":"Pass"' \
  "$build_dir/journal.jsonl" || { echo "no FLOAT32 cumulative sum was executed and passed"; exit 1; }
