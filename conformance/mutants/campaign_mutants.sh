#!/usr/bin/env bash
# One `opcts fuzz` campaign per mutant, as a vendor runs one against a backend with one bug:
# every differential target, --strict, --seconds N (default 60) with 2 jobs, from the seed
# corpora, nothing known. Tabulates each campaign's whole wall time (fuzzing and triage), the
# time to its first finding and the distinct new signatures it reported (the goal: one per
# mutant, the mutant's bug). The control (no bug) goes first and must report nothing.
#
# Needs the fuzz build (cmake --preset fuzz; cmake --build --preset fuzz --target opcts
# opcts_fuzz_targets) and the mutant plugins of a release build.
#   conformance/mutants/campaign_mutants.sh [--seconds N] [FUZZ_BUILD_DIR] [MUTANT_PLUGIN_DIR] > table.md
# Exit code: 0 every mutant found and the control clean, 1 otherwise, 2 not built.
set -uo pipefail
seconds=60
if [ "${1:-}" = --seconds ]; then seconds=$2; shift 2; fi
fuzz=${1:-build/fuzz} plugins=${2:-build/release/mutant-plugins}
[ -x "$fuzz/opcts" ] || { echo "campaign_mutants.sh: $fuzz/opcts is not built" >&2; exit 2; }
[ -e "$plugins/opcts-mutant-none.so" ] || { echo "campaign_mutants.sh: no mutants in $plugins" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

echo "Each row: \`opcts fuzz --backend MUTANT --strict --seconds $seconds --jobs 2\` over the"
echo "differential targets ($(ls "$fuzz"/opcts_fuzz_{dml,onnx,openvino}_* | wc -l) of them), from the seed corpora; $(nproc) cores."
echo
echo "| mutant | exit | wall s | first finding s | new signatures | signatures |"
echo "|---|---|---|---|---|---|"
found=0 total=0 clean=1 control_done=0
for so in "$plugins/opcts-mutant-none.so" "$plugins"/opcts-mutant-*.so; do
  name=$(basename "$so" .so); name=${name#opcts-mutant-}
  if [ "$name" = none ]; then
    [ "$control_done" = 1 ] && continue
    control_done=1
  fi
  start=$(date +%s.%N)
  "$fuzz/opcts" fuzz --backend "$(realpath "$so")" --strict --seconds "$seconds" --jobs 2 \
    --target 'opcts_fuzz_dml_*' --target 'opcts_fuzz_onnx_*' --target 'opcts_fuzz_openvino_*' \
    --regressions "$work/$name/regressions" --work "$work/$name/work" --report-dir "$work/$name/report" \
    >"$work/$name.log" 2>&1
  rc=$?
  wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  report=$work/$name/report/campaign.json
  if [ ! -s "$report" ]; then
    echo "| $name | $rc | $wall | - | no report | $(tail -1 "$work/$name.log") |"
    [ "$name" = none ] && clean=0
    continue
  fi
  first=$(json "$report" 'min([f["first_seen"] for f in d["findings"] if f["new"]], default=None) or "-"')
  new=$(json "$report" 'd["new_findings"]')
  signatures=$(json "$report" '"; ".join(f["signature"].replace("|", "/") for f in d["findings"] if f["new"])')
  echo "| $name | $rc | $wall | $first | $new | $signatures |"
  if [ "$name" = none ]; then
    [ "$new" = 0 ] || clean=0
  else
    total=$((total + 1))
    [ "$new" -gt 0 ] && found=$((found + 1))
  fi
done
echo
echo "Found: $found of $total mutants; control $([ "$clean" = 1 ] && echo clean || echo NOT CLEAN)."
[ "$found" = "$total" ] && [ "$clean" = 1 ]
