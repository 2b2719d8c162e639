#!/usr/bin/env bash
# Builds examples/plugin-template as a vendor would (its own CMake project, out of tree) and runs
# it through opcts: the template must pass the conformance run, and its float32 sums the IEEE
# edges of opcts_scan_edges (signed zeros: a -0.0 head, lines of -0.0, the empty sum +0.0).
set -euo pipefail
source_dir=$1 build_dir=$2 opcts=$3 scan_edges=$4
# This tree's opcts/backend.h, never that of an opcts installed on the machine
# (install_test.sh builds the template against an install).
cmake -S "$source_dir/examples/plugin-template" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_opcts=ON >/dev/null
cmake --build "$build_dir" >/dev/null
"$opcts" run --backend "$build_dir/libmy-opcts-plugin.so" --no-progress --journal "$build_dir/journal.jsonl" | tail -8
# Proof that its cumulative sums were executed and judged, not merely refused.
grep -q '"backend":"my-opcts-plugin".*"op":"DML_CUMULATIVE_SUMMATION".*"dtype":"FLOAT32".*"status":"Pass"' \
  "$build_dir/journal.jsonl" || { echo "no FLOAT32 cumulative sum was executed and passed"; exit 1; }
# Proof that it was sent every invalid form its README lists that no constraint names, and
# refused each (the gate already fails on one it executed).
for form in tensor-desc-null data-type-zero data-type-past-last dimension-count-zero \
    dimension-count-nine size-zero total-bytes-below-minimum alignment-not-power-of-two \
    param-HasExclusiveSum param-AxisDirection binding-count-below binding-count-above \
    binding-size-mismatch; do
  grep -q '"id":"dml_cumulative_summation\.[^"]*\.invalid\.'"$form"'\.s[0-9]*","backend":"my-opcts-plugin".*"status":"InvalidRejected"' \
    "$build_dir/journal.jsonl" || { echo "invalid form $form was not sent or not refused"; exit 1; }
done
"$scan_edges" "$build_dir/libmy-opcts-plugin.so"
