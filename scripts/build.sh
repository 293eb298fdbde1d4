#!/usr/bin/env bash
# Shared by run.sh and test.sh: installs missing packages, configures a Release build in
# build/ and builds the given targets (all when none are given).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
build_dir=${EVX_BUILD_DIR:-"$root/build"}
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)
if [ $# -gt 0 ]; then
  cmake --build "$build_dir" --parallel "$jobs" --target "$@"
else
  cmake --build "$build_dir" --parallel "$jobs"
fi
