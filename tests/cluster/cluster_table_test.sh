#!/usr/bin/env bash
# CTest (label "cluster"): runs `gb-table3 --methods gen-grid --seeds 8` as 4 shards through
# scripts/cluster/slurm-table.sh on a private single-node Slurm (or parallel-table.sh), and checks
# that the merged table equals the one a single process writes, byte for byte.
#
#   cluster_table_test.sh slurm|parallel PROGRAM
#
# The Slurm daemons get their own folder, key, socket and ports (scripts/cluster/private-slurm.sh)
# and are stopped by their pid files however the test ends: on exit, and by a watchdog should the
# test itself be killed.
set -euo pipefail
mode=$1
program=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip=77 # CTest's SKIP_RETURN_CODE for this test

work=$(mktemp -d /tmp/evx-cluster-XXXXXX)
cleanup() {
  if [ "$mode" = slurm ]; then
    "$root/scripts/cluster/private-slurm.sh" stop "$work/slurm" || true
    [ -n "${watchdog:-}" ] && kill -- "-$watchdog" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

table=gb-table3
options=(--methods gen-grid --seeds 8)
export EVX_BIN=$program
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$work}

case $mode in
slurm)
  if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: the private Slurm needs root (slurmd runs the jobs); run as root to test it"
    exit $skip
  fi
  "$root/scripts/cluster/private-slurm.sh" start "$work/slurm" >"$work/slurm.env"
  # Should CTest kill this script at its timeout, the daemons still stop, by their pid files.
  setsid bash -c "sleep 540; '$root/scripts/cluster/private-slurm.sh' stop '$work/slurm'" \
    </dev/null >/dev/null 2>&1 &
  watchdog=$!
  source "$work/slurm.env"
  # A task that fails must fail the wait, not hang on a merge that can never run.
  if "$root/scripts/cluster/slurm-table.sh" "$table" 2 "${options[@]}" --set n_obs=-5 --out "$work/bad" \
    --wait >"$work/bad.log" 2>&1; then
    echo "FAIL: slurm-table.sh --wait exited 0 although every task failed:"
    cat "$work/bad.log"
    exit 1
  fi
  "$root/scripts/cluster/slurm-table.sh" "$table" 4 "${options[@]}" --out "$work/out" --wait
  ;;
parallel)
  "$root/scripts/cluster/parallel-table.sh" "$table" 4 "${options[@]}" --out "$work/out" -- --jobs 2
  ;;
*)
  echo "usage: $0 slurm|parallel PROGRAM" >&2
  exit 2
  ;;
esac

for k in 1 2 3 4; do
  [ -s "$work/out/shard-$k-of-4.json" ] || { echo "FAIL: shard $k of 4 is missing"; exit 1; }
done
"$program" --table "$table" "${options[@]}" --jobs 2 --export "$work/single.md" --export "$work/single.csv" \
  --export "$work/single.json" 2>/dev/null
status=0
for ext in md csv; do
  if ! cmp -s "$work/single.$ext" "$work/out/$table.$ext"; then
    echo "FAIL: the merged $table.$ext differs from the single-process one:"
    diff "$work/single.$ext" "$work/out/$table.$ext" | head -20
    status=1
  fi
done
# The JSON keeps every run: the merged rows must be the single process's, and its runs the same
# set (a process with two jobs lists them in the order they finished).
python3 - "$work/single.json" "$work/out/$table.json" <<'PY' || status=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
runs = lambda t: sorted(json.dumps(r, sort_keys=True) for r in t.get("runs", []))
if a.get("rows") != b.get("rows") or runs(a) != runs(b) or not runs(a):
    print("FAIL: the merged JSON's rows or runs differ from the single-process ones")
    sys.exit(1)
PY
[ $status -eq 0 ] && echo "PASS: $mode: 4 shards merged into the single-process $table, exactly"
exit $status
