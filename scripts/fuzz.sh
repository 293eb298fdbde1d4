#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (the whole build instrumented with
# ASan and UBSan) in build-fuzz/ and runs each for SECONDS (default 600), starting from its
# seed corpus. Usage: scripts/fuzz.sh [SECONDS] [TARGET ...]   (targets: csv session command_line rich_label state_link lesson;
# SECONDS = 0 only builds them)
# New inputs go to build-fuzz/corpus/<target>/, crashes to build-fuzz/crashes/<target>/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh" --fuzz
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(csv session command_line rich_label state_link lesson)
build=${EVX_FUZZ_BUILD_DIR:-"$root/build-fuzz"}
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVX_FUZZ=ON \
  -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)" \
  --target "${targets[@]/#/fuzz_}"
[ "$seconds" != 0 ] || exit 0
export QT_QPA_PLATFORM=offscreen
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/crashes/$t"
  echo "fuzz: $t for ${seconds}s" >&2
  "$build/tests/fuzz/fuzz_$t" "$build/corpus/$t" "$root/tests/fuzz/corpus/$t" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -artifact_prefix="$build/crashes/$t/" -print_final_stats=1 2>"$build/fuzz_$t.log" || status=1
  grep -E "^stat::|Done|ERROR|SUMMARY" "$build/fuzz_$t.log" >&2 || true
done
exit $status
