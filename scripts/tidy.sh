#!/usr/bin/env bash
# clang-tidy-14 with the root .clang-tidy over the project's translation units in a build's
# compile_commands.json (default: the release preset, built first so that generated headers
# exist), one per core. Generated sources (under build/) are skipped; so are the mutant
# backends, compiled only as unity sources (deliberate bugs, conformance/mutants/). Exit 1 on any
# finding (the configuration makes every warning an error).
#   scripts/tidy.sh [PRESET] [FILE_REGEX]     e.g. scripts/tidy.sh release '/spec/'
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
preset=${1:-release}
filter=${2:-.}
scripts/build.sh "$preset"
root=$(pwd)

units=$(grep -o '"file": "[^"]*"' "build/$preset/compile_commands.json" | cut -d'"' -f4 |
        grep -v "^$root/build/" | grep -E -- "$filter" | sort -u) || true
[ -n "$units" ] || { echo "tidy.sh: no translation unit matches '$filter'" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
SECONDS=0
status=0
# The compile commands are GCC's: clang does not know every warning flag in them.
xargs -r -n 1 -P "$(nproc)" clang-tidy-14 -p "build/$preset" --quiet --extra-arg=-Wno-unknown-warning-option \
  <<<"$units" >"$log" 2>&1 || status=$?
grep -v -E '^[0-9]+ (warnings?|errors?)( and [0-9]+ errors?)? generated\.$' "$log" || true
findings=$({ grep -E ': (warning|error): ' "$log" || true; } | sort -u | wc -l)  # a header's, once
echo "tidy.sh: $(wc -l <<<"$units") translation units in ${SECONDS} s, $findings finding(s)"
[ "$status" -eq 0 ]
