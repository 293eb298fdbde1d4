# Shared by slurm-table.sh and parallel-table.sh (sourced): splits their command line
#   TABLE N [table options …] --out DIR [--wait] [-- scheduler options …]
# into table, tasks, table_options (array), out_dir, wait_for_merge and scheduler_options (array),
# and finds the program: $EVX_BIN, else evidence-explorer on PATH.
# shellcheck shell=bash

parse_table_args() {
  local script=$1
  shift
  if [ $# -lt 2 ]; then
    echo "usage: $script TABLE N [table options ...] --out DIR [--wait] [-- scheduler options ...]" >&2
    exit 2
  fi
  table=$1
  tasks=$2
  shift 2
  if ! [[ $tasks =~ ^[1-9][0-9]{0,3}$ ]]; then
    echo "$script: N must be a whole number from 1 to 9999, not '$tasks'" >&2
    exit 2
  fi
  table_options=()
  scheduler_options=()
  out_dir=
  wait_for_merge=0
  while [ $# -gt 0 ]; do
    case $1 in
    --out)
      [ $# -ge 2 ] || { echo "$script: --out needs a folder" >&2; exit 2; }
      out_dir=$2
      shift 2
      ;;
    --wait)
      wait_for_merge=1
      shift
      ;;
    --)
      shift
      scheduler_options=("$@")
      break
      ;;
    --shard | --export | --merge)
      echo "$script: $1 is set by the script (one shard per task, the merge writes the table)" >&2
      exit 2
      ;;
    *)
      table_options+=("$1")
      shift
      ;;
    esac
  done
  if [ -z "$out_dir" ]; then
    echo "$script: --out DIR is required (the shards and the merged table go there)" >&2
    exit 2
  fi
  mkdir -p "$out_dir"
  out_dir=$(cd "$out_dir" && pwd)
  evx=${EVX_BIN:-$(command -v evidence-explorer || true)}
  if [ -z "$evx" ] || [ ! -x "$evx" ]; then
    echo "$script: evidence-explorer is not on PATH; set EVX_BIN to the program" >&2
    exit 2
  fi
  evx=$(cd "$(dirname "$evx")" && pwd)/$(basename "$evx")
}

# The shard files in task order, as the merge reads them.
shard_files() {
  local k
  for k in $(seq 1 "$tasks"); do
    printf '%s\n' "$out_dir/shard-$k-of-$tasks.json"
  done
}

# DIR/task.sh K: runs shard K (default $SLURM_ARRAY_TASK_ID) of the table into DIR/shard-K-of-N.json,
# its arguments quoted as the shell reads them back. $1: the --jobs value for a task when the table
# options give none (a shell expression, expanded when the task runs).
write_task_script() {
  local default_jobs=$1 a
  {
    echo '#!/usr/bin/env bash'
    echo 'set -euo pipefail'
    echo 'k=${1:-${SLURM_ARRAY_TASK_ID:?no task number}}'
    printf 'exec %q --table %q' "$evx" "$table"
    for a in "${table_options[@]}"; do printf ' %q' "$a"; done
    case " ${table_options[*]} " in
    *" --jobs "*) ;;
    *) printf ' --jobs "%s"' "$default_jobs" ;;
    esac
    printf ' --shard "$k/%s" --export %q/shard-"$k"-of-%s.json\n' "$tasks" "$out_dir" "$tasks"
  } >"$out_dir/task.sh"
  chmod +x "$out_dir/task.sh"
}

# DIR/merge.sh: merges the shards in task order into DIR/TABLE.json, .md and .csv, and records its
# exit status in DIR/merge.status (a waiting submitter reads it).
write_merge_script() {
  local f ext
  {
    echo '#!/usr/bin/env bash'
    printf '%q --merge' "$evx"
    while read -r f; do printf ' %q' "$f"; done < <(shard_files)
    for ext in json md csv; do printf ' --export %q' "$out_dir/$table.$ext"; done
    echo
    echo 'status=$?'
    printf 'echo "$status" > %q\n' "$out_dir/merge.status"
    echo 'exit "$status"'
  } >"$out_dir/merge.sh"
  chmod +x "$out_dir/merge.sh"
}
