#!/usr/bin/env bash
# Formats every C++ source in place with clang-format and the repository's .clang-format.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
find app engine widgets tests -type f \( -name '*.cpp' -o -name '*.h' \) -print0 |
  xargs -0 "${CLANG_FORMAT:-clang-format}" -i
