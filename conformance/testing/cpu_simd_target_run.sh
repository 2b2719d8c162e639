#!/usr/bin/env bash
# The full conformance run of cpu-simd on one Highway target (ctest conformance.cpu-simd.TARGET).
# The main job runs the target this CPU dispatches; these run every target cpu-simd compiles that
# the CPU can run, so its AVX2, SSE4 and scalar kernels are judged on an AVX-512 machine too.
# Exit 77 (ctest: skipped), saying why, when cpu-simd did not compile the target or this CPU
# cannot run it.
#   conformance/testing/cpu_simd_target_run.sh OPCTS TARGET JOURNAL
set -uo pipefail
opcts=$1 target=$2 journal=$3
out=$("$opcts" run --backend cpu-simd --backend-options "target=$target" --no-progress \
  --journal "$journal" 2>&1)
rc=$?
if [ "$rc" != 0 ] && grep -q "option target=$target is not one of the targets compiled" <<<"$out"; then
  echo "SKIPPED: cpu-simd $(grep -o "option target=$target is not one of .*" <<<"$out" | head -1)"
  exit 77
fi
echo "$out"
# The device line names the target that ran: the option reached create().
if [ "$rc" = 0 ] && ! grep -q "^backend cpu-simd .* on .*($target): claims" <<<"$out"; then
  echo "FAILED: the run does not say it ran target $target"
  exit 1
fi
exit "$rc"
