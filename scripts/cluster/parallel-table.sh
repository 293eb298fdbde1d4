#!/usr/bin/env bash
# Runs a paper table as N shards under GNU parallel (local cores, or remote hosts with
# --sshloginfile FILE after --), then merges them: DIR/shard-K-of-N.json, DIR/TABLE.json, .md, .csv.
#
#   parallel-table.sh TABLE N [table options …] --out DIR [-- parallel options …]
#
# With remote hosts DIR and the program must be at the same paths on every host (a shared file
# system). Exits with the merge's status, or 1 if a shard failed. The program is $EVX_BIN, else
# evidence-explorer on PATH.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=table-args.sh
source "$here/table-args.sh"
parse_table_args "$(basename "$0")" "$@"
command -v parallel >/dev/null || { echo "parallel-table.sh: GNU parallel is not on PATH" >&2; exit 2; }

mkdir -p "$out_dir/logs"
# One shard per job slot (a core, by default), each shard running one job unless the table options say.
write_task_script 1
write_merge_script
command=$(printf '%q {} 2>%q/logs/task-{}.log' "$out_dir/task.sh" "$out_dir")
if ! seq 1 "$tasks" | parallel --will-cite --halt now,fail=1 "${scheduler_options[@]}" "$command"; then
  echo "a shard failed; see $out_dir/logs/task-*.log" >&2
  exit 1
fi
"$out_dir/merge.sh"
echo "merged: $out_dir/$table.json, .md, .csv"
