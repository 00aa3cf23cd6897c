#!/usr/bin/env bash
# Real Slurm test of sharded sweeps (issue 10, docs/cluster.md):
#
#   sudo scripts/slurm-test.sh          # as root, on a Debian machine
#
# 1. installs Slurm and MUNGE from Debian's packages (slurmctld, slurmd,
#    slurm-client, munge) if they are missing;
# 2. starts munged, and a single-node cluster on localhost (slurmctld and
#    slurmd with a throw-away slurm.conf under the work directory);
# 3. builds flitsim and submits a sweep of three configs as a job array
#    (deploy/slurm/flitsim-array.sbatch), one task per shard;
# 4. cancels one task (scancel: SIGTERM to flitsim, which keeps finished
#    units and exits 130) once it has finished a unit, and
#    resubmits that task alone, which resumes from its shard file;
# 5. merges with deploy/slurm/flitsim-merge.sbatch and compares
#    results.csv and results.json byte for byte with a local unsharded run.
#
# It stops the daemons it started when it exits. Environment: SHARDS
# (default 3), WORK (work directory, default a new one under /tmp), KEEP=1
# to keep the work directory. Ends with "slurm-test: N passed, M failed".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shards=${SHARDS:-3}
work=${WORK:-$(mktemp -d /tmp/flitsim-slurm.XXXXXX)}
mkdir -p "$work"
passed=0
failed=0
ok() { echo "PASS: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
say() { echo "== $*"; }

if [ "$(id -u)" != 0 ]; then
  echo "slurm-test: run as root (it installs packages and starts slurmctld/slurmd)" >&2
  exit 2
fi

say "packages"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi
slurmctld -V
munged -V 2>&1 | head -1

# Daemons started here, stopped on exit.
started=()
cleanup() {
  local pidfile
  for pidfile in "${started[@]}"; do
    if [ -s "$pidfile" ]; then
      kill "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  if [ "${KEEP:-}" != 1 ] && [ -z "${WORK:-}" ]; then
    rm -rf "$work"
  fi
}
trap cleanup EXIT

say "munge"
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
  install -d -o munge -g munge -m 0755 /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  runuser -u munge -- munged --pid-file=/run/munge/flitsim-test.pid
  started+=(/run/munge/flitsim-test.pid)
fi
munge -n </dev/null | unmunge | grep STATUS

say "single-node cluster on localhost"
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
mkdir -p "$work/etc" "$work/state" "$work/spool" "$work/log"
export SLURM_CONF=$work/etc/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=flitsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF"
started+=("$work/slurmctld.pid")
slurmd -f "$SLURM_CONF" -N "$host"
started+=("$work/slurmd.pid")
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qx idle; then break; fi
  sleep 1
done
sinfo
if ! sinfo -h -o '%t' | grep -qx idle; then
  echo "slurm-test: the node did not come up idle; logs:" >&2
  tail -20 "$work/log/slurmctld.log" "$work/log/slurmd.log" >&2
  exit 1
fi

say "build flitsim"
(cd "$root" && go build -o "$work/flitsim" ./cmd/flitsim)
export FLITSIM=$work/flitsim
"$FLITSIM" version
mkdir -p "$work/configs"
# Three replications per point, so replications of one point land in
# different shards; two project configs beside it.
cat >"$work/configs/replicated.yaml" <<'EOF'
name: replicated
network: {topology: torus, radix: 4, dimensions: 2}
traffic: {length: {flits: 4}}
sweep: {unit: flits/node/cycle, rates: [0.1, 0.3, 0.5, 0.95]}
run: {warmup: 1000, min_measure: 4000, max_cycles: 20000, replications: 3}
EOF
configs=("$root/configs/quickstart.yaml" "$root/configs/hypercube.yaml" "$work/configs/replicated.yaml")

say "submit the sweep as a job array of $shards tasks"
out=$work/shards
mkdir -p "$out" "$work/logs"
cd "$work"
jid=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 --output="$work/logs/%A_%a.out" \
  "$root/deploy/slurm/flitsim-array.sbatch" "$out" "${configs[@]}")
echo "array job $jid"

# Cancel task 1 once it has finished a unit (and before it has finished all).
victim=1
file=$out/shard-$victim-of-$shards.json
cancelled=no
for _ in $(seq 1200); do
  n=$(grep -c '"unit":' "$file" 2>/dev/null || true)
  if [ "${n:-0}" -ge 1 ]; then
    scancel "${jid}_$victim" && cancelled=yes
    break
  fi
  sleep 0.05
done
for _ in $(seq 600); do
  if [ -z "$(squeue -h -j "$jid" 2>/dev/null)" ]; then break; fi
  sleep 0.5
done
squeue
echo "task logs:"
for f in "$work"/logs/*.out; do echo "--- $f"; cat "$f"; done
kept=$(grep -c '"unit":' "$file" || true)
total=$(tr -d ' \n' <"$file" | sed 's/.*"units":\[\([0-9,]*\)\].*/\1/' | tr ',' '\n' | grep -c .)
echo "shard $victim/$shards after scancel: $kept of $total units on disk"
if [ "$cancelled" = yes ] && [ "$kept" -lt "$total" ]; then
  ok "task $victim cancelled mid-shard with $kept of $total units kept"
else
  bad "task $victim was not cancelled mid-shard (cancelled=$cancelled, $kept of $total units)"
fi

say "merge refuses the cancelled shard"
if "$FLITSIM" merge "$out" --out "$work/premature" >"$work/premerge.out" 2>&1; then
  bad "merge accepted an incomplete shard set"
else
  code=$?
  cat "$work/premerge.out"
  if [ $code = 5 ] && grep -q "shard $victim/$shards): incomplete" "$work/premerge.out" && [ ! -e "$work/premature" ]; then
    ok "merge named the incomplete shard, exit 5, wrote nothing"
  else
    bad "merge of the incomplete set: exit $code"
  fi
fi

say "resubmit task $victim alone"
FLITSIM_SHARDS=$shards sbatch --wait --array=$victim --cpus-per-task=1 --output="$work/logs/rerun_%A_%a.out" \
  "$root/deploy/slurm/flitsim-array.sbatch" "$out" "${configs[@]}"
cat "$work"/logs/rerun_*.out
if grep -q "shard $victim/$shards: $total of $total units finished ($((total - kept)) run now, $kept kept from before)" "$work"/logs/rerun_*.out; then
  ok "the resubmitted task ran only its $((total - kept)) unfinished units"
else
  bad "the resubmitted task did not resume as expected"
fi

say "merge as a Slurm job"
sbatch --wait --output="$work/logs/merge_%j.out" "$root/deploy/slurm/flitsim-merge.sbatch" "$out"
cat "$work"/logs/merge_*.out

say "local unsharded run"
"$FLITSIM" run "${configs[@]}" --out "$work/local" --quiet >/dev/null
if cmp "$out/results.csv" "$work/local/results.csv" && cmp "$out/results.json" "$work/local/results.json"; then
  ok "merged results.csv and results.json are byte-identical to the unsharded run ($(($(wc -l <"$out/results.csv") - 1)) rows)"
else
  bad "merged results differ from the unsharded run"
  diff "$out/results.csv" "$work/local/results.csv" || true
fi
sha256sum "$out/results.csv" "$work/local/results.csv"
echo "slurm-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
