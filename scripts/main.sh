#!/usr/bin/env bash
# The main job: validate the specs, check the shipped test vectors against the reference, and run
# the full conformance suite on every built-in backend, writing the journal and the reports
# (JSON, JUnit XML, Markdown, HTML) to out/conformance/. Exit 0 only when nothing failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/build.sh release
opcts=build/release/opcts
$opcts spec check
log=$(mktemp)
$opcts vectors conformance/vectors > "$log" || { cat "$log"; exit 1; }
tail -n 1 "$log" && rm -f "$log"
$opcts run --report-dir out/conformance "$@"
