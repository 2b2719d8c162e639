#!/usr/bin/env bash
# ctest fuzz.oss-fuzz-build: runs .clusterfuzzlite/build.sh the way OSS-Fuzz and ClusterFuzzLite
# do (their ASan + libFuzzer flags, libc++ requested, a fresh $OUT; clang-14 instead of their
# clang, no Docker), then every target in $OUT for 100 runs on its unzipped seed corpus with its
# dictionary, finding plugins and libraries through $OUT alone.
#   oss_fuzz_build_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work/out" "$work/corpora"
mkdir -p "$work/out" "$work/work" "$work/corpora"

export CC=clang-14 CXX=clang++-14
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS -stdlib=libc++"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export OUT=$work/out WORK=$work/work SRC=$work
unset OPCTS_PLUGIN_DIR OPCTS_SPEC_DIR OPCTS_FUZZ_BACKEND

start=$(date +%s)
bash "$src/.clusterfuzzlite/build.sh"
echo "build.sh: $(($(date +%s) - start)) s"

targets=0
for binary in "$OUT"/*; do
  [ -f "$binary" ] && [ -x "$binary" ] && grep -q LLVMFuzzerTestOneInput "$binary" || continue
  target=$(basename "$binary")
  for needed in "$OUT/${target}_seed_corpus.zip" "$OUT/$target.dict"; do
    [ -s "$needed" ] || { echo "missing $needed"; exit 1; }
  done
  mkdir -p "$work/corpora/$target"
  unzip -q "$OUT/${target}_seed_corpus.zip" -d "$work/corpora/$target"
  echo "== $target"
  (cd "$work" && "$binary" -runs=100 -dict="$OUT/$target.dict" "$work/corpora/$target" 2>&1 | tail -3)
  targets=$((targets + 1))
done
# The services pass no flags: the backend .clusterfuzzlite/backend.sh names is compiled in.
backend=$(source "$src/.clusterfuzzlite/backend.sh" && echo "$OPCTS_FUZZ_BACKEND")
# Captured before grep: `grep -q` stops reading at the match, and under pipefail the writer's
# SIGPIPE would fail the check whenever libFuzzer is still printing.
# A failing run falls through to the check, which prints what it said.
banner=$(cd "$work" && "$OUT/opcts_fuzz_dml_scatter_nd" -runs=0 2>&1) || true
grep -q "opcts fuzz: backend $backend " <<<"$banner" ||
  { echo "the targets do not default to backend.sh's $backend:"; head -3 <<<"$banner"; exit 1; }
echo "$targets fuzz targets built and run from $OUT, testing backend $backend"
[ "$targets" -ge 8 ]
