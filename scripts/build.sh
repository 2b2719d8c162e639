#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds a CMake preset (default: release)
# on every core.
# Sourced by main.sh and test.sh; run directly to just build. OPCTS_WERROR=ON in the environment
# (.ci/run sets it) makes warnings errors; unset, the build directory keeps its setting.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
preset=${1:-release}
scripts/install-deps.sh
cmake --preset "$preset" ${OPCTS_WERROR:+-DOPCTS_WERROR=$OPCTS_WERROR} >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
