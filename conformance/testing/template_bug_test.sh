#!/usr/bin/env bash
# A vendor's one-line bug, as reports must show it: the plugin template with its output written
# through the input's strides (wrong for every strided output layout). The run fails, and its
# reports group the failures by cause into at most 3 groups (wrong values, writes past the end),
# each naming its smallest failing case and repro and that case shrunk to a vector file, which
# fails again with `opcts vectors`; the matrix names the highest fully passing level of each
# dtype.
set -euo pipefail
source_dir=$1 work=$2 opcts=$3
rm -rf "$work" && mkdir -p "$work"
cp -r "$source_dir/examples/plugin-template" "$work/template"
kernel="$work/template/cumsum_float32.cc"
grep -q 'y\[out_base + k \* out_strides\[axis\]\]' "$kernel" || { echo "the template changed: update this bug"; exit 1; }
sed -i 's/y\[out_base + k \* out_strides\[axis\]\]/y[out_base + k * in_strides[axis]]/' "$kernel"
cmake -S "$work/template" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DOPCTS_INCLUDE_DIR="$source_dir/backends/include" -DCMAKE_DISABLE_FIND_PACKAGE_opcts=ON >/dev/null
cmake --build "$work/build" >/dev/null
status=0
"$opcts" run --backend "$work/build/libmy-opcts-plugin.so" --no-progress --op dml_cumulative_summation \
  --report-dir "$work/reports" > "$work/run.log" || status=$?
[ "$status" -eq 1 ] || { echo "expected the gate to fail (exit 1), got $status"; cat "$work/run.log"; exit 1; }
python3 - "$work/reports/summary.json" "$work/repros" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
groups = summary["failure_groups"]
for g in groups:
    print(g["status"], g["op"], g["dtype_class"], g["count"], g["cause"], "| smallest:", g["smallest"]["repro"])
assert summary["gate"]["failing_cases"] > 20, summary["gate"]
assert 1 <= len(groups) <= 3, f"{len(groups)} groups for one bug"
assert sum(g["count"] for g in groups) == summary["gate"]["failing_cases"], "a failure outside every group"
for g in groups:
    assert g["smallest"]["repro"].startswith("opcts repro --backend "), g["smallest"]
    minimal = g["minimal"]  # the smallest case, shrunk
    assert minimal and minimal["repro"].startswith("opcts vectors --backend "), g
    assert minimal["elements"] <= minimal["original_elements"], minimal
    print("minimal:", minimal["elements"], "of", minimal["original_elements"], "elements:", minimal["repro"])
    with open(sys.argv[2], "a") as repros:
        repros.write(minimal["repro"].removeprefix("opcts ") + "\n")
    assert len(g["by_layout"]) >= 1 and "packed" not in g["by_layout"], g["by_layout"]
rows = [r for r in summary["matrix"] if r["op"] == "DML_CUMULATIVE_SUMMATION" and r["dtype"] == "FLOAT32"]
assert len(rows) == 1 and rows[0]["highest_passing"] is None and rows[0]["pass_rate"] < 1, rows
assert all("level" in cell for cell in rows[0]["levels"]), rows[0]["levels"]
PY
grep -q '^### Failures by cause ([123] group(s))$' "$work/reports/summary.md" || { echo "summary.md lacks the groups"; exit 1; }
grep -q '^  - shrunk to [0-9]* element(s): `opcts vectors --backend ' "$work/reports/summary.md" ||
  { echo "summary.md lacks the shrunk cases"; exit 1; }
# Each minimal case, run as its repro says, fails the same backend again (exit 1).
while read -r repro; do
  status=0
  # shellcheck disable=SC2086 # the repro is a command line
  "$opcts" $repro > "$work/repro.log" 2>&1 || status=$?
  [ "$status" -eq 1 ] || { echo "opcts $repro: expected exit 1, got $status"; cat "$work/repro.log"; exit 1; }
done < "$work/repros"
