#!/usr/bin/env bash
# Builds Evidence Explorer (Release) and opens it; arguments pass through to the binary,
# e.g. scripts/run.sh --scenario ue-drop-ball --preset fig4
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh" evidence-explorer
exec "${EVX_BUILD_DIR:-$root/build}/app/evidence-explorer" "$@"
