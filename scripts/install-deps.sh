#!/usr/bin/env bash
# Installs the Debian 12 packages opcts builds and tests with, skipping those already present.
# Shared by scripts/main.sh and scripts/test.sh. Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang-14 libclang-rt-14-dev pkg-config clang-format-14 clang-tidy-14
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev libhwy-dev
  libyaml-cpp-dev nlohmann-json3-dev
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers
  chromium zip unzip libxml2-utils
  dpkg-dev file
  python3-numpy
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
