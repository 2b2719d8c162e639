#!/usr/bin/env bash
# A run killed with SIGKILL midway and continued with --resume ends with exactly the journal of
# an uninterrupted run (ids and statuses), losing at most the case in flight.
set -euo pipefail
opcts=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
# Two operators of the six (over 9000 case runs): the resume does not depend on the operator,
# and the whole run three times over took minutes under the sanitizers.
args=(--backend cpu-reference --backend cpu-simd --op DML_CUMULATIVE_SUMMATION --op DML_SCATTER_ND
      --no-progress)
"$opcts" run "${args[@]}" --journal "$dir/full.jsonl" >/dev/null
total=$(grep -c '"type":"case"' "$dir/full.jsonl" || true)
[ "$total" -ge 300 ] || { echo "the uninterrupted run journaled $total case runs: too few to kill midway"; exit 1; }
third=$((total / 3))

"$opcts" run "${args[@]}" --journal "$dir/killed.jsonl" >/dev/null &
pid=$!
# Kill it once a third or so of the cases are journaled.
for _ in $(seq 1 500); do
  lines=0
  [ -f "$dir/killed.jsonl" ] && lines=$(wc -l < "$dir/killed.jsonl")
  [ "$lines" -gt "$third" ] && break
  sleep 0.01
done
kill -9 "$pid" 2>/dev/null || { echo "the run finished before it could be killed"; exit 1; }
wait "$pid" 2>/dev/null || true
before=$(grep -c '"type":"case"' "$dir/killed.jsonl")
"$opcts" run "${args[@]}" --resume "$dir/killed.jsonl" | tail -1

cases() { grep '"type":"case"' "$1" | sed -E 's/.*"id":"([^"]*)","backend":"([^"]*)".*"status":"([^"]*)".*/\1 \2 \3/' | sort; }
cases "$dir/full.jsonl" > "$dir/full.txt"
cases "$dir/killed.jsonl" > "$dir/resumed.txt"
diff -u "$dir/full.txt" "$dir/resumed.txt"
echo "killed after $before case runs; resumed journal equals the uninterrupted run ($(wc -l < "$dir/full.txt") case runs)"
