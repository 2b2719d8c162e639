#!/usr/bin/python3
"""numpy's cumsum on the shapes and dtypes of opcts_bench's scan cases, beside cpu-simd's GB/s.

    bench/peers/numpy_cumsum.py BENCH.json [--op dml_cumulative_summation] [--size DRAM]
        [--repetitions 3] [--markdown OUT.md]

Reads the Google Benchmark JSON that opcts_bench wrote (the same run: run it right after, on the
same machine), takes every case of the operator at that size class, and times numpy.cumsum on
the same shape, axis, dtype and layout (bench/bench_cases.cc): 1d {n}; inner {n/4096, 4096} axis
1; outer the same, axis 0; middle {64, n/4096, 64} axis 1; strided: inner read from rows 4097
elements apart; in-place: out= the input. The output array is allocated and touched beforehand,
as opcts_bench's is, and the result keeps the input's dtype (numpy would widen int32 sums).
GB/s counts the tensor's bytes once, as opcts_bench does. Prints (and writes) a Markdown table:
numpy's GB/s, then per cpu-simd backend its GB/s and its speed-up over numpy, and the target.
Exit 2 on bad input or when numpy is missing (Debian: python3-numpy).
"""
import argparse
import json
import statistics
import sys
import time

ROW = 4096  # bench_cases.cc kRowLength
MIDDLE = 64  # kMiddleOuter == kMiddleInner
DTYPES = {"f32": "float32", "f16": "float16", "f64": "float64", "i32": "int32", "i64": "int64",
          "u8": "uint8"}


def fail(message):
    print("numpy_cumsum.py: " + message, file=sys.stderr)
    sys.exit(2)


def target(dtype, layout):
    """The speed-up over numpy the benchmark issue (#20) sets, or None."""
    if dtype.startswith("f"):
        return 40.0 if layout == "outer" else 10.0
    if layout == "1d":
        return 2.0
    return None


def arrays(np, dtype, layout, n):
    """(input view, output array, axis) laid out as opcts_bench lays out the case."""
    rng = np.random.default_rng(1)
    if dtype.startswith("f"):
        values = rng.uniform(-1, 1, n)
    else:
        values = rng.integers(-100, 100, n)
    values = values.astype(dtype)
    if layout == "1d":
        src, axis = values, 0
    elif layout == "middle":
        src, axis = values.reshape(MIDDLE, n // (MIDDLE * MIDDLE), MIDDLE), 1
    elif layout in ("inner", "outer", "in-place"):
        src, axis = values.reshape(n // ROW, ROW), 0 if layout == "outer" else 1
    elif layout == "strided":
        padded = np.zeros((n // ROW, ROW + 1), dtype=dtype)
        padded[:, :ROW] = values.reshape(n // ROW, ROW)
        src, axis = padded[:, :ROW], 1
    else:
        return None
    out = src if layout == "in-place" else np.ones(src.shape, dtype=dtype)
    return src, out, axis


def time_numpy(np, dtype, layout, n, repetitions):
    made = arrays(np, DTYPES[dtype], layout, n)
    if made is None:
        return None
    src, out, axis = made
    np.cumsum(src, axis=axis, dtype=src.dtype, out=out)  # warm-up: code and pages
    seconds = []
    for _ in range(repetitions):
        start = time.perf_counter()
        np.cumsum(src, axis=axis, dtype=src.dtype, out=out)
        seconds.append(time.perf_counter() - start)
    return n * src.dtype.itemsize / statistics.median(seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bench_json")
    parser.add_argument("--op", default="dml_cumulative_summation")
    parser.add_argument("--size", default="DRAM")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        fail("numpy is not installed (Debian: apt-get install python3-numpy)")
    try:
        with open(args.bench_json) as f:
            doc = json.load(f)
        benchmarks = doc["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{args.bench_json}: not opcts_bench JSON output ({e})")

    # (dtype, layout) -> {backend: GB/s}, and each case's element count; medians if aggregated.
    cases, elements, backends = {}, {}, []
    for b in benchmarks:
        name = b.get("run_name", b.get("name", "")).removesuffix("/manual_time")
        parts = name.split("/")
        if len(parts) != 5 or parts[0] != args.op or parts[4] != args.size:
            continue
        if not parts[1].startswith("cpu-simd") or b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        key = (parts[2], parts[3])
        cases.setdefault(key, {})[parts[1]] = b["bytes_per_second"]
        elements[key] = int(b["elements"])
        if parts[1] not in backends:
            backends.append(parts[1])
    if not cases:
        fail(f"{args.bench_json}: no cpu-simd result of {args.op} at size {args.size}")

    lines = [f"numpy {np.__version__} cumsum against cpu-simd, {args.op} at {args.size} "
             f"(numpy: median of {args.repetitions} calls; cpu-simd: {args.bench_json})", "",
             "| dtype | layout | elements | numpy GB/s | "
             + " | ".join(f"{b} GB/s (× numpy)" for b in backends) + " | target |",
             "|---|---|---|---|" + "---|" * len(backends) + "---|"]
    for (dtype, layout), by_backend in cases.items():
        numpy_bps = time_numpy(np, dtype, layout, elements[(dtype, layout)], args.repetitions)
        if numpy_bps is None:
            continue
        goal = target(dtype, layout)
        cells = []
        for b in backends:
            if b not in by_backend:
                cells.append("–")
                continue
            speedup = by_backend[b] / numpy_bps
            missed = goal is not None and speedup < goal
            cells.append(f"{by_backend[b] / 1e9:.2f} ({'**' if missed else ''}{speedup:.1f}×"
                         f"{'** ✗' if missed else ''})")
        lines.append(f"| {dtype} | {layout} | {elements[(dtype, layout)]} | {numpy_bps / 1e9:.3f} | "
                     + " | ".join(cells) + f" | {'≥ %g×' % goal if goal else ''} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
