#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer (gcc) in
# build-sanitize/ and runs the whole CTest suite under them. Any sanitizer report fails the
# run. Leaks in Qt's and fontconfig's own start-up are suppressed (tests/sanitize/lsan.supp);
# leaks in this project's code are not.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
build=${EVX_SANITIZE_BUILD_DIR:-"$root/build-sanitize"}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# -O1 -g1 rather than RelWithDebInfo's -O2 -g: reports keep their file:line frames, and the build
# takes half the time (kernel.cpp: 11 s against 25 s; the whole tree with -O2 -g was on course for
# 75 min on 2 cores).
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0
export LSAN_OPTIONS=suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Instrumented code runs 3-10 times slower: Qt Test's 5-minute watchdog per test function
# would stop the suites that run every scenario's presets.
export QTEST_FUNCTION_TIMEOUT=3600000
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  export XDG_RUNTIME_DIR=$(mktemp -d)
fi
cd "$build"
ctest --output-on-failure --parallel "$(nproc 2>/dev/null || echo 2)" --timeout 3600
