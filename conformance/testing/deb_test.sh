#!/usr/bin/env bash
# `cpack -G DEB` of this build (README.md, "Install"): the package is named and versioned by the
# project, has a maintainer, holds exactly what `cmake --install` installs, and its Depends
# (dpkg-shlibdeps) name the package of every shared library its programs and plugins need, the
# vulkan backend's libvulkan1 included.
set -euo pipefail
build_dir=$1 work=$2 version=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 ||
  fail "cpack: $(cat "$work/cpack.log")"
debs=("$work"/opcts_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "cpack made no opcts_*.deb: $(ls "$work")"
deb=${debs[0]}
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = opcts ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), not $version"
[[ $(field Maintainer) =~ .+\ \<.+@.+\> ]] || fail "Maintainer: '$(field Maintainer)'"

# Its files are those of an install under /usr.
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
dpkg-deb -x "$deb" "$work/root"
diff <(cd "$work/prefix" && find . -type f | sort) <(cd "$work/root/usr" && find . -type f | sort) ||
  fail "the .deb does not hold what cmake --install installs"

# Depends: a package owning each needed library (dpkg -S), e.g. libvulkan.so.1 -> libvulkan1.
depends=" $(field Depends | sed -E 's/ \([^)]*\)//g; s/,/ /g') "
needed=$(find "$work/root" -type f \( -name '*.so' -o -perm -u+x \) -exec objdump -p {} + |
  awk '$1 == "NEEDED" { print $2 }' | sort -u)
[ -n "$needed" ] || fail "no shared library needed by any file of the package"
for soname in $needed; do
  owners=$(dpkg -S "*/$soname" 2>/dev/null | sed -E 's/: .*//; s/, /\n/g' | sed -E 's/:[a-z0-9]+$//')
  found=""
  for owner in $owners; do [[ $depends == *" $owner "* ]] && found=$owner; done
  [ -n "$found" ] || fail "Depends ($(field Depends)) names no package of $soname (owners: $owners)"
done
echo "$(basename "$deb"): $(stat -c %s "$deb") bytes; Depends: $(field Depends)"
