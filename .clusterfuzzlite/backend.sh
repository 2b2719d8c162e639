# The backend ClusterFuzzLite fuzzes: the one file a vendor edits. build.sh sources it after
# building opcts' targets (with the service's $CC $CXX $CFLAGS $CXXFLAGS, $SRC, $WORK and $OUT
# set) and compiles OPCTS_FUZZ_BACKEND into the targets as their default backend, since the
# service runs them with no flags or environment of ours.
#
# OPCTS_FUZZ_BACKEND: a built-in (cpu-simd, cpu-reference) or the NAME of a plugin that
# build_backend copies to "$OUT/plugins/opcts-NAME.so" (the targets load plugins/ beside them).
OPCTS_FUZZ_BACKEND=cpu-simd

build_backend() {
  # Build your plugin with the service's compiler and flags (so the sanitizers see into it),
  # against opcts' headers ($SRC/opcts/backends/include), for example:
  #   cmake -S "$SRC/my-plugin" -B "$WORK/my-plugin" -DCMAKE_CXX_COMPILER="$CXX" \
  #     -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DOPCTS_INCLUDE_DIR="$SRC/opcts/backends/include"
  #   cmake --build "$WORK/my-plugin"
  #   cp "$WORK/my-plugin/libmy-opcts-plugin.so" "$OUT/plugins/opcts-my-plugin.so"
  # and set OPCTS_FUZZ_BACKEND=my-plugin above.
  :
}
