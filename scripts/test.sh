#!/usr/bin/env bash
# Builds everything and runs every CTest test, including the smoke test in a real X
# server under xvfb-run. Exits non-zero if anything fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "${EVX_BUILD_DIR:-$root/build}"
# Qt warns on every start when the runtime directory is unset (as under CI); give it one.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  export XDG_RUNTIME_DIR=$(mktemp -d)
fi
ctest --output-on-failure --parallel "$(nproc 2>/dev/null || echo 2)" --timeout 600
