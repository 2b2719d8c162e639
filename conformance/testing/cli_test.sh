#!/usr/bin/env bash
# The command line's manners: --help on every command (stdout, exit 0), --version, each error
# once on stderr, plugin strings that cannot drive the terminal, and SIGINT/SIGTERM stopping a
# run with a hung worker: workers killed, reports written and marked interrupted, exit 130/143.
set -uo pipefail
opcts=$1 plugins=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

for cmd in "" spec "spec check" vectors list run repro report "report diff" "report merge" fuzz; do
  # shellcheck disable=SC2086
  "$opcts" $cmd --help >"$dir/out" 2>"$dir/err" || fail "opcts $cmd --help exited $?"
  grep -q usage "$dir/out" || fail "opcts $cmd --help printed no usage on stdout"
  [ -s "$dir/err" ] && fail "opcts $cmd --help wrote to stderr: $(cat "$dir/err")"
done
echo "--help: every command prints its usage on stdout and exits 0"

version=$("$opcts" --version) || fail "opcts --version exited $?"
[[ $version =~ ^opcts\ [0-9]+\.[0-9]+\.[0-9]+ ]] || fail "opcts --version printed '$version'"
echo "--version: $version"

"$opcts" run --dtype float17 >"$dir/out" 2>"$dir/err"
[ $? -eq 2 ] || fail "an unknown dtype did not exit 2"
[ -s "$dir/out" ] && fail "an error went to stdout: $(cat "$dir/out")"
[ "$(grep -c "unknown --dtype 'float17'" "$dir/err")" -eq 1 ] || fail "the error was not printed once: $(cat "$dir/err")"
echo "errors: once, on stderr, exit 2"

# repro resolves a property test's id (its case is rebuilt from the id alone) as well as a run's.
"$opcts" repro --backend cpu-reference dml_scatter_nd.prop.f16.rank3.1x2x3.in2-idx2-1x1x1-u32.padded.unique.s42 \
  >"$dir/out" 2>&1 || fail "repro of a property case exited $?: $(cat "$dir/out")"
grep -q '^backend cpu-reference: Pass' "$dir/out" || fail "repro of a property case did not pass: $(cat "$dir/out")"
echo "repro: resolves a property test's case id"

# repro of a 13 500-element case with one wrong element ([5,0], the sign flipped): the tensors
# summarised around it; --shrink finds the 6-element case and writes it as a vector that fails
# on the backend as the case did, and passes on a correct one.
long=dml_cumulative_summation.f32.rank2.4500x3.axis0-fwd-excl.packed.random.s1
"$opcts" repro --shrink --backend "$plugins/opcts-fault-flip-sign-long-axis.so" \
  --output "$dir/shrunk.json" $long >"$dir/out" 2>&1
[ $? -eq 1 ] || fail "repro --shrink of a failing case did not exit 1: $(tail -n 5 "$dir/out")"
grep -q '^    \[4,0\]: \.\.\. .* \*-\?[0-9.e+-]* (0x[0-9a-f]*)\* .* \.\.\.$' "$dir/out" \
  || fail "repro did not show the elements around the mismatch at [5,0]: $(cat "$dir/out")"
grep -q '(13500 elements; \*x\*: where the output mismatches)' "$dir/out" \
  || fail "repro did not summarise the 13 500-element tensors"
grep -q '^  original: 13500 elements, rank 2 (4500x3)$' "$dir/out" \
  || fail "repro --shrink did not name the original size: $(cat "$dir/out")"
grep -q '^  minimal:  6 elements, rank 1 (6)$' "$dir/out" \
  || fail "repro --shrink did not name the minimal size: $(cat "$dir/out")"
"$opcts" vectors --backend "$plugins/opcts-fault-flip-sign-long-axis.so" "$dir/shrunk.json" >"$dir/out" 2>&1
[ $? -eq 1 ] || fail "the shrunk vector did not fail on the faulty backend: $(cat "$dir/out")"
grep -q 'fault-flip-sign-long-axis: Fail (OutputTensor: 1 of 6 elements wrong; first element \[5\]' \
  "$dir/out" || fail "the shrunk vector failed otherwise: $(cat "$dir/out")"
"$opcts" vectors --backend cpu-reference "$dir/shrunk.json" >"$dir/out" 2>&1 \
  || fail "the shrunk vector did not pass on cpu-reference: $(cat "$dir/out")"
"$opcts" repro --shrink --backend cpu-reference --output "$dir/passing.json" $long >"$dir/out" 2>&1 \
  || fail "repro --shrink of a passing case exited $?: $(tail -n 5 "$dir/out")"
grep -q '^shrink: the case passes; nothing to shrink$' "$dir/out" || fail "repro --shrink of a passing case said: $(tail -n 3 "$dir/out")"
[ -e "$dir/passing.json" ] && fail "repro --shrink wrote a vector for a passing case"
echo "repro: large tensors summarised around the mismatches; --shrink writes the minimal case's vector"

# A backend that refuses every vector it may refuse passes each one but proves nothing: exit 1.
"$opcts" vectors --backend "$plugins/opcts-fault-refuse-all.so" "$(dirname "$0")/../vectors/golden" \
  >"$dir/out" 2>&1
[ $? -eq 1 ] || fail "vectors on a backend that computed none of them did not exit 1: $(tail -n 2 "$dir/out")"
grep -q 'computed none of its [0-9]* vectors: nothing was proven' "$dir/out" \
  || fail "vectors did not say the backend proved nothing: $(tail -n 2 "$dir/out")"
echo "vectors: a backend that computed none of them fails the command"

"$opcts" run --backend "$plugins/opcts-fault-hostile-strings.so" --op dml_cumulative_summation --dtype f32 \
  --max-cases 40 --no-progress --journal "$dir/hostile.jsonl" >"$dir/out" 2>&1
grep -q $'\x1b' "$dir/out" && fail "a plugin's escape sequence reached the terminal"
grep -q $'\r' "$dir/out" && fail "a plugin's carriage return reached the terminal"
grep -q '^Pass forged' "$dir/out" && fail "a plugin forged a result line"
details=$(head -n 1 "$dir/hostile.jsonl" | grep -o '"details":"[^"]*"' | head -n 1)
[ "${#details}" -lt 4300 ] || fail "the journal kept ${#details} bytes of plugin details"
grep -q 'truncated' <<<"$details" || fail "the capped details are not marked truncated"
echo "hostile strings: no escapes on the terminal, details capped in the journal"

"$opcts" run --backend "$plugins/opcts-fault-print-stdout.so" --op dml_cumulative_summation --dtype f32 \
  --max-cases 20 --no-progress >"$dir/out" 2>&1
grep -q 'forged' "$dir/out" && fail "a plugin's stdout reached opcts's output"
echo "plugin stdout: captured, not mixed into the run's output"

# A run whose worker hangs (hang-u16, limit 60 s) is stopped by a signal within seconds.
for signal in INT TERM; do
  out="$dir/stopped-$signal"
  "$opcts" run --backend "$plugins/opcts-fault-hang-u16.so" --op dml_cumulative_product --dtype u16 \
    --timeout-ms 60000 --no-progress --report-dir "$out" >"$dir/run-$signal.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    workers=$(pgrep -P "$pid" | tr '\n' ' ')
    [ -n "$workers" ] && [ -s "$out/journal.jsonl" ] && break
    sleep 0.1
  done
  [ -n "$workers" ] || fail "no worker started"
  sleep 1  # the worker is now spinning in a hung execute
  kill -s "$signal" "$pid"
  start=$SECONDS
  wait "$pid"
  status=$?
  expected=$([ "$signal" = INT ] && echo 130 || echo 143)
  [ "$status" -eq "$expected" ] || { cat "$dir/run-$signal.log"; fail "SIG$signal: exit $status, not $expected"; }
  [ $((SECONDS - start)) -le 5 ] || fail "SIG$signal took $((SECONDS - start)) s to stop the run"
  for w in $workers; do
    kill -0 "$w" 2>/dev/null && fail "worker $w outlived the run"
  done
  grep -q "interrupted by SIG$signal" "$out/summary.md" || fail "summary.md is not marked interrupted"
  grep -q "interrupted by SIG$signal" "$out/summary.json" || fail "summary.json is not marked interrupted"
  grep -q "marked interrupted" "$dir/run-$signal.log" || fail "the run did not say the reports are marked"
  echo "SIG$signal: exit $status, workers gone, reports marked interrupted"
done
