#!/usr/bin/env bash
# Runs deploy/slurm's recipes on a one-node Slurm cluster started here
# (Debian's slurm-wlm: munged, slurmctld and slurmd on localhost, as CI
# does): the trainer job and a 2-task worker array take a tiny run to its
# end over a file:// store, with worker task 0 requeued (scontrol requeue)
# after it has started. Checks that the run finished, that both workers
# stopped because it did, and that task 0 ran twice. About a minute.
# Needs root (the daemons run as root here) and slurm-wlm installed.
# Usage: scripts/slurm_check.sh [JUNGLE_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
jungle="$(realpath "${1:-target/release/jungle}")"
work="$(mktemp -d)"
export SLURM_CONF="$work/slurm.conf"
mkdir -p "$work/state" "$work/spool" "$work/run"
cat > "$SLURM_CONF" <<CONF
ClusterName=jungle
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# A requeued job waits out its credential's life before it starts again
# (120 s by default).
AuthInfo=cred_expire=10
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
JobRequeue=1
MpiDefault=none
MinJobAge=600
NodeName=localhost CPUs=8 RealMemory=16000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
stop() {
    scontrol shutdown > /dev/null 2>&1 || true
    sleep 1
    rm -rf "$work"
}
trap stop EXIT
if ! pgrep -x munged > /dev/null; then
    mkdir -p /run/munge && chown munge:munge /run/munge
    su -s /bin/sh munge -c /usr/sbin/munged
fi
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"
for _ in $(seq 30); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo -h -o %T | grep -q idle || { echo "slurm_check: the node never came up" >&2; tail "$work"/*.log >&2; exit 1; }

# A tiny run long enough to requeue a worker in: tiny.toml with 8 generations.
sed 's/^generations = 2 .*/generations = 8/' configs/tiny.toml > "$work/run.toml"
cd "$work/run"
PATH="$(dirname "$jungle"):$PATH" STORE_URL="file://$work/run/store" RUN=t \
    CONFIG="$work/run.toml" ROOT="$work/run/root" WORKERS=2 \
    "$repo/deploy/slurm/submit.sh" > submitted.txt
cat submitted.txt
trainer=$(sed -n 1p submitted.txt | awk '{print $4}')
workers=$(sed -n 2p submitted.txt | awk '{print $4}')
# Requeue worker task 0 once it has started playing.
for _ in $(seq 120); do
    grep -q "^worker " "slurm-${workers}_0.out" 2>/dev/null && break
    sleep 0.5
done
scontrol requeue "${workers}_0"
echo "requeued ${workers}_0"
for _ in $(seq 300); do
    [ -z "$(squeue -h)" ] && break
    sleep 1
done
if [ -n "$(squeue -h)" ]; then
    echo "slurm_check: jobs still queued after 5 minutes" >&2
    squeue >&2
    exit 1
fi
fail() { echo "slurm_check: FAIL: $1" >&2; tail -n 20 slurm-*.out >&2; exit 1; }
grep -q "run \`t\`: 8 generations" "slurm-$trainer.out" || fail "the trainer did not finish its 8 generations"
for task in 0 1; do
    grep -q "stopped (the run finished)" "slurm-${workers}_$task.out" || fail "worker $task did not stop at the run's end"
    scontrol show job "${workers}_$task" | grep -q "JobState=COMPLETED" || fail "worker task $task did not complete"
done
scontrol show job "${workers}_0" | grep -q "Restarts=1" || fail "worker task 0 was not requeued"
scontrol show job "$trainer" | grep -q "JobState=COMPLETED" || fail "the trainer job did not complete"
echo "slurm_check: OK: trainer job $trainer finished 8 generations; worker array $workers (task 0 requeued once) stopped at the run's end"
