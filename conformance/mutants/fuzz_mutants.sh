#!/usr/bin/env bash
# Fuzzes every mutant for up to 60 s and reports the time to its first mismatch. The four
# differential targets fuzz the mutant at once (on 2 cores: each gets about half a core), each in
# strict mode (a QualityWarning is a mismatch, as `opcts run --strict` fails it); the first
# mismatch stops the others. The control (the mutant backend without a bug) is fuzzed first and
# must survive: that proves every kill is the bug's.
#
# By default each target starts from its seed corpus, which holds the generated conformance
# cases (encoded), so a bug the default run catches is mostly caught while the seeds replay.
# --no-seeds starts from an empty corpus (the dictionary kept): what fuzzing alone finds.
#
# Needs the fuzz build (cmake --preset fuzz; cmake --build --preset fuzz --target
# opcts_fuzz_targets) and the mutant plugins of a release build.
#   conformance/mutants/fuzz_mutants.sh [--no-seeds] [--seconds N] [FUZZ_BUILD_DIR] [MUTANT_PLUGIN_DIR]
# Exit code: 0 every mutant killed and the control not, 1 otherwise, 2 not built.
set -uo pipefail
seeds=1 seconds=60
while [[ $# -gt 0 && $1 == --* ]]; do
  case "$1" in
    --no-seeds) seeds=0; shift ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "fuzz_mutants.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
fuzz=${1:-build/fuzz} plugins=${2:-build/release/mutant-plugins}
targets=(dml_cumulative_summation dml_cumulative_product dml_scatter_nd openvino_cumsum_3)
for t in "${targets[@]}"; do
  [ -x "$fuzz/opcts_fuzz_$t" ] || { echo "fuzz_mutants.sh: $fuzz/opcts_fuzz_$t is not built" >&2; exit 2; }
done
[ -e "$plugins/opcts-mutant-none.so" ] || { echo "fuzz_mutants.sh: no mutants in $plugins" >&2; exit 2; }
export OPCTS_PLUGIN_DIR=$(cd "$fuzz" && pwd)/plugins
work=$(mktemp -d)
trap 'for p in $(jobs -p); do pkill -P "$p"; done 2>/dev/null; rm -rf "$work"' EXIT

# Fuzzes plugin $2 (named $1) on every target at once; sets `found` (the target that found a
# mismatch, or empty), `as` (its status) and `after` (seconds to it).
fuzz_plugin() {
  local name=$1 so=$2 start pids=() t dir done_count rc end=""
  found="" as="" after=""
  start=$(date +%s.%N)
  for t in "${targets[@]}"; do
    dir="$work/$name/$t" && mkdir -p "$dir/corpus"
    local seed_dir="$fuzz/fuzz-seeds/opcts_fuzz_$t" inputs=("$dir/corpus")
    [ "$seeds" = 1 ] && inputs+=("$seed_dir")
    (
      "$fuzz/opcts_fuzz_$t" --backend="$(realpath "$so")" --strict -max_total_time="$seconds" -seed=1 \
        -timeout=10 -rss_limit_mb=1024 -dict="$seed_dir.dict" -artifact_prefix="$dir/" \
        "${inputs[@]}" >"$dir/log" 2>&1
      echo $? >"$dir/rc.tmp"
      date +%s.%N >"$dir/end"
      mv "$dir/rc.tmp" "$dir/rc"
    ) &
    pids+=($!)
  done
  while [ -z "$found" ]; do
    done_count=0
    for t in "${targets[@]}"; do
      [ -e "$work/$name/$t/rc" ] || continue
      done_count=$((done_count + 1))
      rc=$(cat "$work/$name/$t/rc")
      if [ "$rc" = 2 ]; then
        echo "fuzz_mutants.sh: $t could not start:" >&2
        tail -3 "$work/$name/$t/log" >&2
        exit 2
      fi
      if [ "$rc" != 0 ]; then found=$t end=$(cat "$work/$name/$t/end"); break; fi
    done
    [ "$done_count" = "${#targets[@]}" ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do pkill -P "$pid" 2>/dev/null; done
  wait
  [ -n "$found" ] || return 0
  as=$(grep -o -m1 '^==opcts-fuzz== [A-Za-z]*' "$work/$name/$found/log" | cut -d' ' -f2)
  as=${as:-crash}
  after=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
}

echo "fuzzing each mutant for up to $seconds s, $([ "$seeds" = 1 ] && echo "from the seed corpora" || echo "from empty corpora")"
fuzz_plugin none "$plugins/opcts-mutant-none.so"
if [ -n "$found" ]; then
  echo "the control failed: $found found $as after $after s; see why before trusting any kill" >&2
  tail -40 "$work/none/$found/log" >&2
  exit 1
fi
echo "control (no bug): no mismatch in $seconds s"
printf '%-30s %-28s %-16s %s\n' mutant "killed by target" "as" "after"
killed=0 total=0
for so in "$plugins"/opcts-mutant-*.so; do
  name=$(basename "$so" .so); name=${name#opcts-mutant-}
  [ "$name" = none ] && continue
  total=$((total + 1))
  fuzz_plugin "$name" "$so"
  if [ -n "$found" ]; then
    killed=$((killed + 1))
    printf '%-30s %-28s %-16s %s s\n' "$name" "$found" "$as" "$after"
  else
    printf '%-30s %-28s %-16s %s\n' "$name" "SURVIVED $seconds s" "-" "-"
  fi
done
echo "fuzzing kills: $killed/$total within $seconds s each"
[ "$killed" = "$total" ]
