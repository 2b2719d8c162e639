#!/bin/bash -eu
# Builds every opcts fuzz target under the OSS-Fuzz contract: compilers and flags from $CC $CXX
# $CFLAGS $CXXFLAGS, the engine from $LIB_FUZZING_ENGINE, everything in $OUT: the targets, a
# <target>_seed_corpus.zip and <target>.dict each, the built-in backends they load
# ($OUT/plugins/) and the shared libraries the runner image lacks ($OUT/lib/). Intermediate
# files go to $WORK. fuzz/oss_fuzz_build_test.sh runs it the same way without Docker.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$WORK/opcts-build
# The backend under test and how to build it: the file a vendor edits.
# shellcheck source=backend.sh
source "${OPCTS_CFLITE_BACKEND:-$src/.clusterfuzzlite/backend.sh}"

# yaml-cpp and Highway come from the distribution, built against libstdc++: so is opcts.
CXXFLAGS=${CXXFLAGS//-stdlib=libc++/}

# No build type: the flags are exactly the service's. RPATHs: targets find $OUT/lib, plugins
# $OUT/plugins/../lib.
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DOPCTS_FUZZ=ON -DOPCTS_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" -DOPCTS_VULKAN=OFF \
  -DOPCTS_FUZZ_DEFAULT_BACKEND="$OPCTS_FUZZ_BACKEND" \
  -DCMAKE_BUILD_RPATH='$ORIGIN/lib;$ORIGIN/../lib'
cmake --build "$build" --target opcts_fuzz_targets -j"$(nproc)"

mkdir -p "$OUT/plugins" "$OUT/lib"
cp "$build"/plugins/opcts-*.so "$OUT/plugins/"
build_backend
while read -r target; do
  cp "$build/$target" "$OUT/"
  cp "$build/fuzz-seeds/$target.dict" "$OUT/"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$build/fuzz-seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done < "$build/fuzz-targets.txt"

# Shared libraries outside the C and C++ runtimes (yaml-cpp, Highway) travel along.
for binary in "$OUT"/opcts_fuzz_* "$OUT"/plugins/*.so; do
  [ -x "$binary" ] || [[ $binary == *.so ]] || continue
  ldd "$binary" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    case $(basename "$lib") in
      libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libstdc++.so*|libgcc_s.so*|ld-linux*) ;;
      *) cp -L -n "$lib" "$OUT/lib/" ;;
    esac
  done
done
