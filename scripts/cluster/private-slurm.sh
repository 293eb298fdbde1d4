#!/usr/bin/env bash
# A private single-node Slurm for tests: munged, slurmctld and slurmd from Debian's packages, with
# their own key, socket, ports, state and pid files, all under one folder. Nothing system-wide is
# read or changed, and nothing is stopped except by the pid files this script wrote.
#
#   private-slurm.sh start DIR   starts the daemons; prints the line to source: export SLURM_CONF=…
#   private-slurm.sh stop DIR    stops what DIR's pid files name (safe to call twice, or after a
#                                failed start)
# Needs root (slurmd runs jobs as any user; Slurm's own tests do the same).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2

stop_daemons() {
  # slurmd before slurmctld before munged: each needs the next to shut down cleanly.
  for name in slurmd slurmctld munged; do
    pidfile=$dir/$name.pid
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

# A TCP port nobody listens on, from a range away from the usual services.
free_port() {
  local p
  for p in $(shuf -i 20000-60000 -n 200); do
    if ! (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  echo "private-slurm: no free port found" >&2
  exit 1
}

wait_for() { # seconds, description, command…
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq $((seconds * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "private-slurm: $what did not come up within ${seconds} s (logs in $dir)" >&2
  return 1
}

case $action in
stop)
  stop_daemons
  exit 0
  ;;
start) ;;
*) usage ;;
esac

if [ "$(id -u)" -ne 0 ]; then
  echo "private-slurm: needs root (slurmd must run jobs)" >&2
  exit 3
fi
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" >/dev/null || { echo "private-slurm: $tool is not installed (scripts/install-deps.sh)" >&2; exit 3; }
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
chmod 0700 "$dir"
mkdir -p "$dir/state" "$dir/spool"
trap 'stop_daemons' ERR

mungekey --create --keyfile="$dir/munge.key" --force >/dev/null
chmod 0600 "$dir/munge.key"
munged --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munged.seed"
wait_for 10 munged test -S "$dir/munge.socket"

node=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

cat >"$dir/slurm.conf" <<CONF
ClusterName=evx-private
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=evx Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF

export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF"
wait_for 20 slurmctld scontrol ping
slurmd -f "$SLURM_CONF"
# The node is usable once the controller has heard from it.
wait_for 30 slurmd sh -c "sinfo -h -N -o '%t' | grep -qE '^(idle|mix|alloc)'"
echo "export SLURM_CONF=$SLURM_CONF"
