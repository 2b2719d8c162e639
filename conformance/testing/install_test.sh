#!/usr/bin/env bash
# `cmake --install` of this build into a fresh prefix, then only the install is used, as a vendor
# would (README.md, "Install"): the installed opcts states the project's version and finds its
# specs and built-in plugins relative to itself; the plugin template, copied out of the source
# tree, builds against the prefix through find_package(opcts) and passes a short run of the
# installed opcts; pkg-config gives the include folder of opcts/backend.h.
set -euo pipefail
build_dir=$1 source_dir=$2 work=$3 version=$4 bindir=$5 plugindir=$6 specdir=$7 libdir=$8
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
# Canonical, as the paths opcts prints (it resolves /proc/self/exe).
work=$(cd "$work" && pwd -P)
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
# Neither the build tree nor the environment may help the installed opcts.
unset OPCTS_SPEC_DIR OPCTS_PLUGIN_DIR
opcts=$prefix/$bindir/opcts

# Exactly the built-ins and the specs, nothing of the tests (test-plugins/, mutants).
diff <(cd "$build_dir/plugins" && ls) <(cd "$prefix/$plugindir" && ls) ||
  fail "the installed plugins are not the build's built-ins"
diff <(cd "$source_dir/spec" && ls ./*.yaml) <(cd "$prefix/$specdir" && ls ./*.yaml) ||
  fail "the installed specs are not spec/*.yaml"
[ -z "$(find "$prefix" -name '*fault*' -o -name '*mutant*' -o -name '*bad-*')" ] ||
  fail "test plugins were installed"

[ "$("$opcts" --version | cut -d' ' -f1-2)" = "opcts $version" ] ||
  fail "opcts --version printed '$("$opcts" --version)', not opcts $version"
"$opcts" list >"$work/list.txt" || fail "the installed opcts list exited $?: $(cat "$work/list.txt")"
grep -qxF "built-in backends ($prefix/$plugindir):" "$work/list.txt" ||
  fail "the installed opcts did not look for plugins in $prefix/$plugindir: $(head -1 "$work/list.txt")"
for plugin in "$prefix/$plugindir"/opcts-*.so; do
  name=$(basename "$plugin" .so) && name=${name#opcts-}
  grep -q "^  ${name}[ :]" "$work/list.txt" || fail "opcts list does not show the built-in $name"
done
grep -qxF "operators ($prefix/$specdir):" "$work/list.txt" ||
  fail "the installed opcts did not read the specs in $prefix/$specdir"
grep -q "^[0-9]* cases (seed 1)$" "$work/list.txt" || fail "opcts list counted no cases"
echo "installed opcts: $("$opcts" --version); $(tail -1 "$work/list.txt") from $prefix/$specdir"
# The environment still overrides both.
OPCTS_SPEC_DIR=$source_dir/spec OPCTS_PLUGIN_DIR=$build_dir/plugins "$opcts" list >"$work/list-env.txt"
grep -qxF "built-in backends ($build_dir/plugins):" "$work/list-env.txt" || fail "OPCTS_PLUGIN_DIR was ignored"
grep -qxF "operators ($source_dir/spec):" "$work/list-env.txt" || fail "OPCTS_SPEC_DIR was ignored"

# The template outside the source tree, so its fallback to ../../backends/include cannot help.
cp -r "$source_dir/examples/plugin-template" "$work/template"
cmake -S "$work/template" -B "$work/template-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" || fail "configure: $(cat "$work/configure.log")"
grep -qxF "opcts_DIR:PATH=$prefix/$libdir/cmake/opcts" "$work/template-build/CMakeCache.txt" ||
  fail "find_package(opcts) did not find the prefix: $(grep opcts_DIR "$work/template-build/CMakeCache.txt")"
cmake --build "$work/template-build" >/dev/null
"$opcts" run --backend "$work/template-build/libmy-opcts-plugin.so" --op DML_CUMULATIVE_SUMMATION \
  --dtype float32 --max-cases 40 --no-progress --journal "$work/journal.jsonl" | tail -1
grep -q '"backend":"my-opcts-plugin".*"dtype":"FLOAT32".*"status":"Pass"' "$work/journal.jsonl" ||
  fail "the template's cumulative sums did not pass"

# pkg-config's -I is the prefix's, and a C file including opcts/backend.h compiles with it.
cflags=$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config --cflags opcts) ||
  fail "pkg-config found no opcts in $prefix/$libdir/pkgconfig"
include_dir=$(realpath -m "$(echo "${cflags#-I}" | xargs)")
[[ $include_dir == "$prefix"/* && -f $include_dir/opcts/backend.h ]] ||
  fail "pkg-config --cflags opcts: '$cflags' is not the prefix's include folder"
echo '#include "opcts/backend.h"' | cc "-I$include_dir" -fsyntax-only -x c - || fail "opcts/backend.h does not compile"
echo "pkg-config --cflags opcts: $cflags"
