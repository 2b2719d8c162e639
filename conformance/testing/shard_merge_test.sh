#!/usr/bin/env bash
# merge(shards) == full run: a run split into 3 shards and merged with `opcts report merge` holds
# exactly the cases and statuses of the unsplit run.
set -euo pipefail
opcts=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
"$opcts" run --backend cpu-reference --no-progress --journal "$dir/full.jsonl" >/dev/null
for i in 0 1 2; do
  "$opcts" run --backend cpu-reference --no-progress --shard "$i/3" --journal "$dir/shard$i.jsonl" >/dev/null
done
"$opcts" report merge -o "$dir/merged.jsonl" "$dir"/shard{0,1,2}.jsonl
cases() { grep '"type":"case"' "$1" | sed -E 's/.*"id":"([^"]*)","backend":"([^"]*)".*"status":"([^"]*)".*/\1 \2 \3/' | sort; }
cases "$dir/full.jsonl" > "$dir/full.txt"
cases "$dir/merged.jsonl" > "$dir/merged.txt"
diff -u "$dir/full.txt" "$dir/merged.txt"
echo "merge(shards) == full run: $(wc -l < "$dir/full.txt") cases"
# A missing shard is detected.
if "$opcts" report merge -o "$dir/partial.jsonl" "$dir"/shard{0,1}.jsonl 2>"$dir/err.txt"; then
  echo "merging 2 of 3 shards succeeded"; exit 1
fi
grep -q "shard" "$dir/err.txt" && cat "$dir/err.txt"
