#!/usr/bin/env bash
# Whole `opcts fuzz` campaigns in the fuzz build (ctest fuzz.campaign), against a backend with
# one bug (every float16 output's lowest bit flipped) and against a sound one:
#   1. the bug is one new finding however many inputs show it; its vector fails on the faulty
#      backend and passes on cpu-reference; exit 1; the campaign ends within its time and the
#      30 s triage; the report's three files are written; the corpus is kept and merged;
#   2. with that finding in the regression corpus, the same campaign reports it known; exit 0;
#   3. so does a waiver that covers it;
#   4. a sound backend: no finding, executions counted; exit 0;
#   5. a backend that cannot load: the target executes nothing, which proves nothing: exit 2;
#   6. --backend-options (or NAME@OPTIONS) reach the backend's create(): cpu-simd's lowest target
#      is fuzzed (its device line says so), the report names the options; options it refuses stop
#      every target before any input, and the report says why: exit 2.
#   fuzz/campaign_test.sh FUZZ_BUILD_DIR FAULTY_PLUGIN
set -uo pipefail
build=$1 faulty=$2
opcts=$build/opcts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...: the command must succeed
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
# json FILE EXPRESSION: a Python expression over the parsed file `d`.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# campaign NAME ARGS...: a 8 s campaign of the ScatterND target; sets rc and took (seconds).
campaign() {
  local name=$1; shift
  local start=$SECONDS
  "$opcts" fuzz --seconds 8 --jobs 2 --target opcts_fuzz_dml_scatter_nd --work "$work/w" \
    --report-dir "$work/$name" "$@" >"$work/$name.log" 2>&1
  rc=$? took=$((SECONDS - start))
  echo "--- $name: exit $rc after $took s"; tail -8 "$work/$name.log"
}

campaign found --backend "$faulty" --regressions "$work/regressions" --corpus "$work/corpus"
check "a new finding exits 1" [ "$rc" = 1 ]
check "fuzzing 8 s and triage at most 30 s (+2 s start)" [ "$took" -le 40 ]
check "the report's three files" test -s "$work/found/campaign.json" -a -s "$work/found/campaign.md" -a -s "$work/found/campaign.html"
check "one bug, one new signature" [ "$(json "$work/found/campaign.json" 'd["new_findings"]')" = 1 ]
check "the signature is the report's group key" \
  [ "$(json "$work/found/campaign.json" 'd["findings"][0]["signature"]')" = "Fail DML_SCATTER_ND (float): OutputTensor: wrong elements" ]
check "its later inputs are counted, not kept" [ "$(json "$work/found/campaign.json" 'd["findings"][0]["count"] > 1')" = True ]
check "the triage said where it was" grep -q "minimizing 1/1" "$work/found.log"
vector=$work/found/$(json "$work/found/campaign.json" 'd["findings"][0]["vector"]')
check "the vector is in the report and the regression corpus" \
  test -s "$vector" -a -s "$work/regressions/$(basename "$vector")"
check "the vector fails on the faulty backend" \
  bash -c "! '$opcts' vectors --backend '$faulty' '$vector' >/dev/null"
check "the vector passes on cpu-reference (expected: the reference)" \
  "$opcts" vectors --backend cpu-reference "$vector"
check "the corpus is kept, merged" \
  [ "$(json "$work/found/campaign.json" 'd["targets"][0]["corpus"].startswith("merged")')" = True ]
check "the corpus folder holds it" test -n "$(ls "$work/corpus/opcts_fuzz_dml_scatter_nd")"

campaign known --backend "$faulty" --regressions "$work/regressions" --corpus "$work/corpus"
check "a finding in the regression corpus is known: exit 0" [ "$rc" = 0 ]
check "known from the regression" \
  [ "$(json "$work/known/campaign.json" '[f["known"] for f in d["findings"]]')" = "['regression $(basename "$vector")']" ]

cat >"$work/waivers.yaml" <<'EOF'
waivers:
  - id: "dml_scatter_nd.f16.*"
    backend: fault-flip-bit-f16
    reason: the float16 bit flip is known
    expires: 2099-12-31
EOF
campaign waived --backend "$faulty" --regressions "$work/empty" --waivers "$work/waivers.yaml"
check "a waived finding is known: exit 0" [ "$rc" = 0 ]
check "known from the waiver" grep -q '"known": "waiver .*waivers.yaml:' "$work/waived/campaign.json"

campaign sound --backend cpu-simd --regressions "$work/empty"
check "a sound backend: exit 0" [ "$rc" = 0 ]
check "no finding" [ "$(json "$work/sound/campaign.json" 'len(d["findings"])')" = 0 ]
check "executions counted" [ "$(json "$work/sound/campaign.json" 'd["targets"][0]["executions"] > 1000')" = True ]

campaign unloadable --backend "$work/no-such-plugin.so" --regressions "$work/empty"
check "a target that executed nothing fails the campaign: exit 2" [ "$rc" = 2 ]
check "and says why" grep -q "executed no input" "$work/unloadable/campaign.json"
check "with the loader's reason" grep -q "could not start: backend $work/no-such-plugin.so: " "$work/unloadable/campaign.json"

# The last target cpu-simd compiles (SCALAR, or EMU128 under clang) runs on every CPU. `opcts
# list` loads the vulkan plugin too: no leak check (OPCTS_VULKAN_LEAK_EXEMPTION, CMakeLists.txt).
lowest=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$opcts" list |
  sed -n 's/.*compiled targets \([^;]*\);.*/\1/p' | awk '{print $NF}')
check "opcts list names cpu-simd's compiled targets" [ -n "$lowest" ]
campaign lowest --backend cpu-simd --backend-options "target=$lowest" --regressions "$work/empty"
check "options: cpu-simd's $lowest kernels, sound: exit 0" [ "$rc" = 0 ]
check "the target created it with them" \
  grep -q "options \"target=$lowest\", device .*($lowest)" "$work/w/logs/opcts_fuzz_dml_scatter_nd.log"
check "they were fuzzed" [ "$(json "$work/lowest/campaign.json" 'd["targets"][0]["executions"] > 100')" = True ]
check "the report names the options" [ "$(json "$work/lowest/campaign.json" 'd["backend_options"]')" = "target=$lowest" ]
out=$("$build/opcts_fuzz_dml_scatter_nd" "--backend=cpu-simd@target=$lowest" -runs=10 2>&1)
check "a target takes the options after an '@' too" grep -q "options \"target=$lowest\", device .*($lowest)" <<<"$out"

campaign refused --backend cpu-simd@target=NO_SUCH --regressions "$work/empty"
check "options the backend refuses: exit 2" [ "$rc" = 2 ]
check "the report says the backend's reason" [ "$(json "$work/refused/campaign.json" \
  'all(s in d["targets"][0]["error"] for s in ("could not start: backend cpu-simd, options \"target=NO_SUCH\": ", "option target=NO_SUCH is not one of"))')" = True ]

echo "campaign_test.sh: $failures failure(s)"
[ "$failures" = 0 ]
