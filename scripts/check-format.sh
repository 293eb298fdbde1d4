#!/usr/bin/env bash
# Fails, naming the files, if any C++ source differs from what clang-format makes of it under
# the repository's .clang-format. Run by CTest (format_check); fix with scripts/format.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
format=${CLANG_FORMAT:-clang-format}
if ! command -v "$format" >/dev/null; then
  echo "check-format: $format is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
bad=()
while IFS= read -r -d '' f; do
  "$format" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(find app engine widgets tests -type f \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z)
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) need scripts/format.sh:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: every source file is formatted"
