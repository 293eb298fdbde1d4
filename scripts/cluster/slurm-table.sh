#!/usr/bin/env bash
# Runs a paper table as a Slurm array job: task K of N runs `--table TABLE … --shard K/N` and writes
# DIR/shard-K-of-N.json; a merge job (afterok on the whole array) writes DIR/TABLE.json, .md and .csv.
#
#   slurm-table.sh TABLE N [table options …] --out DIR [--wait] [-- sbatch options …]
#
# Prints the two job ids. With --wait it blocks until the merge has run and exits with its status
# (1 if a task failed, so that the merge can never run). The program is $EVX_BIN, else
# evidence-explorer on PATH; DIR must be on a file system every node sees.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=table-args.sh
source "$here/table-args.sh"
parse_table_args "$(basename "$0")" "$@"
command -v sbatch >/dev/null || { echo "slurm-table.sh: sbatch is not on PATH" >&2; exit 2; }

mkdir -p "$out_dir/logs"
rm -f "$out_dir/merge.status"
write_task_script '${SLURM_CPUS_PER_TASK:-1}'
write_merge_script

array_id=$(sbatch --parsable --job-name="evx-$table" --array="1-$tasks" \
  --output="$out_dir/logs/task-%a.log" "${scheduler_options[@]}" "$out_dir/task.sh")
array_id=${array_id%%;*}
merge_id=$(sbatch --parsable --job-name="evx-$table-merge" --dependency="afterok:$array_id" \
  --output="$out_dir/logs/merge.log" "${scheduler_options[@]}" "$out_dir/merge.sh")
merge_id=${merge_id%%;*}
echo "array job $array_id ($tasks tasks), merge job $merge_id; output in $out_dir"

[ "$wait_for_merge" -eq 1 ] || exit 0
while :; do
  if [ -f "$out_dir/merge.status" ]; then
    status=$(cat "$out_dir/merge.status")
    if [ "$status" -eq 0 ]; then
      echo "merged: $out_dir/$table.json, .md, .csv"
    else
      echo "the merge failed (exit $status); see $out_dir/logs/merge.log" >&2
    fi
    exit "$status"
  fi
  info=$(scontrol show job "$merge_id" 2>/dev/null || true)
  if echo "$info" | grep -q 'Reason=DependencyNeverSatisfied'; then
    scancel "$merge_id" 2>/dev/null || true
    echo "a task failed, so the merge cannot run; see $out_dir/logs/task-*.log" >&2
    exit 1
  fi
  if echo "$info" | grep -qE 'JobState=(FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY)'; then
    echo "the merge job ended without merging: $(echo "$info" | grep -oE 'JobState=[A-Z_]+')" >&2
    exit 1
  fi
  if [ -z "$info" ] && ! squeue -h -j "$merge_id" >/dev/null 2>&1; then
    echo "the merge job $merge_id is gone and left no status; see $out_dir/logs/merge.log" >&2
    exit 1
  fi
  sleep 2
done
