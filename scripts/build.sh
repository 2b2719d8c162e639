#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds a CMake preset (default: release).
# Sourced by main.sh and test.sh; run directly to just build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
preset=${1:-release}
scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
