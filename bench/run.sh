#!/usr/bin/env bash
# Runs the benchmarks and renders them: Google Benchmark JSON, an SVG plot and a Markdown table
# of ratios to the copy limit (the fastest of one-thread memcpy, all-thread memcpy and an
# all-thread streaming copy). See bench/README.md.
#
#   bench/run.sh [--quick | --targets | --gpu] [--build DIR] [--out DIR] [-- opcts_bench arguments...]
#
# Full (the default, ~55 min on 2 cores): every case on every built-in backend, 3 repetitions
# (medians reported), except cpu-reference (100-1000x slower) and vulkan (host buffers: its
# figures include transfers; on lavapipe informational), which run one iteration per case in a
# second run. Writes OUT/bench.json, OUT/bench-once.json, OUT/bench.svg, OUT/bench.md
# --quick (seconds, the CI smoke test): one small case and its memcpy; OUT/bench.json, .svg, .md.
# --targets (50-105 min): the cases the targets are set for (DRAM size), cpu-simd on its best target
# and, on an AVX-512 CPU, again restricted to AVX2 (cpu-simd@target=AVX2), 3 repetitions; the
# scans on one thread (L2 size, also back to back: their compute ceiling, the report's roofline;
# the line scans at DRAM size); then numpy's cumsum on the same scans
# (bench/peers/numpy_cumsum.py). Writes OUT/targets.json, OUT/targets-compute.json,
# OUT/targets.md, OUT/targets.svg, OUT/peers.md.
# --gpu (~8 min on an H200's host): the vulkan backend on its device (OPCTS_VULKAN_DEVICE picks
# one) at every size: DirectML's cumulative summation (every dtype and layout), ScatterND float32
# with 1 KiB and 16 KiB slices, OpenVINO's float64 scans; 3 repetitions, each against the
# device's own copy and the staged round trip (bench/device_copy.h). Writes OUT/gpu.json,
# OUT/gpu.md.
# DIR defaults to build/release, OUT to DIR/bench.
set -euo pipefail

quick=0
targets=0
gpu=0
build=build/release
out=
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1 ;;
    --targets) targets=1 ;;
    --gpu) gpu=1 ;;
    --build) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
out=${out:-$build/bench}
bench="$build/opcts_bench"
report="$build/opcts_bench_report"
for tool in "$bench" "$report"; do
  if [[ ! -x "$tool" ]]; then
    echo "run.sh: $tool not found: build the targets opcts_bench and opcts_bench_report in $build" >&2
    exit 2
  fi
done
mkdir -p "$out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ $quick == 1 ]]; then
  "$bench" --benchmark_filter='^memcpy/131072/|^dml_cumulative_summation/[^/]+/f32/1d/L2/' \
    --benchmark_min_time=0.01 --benchmark_out="$out/bench.json" --benchmark_out_format=json \
    "${extra[@]}"
  "$report" "$out/bench.json" --svg "$out/bench.svg" --markdown "$out/bench.md"
  echo "wrote $out/bench.json $out/bench.svg $out/bench.md"
  exit 0
fi

if [[ $targets == 1 ]]; then
  simd=(--backend cpu-simd)
  one=(--backend cpu-simd@threads=1)
  # Highway's AVX3 needs AVX-512 F, VL, DQ and BW; on such a CPU the AVX2 column comes from the
  # same run. On an AVX2 CPU the best target is AVX2 itself.
  if grep -qw avx512bw /proc/cpuinfo; then
    simd+=(--backend cpu-simd@target=AVX2)
    one+=(--backend 'cpu-simd@target=AVX2;threads=1')
  fi
  # The cases the targets name: DirectML's scans and ScatterND with 1 KiB and 16 KiB slices, and
  # float64 scans (OpenVINO's: DirectML's scans have none).
  dram='/DRAM|^memcpy/[0-9]{8,}/'
  "$bench" "${simd[@]}" \
    --benchmark_filter="^dml_cumulative_[a-z]+/cpu-simd[^/]*/.*$dram|^dml_scatter_nd/cpu-simd[^/]*/[^/]+/slice(1|16)KiB-.*$dram|^openvino_cumsum_3/cpu-simd[^/]*/f64/.*$dram" \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_min_time=0.2 \
    --benchmark_out="$out/targets.json" --benchmark_out_format=json "${extra[@]}"
  # The scans' compute ceiling: one thread at L2 size, where each case also runs back to back
  # on its cache-resident tensors (counter back_to_back_bytes_per_second), same targets. Times
  # the threads, it bounds the DRAM cases whatever the memory does: the report's roofline table.
  # The line scans on one thread at DRAM size too, against one thread's memcpy: how far one core
  # overlaps its memory traffic with that arithmetic, and how far the second thread adds to it.
  scans='(1d|inner)/(L2|DRAM)|(outer|middle|strided)/L2'
  "$bench" "${one[@]}" \
    --benchmark_filter="^dml_cumulative_[a-z]+/cpu-simd[^/]*/[^/]+/($scans)/|^openvino_cumsum_3/cpu-simd[^/]*/f64/($scans)/" \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_min_time=0.2 \
    --benchmark_out="$out/targets-compute.json" --benchmark_out_format=json "${extra[@]}"
  "$report" "$out/targets.json" "$out/targets-compute.json" --svg "$out/targets.svg" \
    --markdown "$out/targets.md"
  "$(dirname "$0")/peers/numpy_cumsum.py" "$out/targets.json" --markdown "$out/peers.md"
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "wrote $out/targets.json $out/targets-compute.json $out/targets.svg $out/targets.md $out/peers.md"
  exit 0
fi

if [[ $gpu == 1 ]]; then
  "$bench" --backend vulkan \
    --benchmark_filter='^(dml_cumulative_summation/vulkan/|dml_scatter_nd/vulkan/f32/slice(1|16)KiB-|openvino_cumsum_3/vulkan/f64/)|^memcpy/67108864/' \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_min_time=0.05 \
    --benchmark_out="$out/gpu.json" --benchmark_out_format=json "${extra[@]}"
  "$report" "$out/gpu.json" --markdown "$out/gpu.md"
  echo "wrote $out/gpu.json $out/gpu.md"
  exit 0
fi

# The built-ins, split into those measured with repetitions and those run once per case.
repeated=()
once=()
for plugin in "$build"/plugins/opcts-*.so; do
  name=$(basename "$plugin" .so)
  name=${name#opcts-}
  case "$name" in
    cpu-reference|vulkan) once+=(--backend "$name") ;;
    *) repeated+=(--backend "$name") ;;
  esac
done
results=()
if [[ ${#repeated[@]} -gt 0 ]]; then
  "$bench" "${repeated[@]}" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_min_time=0.2 --benchmark_out="$out/bench.json" --benchmark_out_format=json \
    "${extra[@]}"
  results+=("$out/bench.json")
fi
if [[ ${#once[@]} -gt 0 ]]; then
  "$bench" "${once[@]}" --benchmark_min_time=0 --benchmark_out="$out/bench-once.json" \
    --benchmark_out_format=json "${extra[@]}"
  results+=("$out/bench-once.json")
fi
"$report" "${results[@]}" --svg "$out/bench.svg" --markdown "$out/bench.md"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrote ${results[*]} $out/bench.svg $out/bench.md"
