#!/usr/bin/env python3
"""Checks a torch-cpu conformance run (backends/torch/ci.sh) case by case, from its journal.

  check_run.py JOURNAL SUMMARY_JSON

SUMMARY_JSON is `opcts report --waivers backends/torch/waivers.yaml`'s JSON of the same journal.
Exit 1, naming every offending case, unless
  (a) the gate passed with the waivers;
  (b) torch computed a substantial share of the cases it was asked (a run of refusals proves
      nothing): at least 40 % overall and 20 % of each operator's;
  (c) every case torch computed agreed with the reference (Pass, or QualityWarning: within the
      bound for accumulation in the output type), except PyTorch's documented finding, each case
      of which must fail exactly that way: a summation scan of floats whose first wrong element
      is a -0.0 that torch.cumsum returned as +0.0 (waivers.yaml says why);
  (d) every refusal is one of torch's known gaps, in its words, and every invalid case was
      rejected.
"""
import collections
import json
import re
import sys

BACKEND = "torch-cpu"
KNOWN_REFUSALS = [
    re.compile(r"has no UINT(16|32|64) tensors \(torch\.uint8 is its one unsigned integer dtype\)$"),
    re.compile(r'refuses torch\.(cumsum|cumprod) on FLOAT16 tensors: '
               r'"(cumsum|cumprod)_out_cpu" not implemented for \'Half\'$'),
]
SUM_SCANS = {"DML_CUMULATIVE_SUMMATION", "ONNX_CUMSUM", "OPENVINO_CUMSUM_3"}
FLOATS = {"FLOAT64", "FLOAT32", "FLOAT16", "BFLOAT16"}
ZERO_VALUE_CLASSES = {"neg-zero", "specials", "cancellation"}  # those holding -0.0 terms
PLUS_ZERO_FOR_MINUS_ZERO = re.compile(
    r": \d+ of \d+ elements wrong; first element \[[0-9,]*\]: "
    r"expected -0 \(0x80*\), got 0 \(0x0+\)$")
REFUSED_AT_EXECUTE = "out-of-range indices refused at execute"
MIN_COMPUTED_SHARE = 0.4
MIN_COMPUTED_SHARE_PER_OPERATOR = 0.2
MAX_PROBLEMS_SHOWN = 50


def is_known_finding(case):
    return (case["op"] in SUM_SCANS and case["dtype"] in FLOATS and
            case.get("values") in ZERO_VALUE_CLASSES and
            PLUS_ZERO_FOR_MINUS_ZERO.search(case.get("message", "")) is not None)


def classify(case):
    """One of: computed, finding, refused-at-execute, not-supported, invalid-rejected; or a
    problem, as ('problem', why)."""
    status, message = case["status"], case.get("message", "")
    if case.get("group") == "invalid":
        return "invalid-rejected" if status == "InvalidRejected" else ("problem", "invalid case")
    if status == "Pass":
        return "refused-at-execute" if case.get("behaviour") == REFUSED_AT_EXECUTE else "computed"
    if status == "QualityWarning":
        return "computed"
    if status == "NotSupported":
        if any(r.search(message) for r in KNOWN_REFUSALS):
            return "not-supported"
        return ("problem", "a refusal that is not one of torch's known gaps")
    if status == "Fail" and is_known_finding(case):
        return "finding"
    return ("problem", "torch and the reference disagree")


def main(journal_path, summary_path):
    cases = []
    with open(journal_path) as journal:
        for line in journal:
            record = json.loads(line) if line.strip() else {}
            if record.get("type") == "case" and record.get("backend") == BACKEND:
                cases.append(record)
    summary = json.load(open(summary_path))
    problems = []
    if not summary["gate"]["passed"]:
        problems.append("the gate failed with the waivers: " + "; ".join(summary["gate"]["reasons"]))

    counts = collections.Counter()
    asked = collections.Counter()     # operator -> valid and unclaimed cases
    computed = collections.Counter()  # operator -> cases torch computed
    for case in cases:
        kind = classify(case)
        if isinstance(kind, tuple):
            problems.append(f"{case['id']}: {case['status']}: {kind[1]}: {case.get('message', '')}")
            continue
        counts[kind] += 1
        if kind != "invalid-rejected":
            asked[case["op"]] += 1
        if kind in ("computed", "finding"):
            computed[case["op"]] += 1
    counts["quality-warning"] = sum(1 for c in cases if c["status"] == "QualityWarning")
    waived = summary["totals"]["by_status"].get("Waived", 0)
    if waived != counts["finding"]:
        problems.append(f"the report waived {waived} cases, the journal holds {counts['finding']} "
                        "of the documented finding")

    total_asked, total_computed = sum(asked.values()), sum(computed.values())
    if total_asked == 0 or total_computed < MIN_COMPUTED_SHARE * total_asked:
        problems.append(f"torch computed {total_computed} of the {total_asked} cases it was asked, "
                        f"under {MIN_COMPUTED_SHARE:.0%}: the run proves too little")
    for op, n in sorted(asked.items()):
        if computed[op] < MIN_COMPUTED_SHARE_PER_OPERATOR * n:
            problems.append(f"{op}: torch computed {computed[op]} of {n} cases, under "
                            f"{MIN_COMPUTED_SHARE_PER_OPERATOR:.0%}")

    print(f"check_run.py: {BACKEND}: {len(cases)} cases; computed {total_computed} of the "
          f"{total_asked} asked ({counts['quality-warning']} QualityWarning, "
          f"{counts['finding']} the documented -0.0 finding), {counts['refused-at-execute']} "
          f"out-of-range index sets refused at execute, {counts['not-supported']} NotSupported "
          f"(torch's known gaps), {counts['invalid-rejected']} InvalidRejected")
    for op, n in sorted(asked.items()):
        print(f"  {op}: computed {computed[op]} of {n}")
    if problems:
        print(f"check_run.py: FAILED, {len(problems)} problem(s):", file=sys.stderr)
        for p in problems[:MAX_PROBLEMS_SHOWN]:
            print("  " + p, file=sys.stderr)
        if len(problems) > MAX_PROBLEMS_SHOWN:
            print(f"  ... {len(problems) - MAX_PROBLEMS_SHOWN} more", file=sys.stderr)
        return 1
    print("check_run.py: every case torch computed agreed with the reference, but for the "
          "documented finding")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
