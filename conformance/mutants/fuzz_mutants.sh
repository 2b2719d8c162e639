#!/usr/bin/env bash
# Fuzzes every mutant for up to 60 s (15 s on each differential target in turn) and reports the
# time to its first mismatch. Needs the fuzz build (cmake --preset fuzz; cmake --build --preset
# fuzz --target opcts_fuzz_targets) and the mutant plugins of a release build.
#   conformance/mutants/fuzz_mutants.sh [FUZZ_BUILD_DIR] [MUTANT_PLUGIN_DIR]
set -uo pipefail
fuzz=${1:-build/fuzz} plugins=${2:-build/release/mutant-plugins}
export OPCTS_PLUGIN_DIR=$(cd "$fuzz" && pwd)/plugins
work=$(mktemp -d)
killed=0 total=0
printf '%-30s %-40s %s\n' mutant "killed by target" "after"
for so in "$plugins"/opcts-mutant-*.so; do
  name=$(basename "$so" .so); name=${name#opcts-mutant-}
  [ "$name" = none ] && continue
  total=$((total + 1)) found="" start=$(date +%s.%N)
  for target in dml_cumulative_summation dml_cumulative_product dml_scatter_nd openvino_cumsum_3; do
    corpus="$work/$name.$target" && mkdir -p "$corpus"
    if ! "$fuzz/opcts_fuzz_$target" --backend="$(realpath "$so")" -max_total_time=15 -seed=1 \
        -artifact_prefix="$work/" "$corpus" "$fuzz/fuzz-seeds/opcts_fuzz_$target" >"$work/log" 2>&1; then
      found=$target
      break
    fi
  done
  after=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  if [ -n "$found" ]; then killed=$((killed + 1)); printf '%-30s %-40s %.1f s\n' "$name" "$found" "$after"
  else printf '%-30s %-40s %s\n' "$name" "SURVIVED 60 s" "-"; fi
done
echo "fuzzing kills: $killed/$total within 60 s each"
rm -rf "$work"
