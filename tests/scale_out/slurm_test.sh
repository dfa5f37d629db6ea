#!/usr/bin/env bash
# A real single-node Slurm cluster (Debian's slurmctld, slurmd and munge; its own key, socket, ports and
# state in a scratch folder): `gbx slurm --wait` runs a 4-shard job array of the CPU suite and merges it;
# every benchmark must be in the merged record exactly once, with its samples, and gbx verify, compare,
# pareto and report must accept it. A second array, whose task 2 fails, must name shard 2 and keep the
# others. Only the daemons this test started are stopped, by PID.
# Exit 77 (skipped) only when the packages are missing and cannot be installed.
# usage: slurm_test.sh BENCH_ALL GBX
set -euo pipefail
bench=$1
gbx=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
  ! command -v munged >/dev/null; then
  # shellcheck source=../../scripts/lib.sh
  source "$here/../../scripts/lib.sh"
  if ! gbx_apt_install "${GBX_SLURM_PACKAGES[@]}"; then
    echo "SKIP: the Slurm packages (${GBX_SLURM_PACKAGES[*]}) are missing and cannot be installed"
    exit 77
  fi
fi
# The daemons run as root here (SlurmUser=root); ./scripts/test runs as root in CI, and elsewhere
# password-less sudo will do.
if ((EUID != 0)); then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    exec sudo -n bash "$0" "$@"
  fi
  echo "FAIL: slurmctld and slurmd need root to start jobs; run this test as root (CI does) or with sudo"
  exit 1
fi

dir=$(mktemp -d /tmp/gbx-slurm.XXXXXX)
chmod 755 "$dir"
pids=()
stop() {
  local status=$?
  if [[ -n ${SLURM_CONF:-} ]]; then scancel --quiet --full --user=root 2>/dev/null || true; fi
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if ((status != 0)); then
    for log in "$dir"/*.log "$dir"/out*/slurm-*.out; do
      [[ -f $log ]] && { echo "--- $log"; tail -n 20 "$log"; }
    done
  fi
  rm -rf "$dir"
  exit "$status"
}
trap stop EXIT

# MUNGE with a key and socket of its own, so that a machine's own munged is left alone.
mkdir -p "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$dir/munge"
chmod 400 "$dir/munge/munge.key"
munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" --log-file="$dir/munged.log" \
  >"$dir/munged.out" 2>&1 &
pids+=($!)

host=$(hostname -s)  # the name slurmd knows itself by; reached at 127.0.0.1 whatever DNS says
# Ports of this run's own, so that two runs (or a real cluster) do not clash.
port=$((20000 + ($$ % 20000) * 2))
memory=$(($(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo) / 2))
mkdir -p "$dir/state" "$dir/spool"
cat >"$dir/slurm.conf" <<EOF
ClusterName=gbxtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmUser=root
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
# sbatch --wait polls every 2 s, 8 s, 32 s... while that stays below MinJobAge/2: 4 keeps it at 2 s.
MinJobAge=4
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
for _ in $(seq 50); do [[ -S $dir/munge/munge.socket ]] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
  state=$(sinfo --noheader --format=%t 2>/dev/null || true)
  [[ $state == idle ]] && break
  sleep 0.5
done
[[ $state == idle ]] || { echo "FAIL: the node is '$state', not idle"; exit 1; }

# The CPU suite, cut down to ten quick benchmarks with a fixed number of samples.
filter='--benchmark_filter=^reduce/(naive|pairwise|kahan|double)/|^gemm/cpu_(naive|blocked)/m:256'
samples=(--gbx_warmup=1 --gbx_min_samples=8 --gbx_max_samples=8 --gbx_max_time=600)  # 8 samples even when loaded
started=$(date +%s)
"$gbx" slurm --shards 4 --cpu-only --partition debug --time 00:10:00 --job-name gbx-test -o "$dir/out" --wait \
  -- "$bench" "$filter" "${samples[@]}" >"$dir/slurm.txt" 2>&1 || { cat "$dir/slurm.txt"; echo "FAIL: gbx slurm"; exit 1; }
echo "the 4-shard job array ran and merged in $(($(date +%s) - started)) s"
"$bench" "$filter" --benchmark_list_tests >"$dir/selection.txt"
python3 - "$dir/out/merged.json" "$dir/selection.txt" 8 <<'EOF'
import json, sys
merged = json.load(open(sys.argv[1]))
selection = open(sys.argv[2]).read().split()
samples = int(sys.argv[3])
rows = [b for b in merged["benchmarks"] if b["run_type"] == "iteration"]
names = [b["run_name"] for b in rows]
assert sorted(names) == sorted(selection), f"merged {sorted(names)} != selection {sorted(selection)}"
assert len(set(names)) == len(names), "a benchmark is in the merged record twice"
for row in rows:
    assert len(row["gbx"]["samples"]) == samples, (row["name"], len(row["gbx"]["samples"]))
merge = merged["gbx"]["merge"]
assert merge["complete"] and merge["count"] == 4 and not merge["missing"], merge
shards = {s["index"]: s for s in merge["shards"]}
for row in rows:
    assert row["gbx"]["shard"] in shards and shards[row["gbx"]["shard"]]["environment"]["host"]["hostname"], row["name"]
loads = {}
for row in rows:
    loads[row["gbx"]["shard"]] = loads.get(row["gbx"]["shard"], 0) + row["gbx"]["measurement"]["wall_seconds"]
print("shard wall seconds:", {k: round(v, 3) for k, v in sorted(loads.items())})
EOF
"$gbx" verify "$dir/out/merged.json"
"$gbx" compare "$dir/out/merged.json" "$dir/out/merged.json" >/dev/null
"$gbx" pareto "$dir/out/merged.json" >/dev/null
"$gbx" report "$dir/out/merged.json" "$dir/out/shard-0.json" --format markdown >/dev/null

# A task that fails: its shard is named, and the other shards are merged without it.
cat >"$dir/flaky.sh" <<EOF
#!/bin/sh
[ "\$SLURM_ARRAY_TASK_ID" = 2 ] && exit 3
exec '$bench' "\$@"
EOF
chmod +x "$dir/flaky.sh"
status=0
"$gbx" slurm --shards 4 --cpu-only --time 00:10:00 -o "$dir/out-flaky" --wait \
  -- "$dir/flaky.sh" "$filter" "${samples[@]}" >"$dir/flaky.txt" 2>&1 || status=$?
[[ $status == 1 ]] || { cat "$dir/flaky.txt"; echo "FAIL: a failed task gave exit $status, not 1"; exit 1; }
grep -q "shard 2 failed (exit 3)" "$dir/flaky.txt" || { cat "$dir/flaky.txt"; echo "FAIL: shard 2 not named"; exit 1; }
python3 - "$dir/out-flaky/merged.json" <<'EOF'
import json, sys
merge = json.load(open(sys.argv[1]))["gbx"]["merge"]
assert not merge["complete"] and merge["missing_shards"] == [2], merge
assert sorted(s["index"] for s in merge["shards"]) == [0, 1, 3], merge["shards"]
EOF
echo "slurm test passed"
