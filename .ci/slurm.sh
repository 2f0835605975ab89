#!/usr/bin/env bash
# CI: the documented Slurm job array (docs/slurm/*.sbatch, docs/sweeps.md) on a
# real single-node Slurm on localhost. Installs slurm-wlm and munge from
# Debian's packages when missing, starts munged, slurmctld and slurmd by hand
# (private config, keys, sockets and state in a temporary folder), submits the
# shard array as the doc says, scancels one task mid-run, re-submits it as the
# doc says, merges after --dependency=afterok and checks that the merged store
# equals the same sweep run unsharded (every table, EXCEPT both ways) and that
# every store passes PRAGMA integrity_check. The daemons are stopped by their
# PIDs at the end, also on failure. With ORDERS_PROGRAM (an example of package
# orders, e.g. matmul), it also runs that program on 3 tasks through
# docs/slurm/orders.sbatch (a coordinator and 2 worker processes) and checks
# its answer and that the coordinator required the job's token.
# Usage: .ci/slurm.sh PRESAGE_BINARY [ORDERS_PROGRAM]
set -euo pipefail

[[ ($# == 1 || $# == 2) && -x $1 ]] || { echo "usage: $0 PRESAGE_BINARY [ORDERS_PROGRAM]" >&2; exit 2; }
presage=$(realpath "$1")
orders_program=''
[[ $# == 2 ]] && orders_program=$(realpath "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
data=$repo/../shared/data
shards=3
# 3,792 configurations: about 25 s on one core, so a shard runs long
# enough to be cancelled mid-way.
sweep="--trace jac --machine Predictor --procs 1..512"
# Sized for the CI node as docs/sweeps.md says (overriding the #SBATCH lines).
sizing=(--cpus-per-task=1 --mem=256M --time=00:10:00)

started=$SECONDS
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { printf '%-44s %s\n' "$1" "$2"; }

# --- Debian packages ----------------------------------------------------------

install_slurm() {
	command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && return
	# Keep the packages' init scripts from starting daemons we would not own.
	local guard=''
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		guard=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' > "$guard" && chmod +x "$guard"
	fi
	local apt=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge)
	"${apt[@]}" >/dev/null || { apt-get update -q >/dev/null && "${apt[@]}" >/dev/null; }
	[[ -z $guard ]] || rm -f "$guard"
}

t=$SECONDS
install_slurm
note "apt-get install slurm-wlm munge" "$((SECONDS - t)) s ($(slurmctld -V))"

# --- the cluster: munged, slurmctld, slurmd on localhost ----------------------

work=$(mktemp -d /tmp/presage-slurm.XXXXXX)
chmod 755 "$work"
mkdir -p "$work"/{munge,state,spool,stores}
chmod 700 "$work/munge"
pids=() # daemons, in start order

stop_cluster() {
	local rc=$?
	set +e
	if ((${#pids[@]} > 1)); then
		# Jobs' processes outlive slurmd: end them while slurmctld can.
		squeue -h -o %i | xargs -r scancel
		for _ in $(seq 100); do [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break; sleep 0.2; done
	fi
	local i pid
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		pid=${pids[i]}
		kill "$pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	if ((rc != 0)); then
		echo "== logs (exit $rc)"
		tail -n 15 "$work"/*.log "$work"/munge/*.log "$work"/stores/*.out 2>/dev/null
	fi
	rm -rf "$work"
	exit "$rc"
}
trap stop_cluster EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

t=$SECONDS
key=$work/munge/munge.key
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chmod 400 "$key"
socket=$work/munge/munge.socket
munged --foreground --force --key-file="$key" --socket="$socket" --pid-file="$work/munge/munged.pid" \
	--log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" 2>/dev/null &
pids+=($!)
for _ in $(seq 50); do munge -n -S "$socket" 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1 && break; sleep 0.1; done
munge -n -S "$socket" | unmunge -S "$socket" >/dev/null || fail "munged does not answer on $socket"

# The node as slurmd sees it (CPUs, sockets, cores, threads, memory), named localhost.
node=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]*/NodeName=localhost NodeAddr=127.0.0.1/; s/ UpTime=.*//')
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=presageci
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MailProg=/bin/true
KillWait=10
MinJobAge=600
$node State=UNKNOWN
PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
# In the foreground (-D) their PIDs are $!; they log to their files too.
slurmctld -D -i 2>/dev/null &
pids+=($!)
slurmd -D -N localhost 2>/dev/null &
pids+=($!)
for _ in $(seq 150); do [[ $(sinfo -h -N -o %T 2>/dev/null) == idle ]] && break; sleep 0.2; done
[[ $(sinfo -h -N -o %T 2>/dev/null) == idle ]] || fail "node not idle: $(sinfo -N 2>&1)"
note "munged, slurmctld, slurmd up (PIDs ${pids[*]})" "$((SECONDS - t)) s; $node"

# --- helpers --------------------------------------------------------------------

p() { "$presage" --quiet "$@"; }
submit() { sbatch --parsable "$@" | cut -d';' -f1; }
# field JOB NAME: a field of scontrol show job (JobState, Reason, ExitCode, ...).
field() { scontrol -o show job "$1" 2>/dev/null | grep -o "\b$2=[^ ]*" | head -n 1 | cut -d= -f2; }
ended() { [[ $(field "$1" JobState) =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$ ]]; }
# wait_until SECONDS WHAT COMMAND...: poll COMMAND every 0.2 s.
wait_until() {
	local deadline=$((SECONDS + $1)) what=$2
	shift 2
	until "$@"; do
		((SECONDS < deadline)) || fail "timed out waiting for $what"
		sleep 0.2
	done
}
# runs STORE: runs stored so far (0 while the store is being created).
runs() { p --db "$1" query --format csv "SELECT count(*) FROM runs" 2>/dev/null | tail -n 1 | grep -E '^[0-9]+$' || echo 0; }
integrity() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute("PRAGMA integrity_check").fetchone()[0])' "$1"; }
must_complete() {
	[[ $(field "$1" JobState) == COMPLETED && $(field "$1" ExitCode) == 0:0 ]] ||
		fail "job $1: $(field "$1" JobState) exit $(field "$1" ExitCode), want COMPLETED 0:0"
}

# --- the documented array, a task cancelled and re-submitted, the merge ---------

cd "$work/stores"
p --db inputs.db ingest trace "$data/traces/jac.ptr"
p --db inputs.db ingest machine "$data/machines/Predictor.par"
configs=$(p --db inputs.db sweep $sweep --dry-run | sed -n 's/^\([0-9]*\) configurations.*/\1/p')
[[ -n $configs ]] || fail "sweep --dry-run printed no configuration count"
export PRESAGE=$presage PRESAGE_SWEEP=$sweep

t=$SECONDS
array=$(submit --array=0-$((shards - 1)) "${sizing[@]}" "$repo/docs/slurm/shard.sbatch")
first_merge=$(submit --dependency=afterok:"$array" "$repo/docs/slurm/merge.sbatch")

# Cancel the first task seen running with some, but at most two thirds, of its runs stored.
victim='' stored_at_cancel=0
pick_victim() {
	local k n want
	for ((k = 0; k < shards; k++)); do
		[[ $(field "${array}_$k" JobState) == RUNNING && -f shard-$k.db ]] || continue
		n=$(runs "shard-$k.db")
		want=$(((configs - k + shards - 1) / shards))
		if ((n >= 10 && 3 * n <= 2 * want)); then
			scancel "${array}_$k"
			victim=$k stored_at_cancel=$n
			return 0
		fi
	done
	return 1
}
wait_until 120 "a shard task running mid-way" pick_victim
wait_until 60 "the cancelled task ${array}_$victim to end" ended "${array}_$victim"
[[ $(field "${array}_$victim" JobState) == CANCELLED ]] || fail "task ${array}_$victim: $(field "${array}_$victim" JobState), want CANCELLED"
cancelled_exit=$(field "${array}_$victim" ExitCode)
stored_cancelled=$(runs "shard-$victim.db")
want_victim=$(((configs - victim + shards - 1) / shards))
((stored_cancelled >= stored_at_cancel && stored_cancelled < want_victim)) ||
	fail "cancelled shard $victim holds $stored_cancelled runs: want between $stored_at_cancel and $want_victim"
stale_wal=no
[[ -s shard-$victim.db-wal ]] && stale_wal=yes
[[ $(integrity "shard-$victim.db") == ok ]] || fail "cancelled shard-$victim.db: integrity_check: $(integrity "shard-$victim.db")"

# The merge waiting on the whole array can never start now; the doc says to
# cancel it and submit it again after the re-submitted task.
never_satisfied() { [[ $(field "$first_merge" Reason) == DependencyNeverSatisfied ]]; }
wait_until 60 "the first merge to report DependencyNeverSatisfied" never_satisfied
scancel "$first_merge"

# Re-submitted as the doc says: same folder, same sizing, only --array=I;
# the settings come from sweep.settings, so PRESAGE_SWEEP is not needed.
resubmitted=$(env -u PRESAGE_SWEEP sbatch --parsable --array="$victim" "${sizing[@]}" "$repo/docs/slurm/shard.sbatch" | cut -d';' -f1)
after=()
for ((k = 0; k < shards; k++)); do ((k == victim)) || after+=("${array}_$k"); done
after+=("$resubmitted")
merge=$(submit --dependency=afterok:"$(IFS=:; echo "${after[*]}")" "$repo/docs/slurm/merge.sbatch")
wait_until 240 "the merge job $merge to end" ended "$merge"
sharded_s=$((SECONDS - t))
for job in "${after[@]}" "$merge"; do must_complete "$job"; done
grep -q "($stored_cancelled already stored, $((want_victim - stored_cancelled)) run)" presage-shard-"${resubmitted}"_"$victim".out ||
	fail "the re-submitted task did not resume its shard: $(cat presage-shard-"${resubmitted}"_"$victim".out)"

# --- the same sweep unsharded, compared table by table ---------------------------

t=$SECONDS
p merge --into unsharded.db inputs.db >/dev/null
p --db unsharded.db sweep $sweep
unsharded_s=$((SECONDS - t))

python3 - all.db unsharded.db <<'EOF'
import sqlite3, sys

# Columns that legitimately differ between a merge of shards and one sweep:
# when things were ingested, created or migrated, and sweeps.command, the
# command line that created the sweep (store path, --shard, --workers), which
# by design is not part of the sweep's identity (def_hash).
SKIP = {"ingested_at", "created_at", "applied_at", "sweeps.command"}

db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
db.execute("ATTACH ? AS other", (f"file:{sys.argv[2]}?mode=ro",))

def tables(schema):
    return sorted(r[0] for r in db.execute(f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table'"))

def columns(table):
    return [r[1] for r in db.execute(f"PRAGMA main.table_info({table})")]

def select(schema, table, cols):
    # Runs are renumbered by merge (and numbered in completion order by a
    # sweep): a run is named by its sweep and its position in the sweep.
    exprs = []
    for c in cols:
        if c in SKIP or f"{table}.{c}" in SKIP or (table == "runs" and c == "id"):
            continue
        if c == "run_id":
            exprs.append(f"(SELECT r.sweep_id || ':' || r.sweep_index FROM {schema}.runs r WHERE r.id = t.run_id)")
        else:
            exprs.append(f't."{c}"')
    return f"SELECT {', '.join(exprs)} FROM {schema}.{table} t"

if tables("main") != tables("other"):
    sys.exit(f"tables differ: {tables('main')} vs {tables('other')}")
unnamed = db.execute("SELECT count(*) FROM runs WHERE sweep_index IS NULL").fetchone()[0]
if unnamed:
    sys.exit(f"{unnamed} runs without a sweep position: cannot be matched")
bad = 0
for table in tables("main"):
    cols = columns(table)
    if cols != [r[1] for r in db.execute(f"PRAGMA other.table_info({table})")]:
        sys.exit(f"{table}: columns differ")
    a, b = select("main", table, cols), select("other", table, cols)
    n = [db.execute(f"SELECT count(*) FROM {s}.{table}").fetchone()[0] for s in ("main", "other")]
    only_a = db.execute(f"SELECT count(*) FROM ({a} EXCEPT {b})").fetchone()[0]
    only_b = db.execute(f"SELECT count(*) FROM ({b} EXCEPT {a})").fetchone()[0]
    if n[0] != n[1] or only_a or only_b:
        bad += 1
        print(f"{table}: {n[0]} vs {n[1]} rows, {only_a} only merged, {only_b} only unsharded")
    elif n[0]:
        print(f"  {table}: {n[0]} rows equal")
sys.exit(1 if bad else 0)
EOF

for store in all.db unsharded.db shard-*.db; do
	[[ $(integrity "$store") == ok ]] || fail "$store: integrity_check: $(integrity "$store")"
done

# --- an orders program in worker processes under srun -----------------------------

if [[ -n $orders_program ]]; then
	t=$SECONDS
	# 3 tasks on the CI node's cores: --overcommit lets them share them.
	orders_job=$(sbatch --parsable --wait --ntasks=3 --overcommit --mem-per-cpu=256M --time=00:05:00 \
		"$repo/docs/slurm/orders.sbatch" "$orders_program" -n 320 | cut -d';' -f1)
	orders_s=$((SECONDS - t))
	must_complete "$orders_job"
	grep -q '^OK matmul n=320: .* on 2 workers' "presage-orders-$orders_job.out" ||
		fail "the orders program under srun: $(cat "presage-orders-$orders_job.out")"
	# orders.sbatch made the job's token: the coordinator requires it.
	grep -q '^orders: coordinator listening on 0\.0\.0\.0:[0-9]* for 2 workers (token required, TLS off)$' "presage-orders-$orders_job.out" ||
		fail "the coordinator under srun does not say it requires the run's token: $(cat "presage-orders-$orders_job.out")"
fi

# --- figures ----------------------------------------------------------------------

echo "== Slurm job array: figures"
note "sweep" "$sweep: $configs configurations, $shards shards"
for ((k = 0; k < shards; k++)); do note "  shard-$k.db" "$(runs "shard-$k.db") runs"; done
note "cancelled task" "${array}_$victim: ExitCode $cancelled_exit, $stored_cancelled runs stored ($stored_at_cancel seen at scancel), stale -wal: $stale_wal"
note "  its output ends" "$(tail -n 1 presage-shard-"${array}"_"$victim".out)"
note "re-submitted as" "job $resubmitted: $(grep -o '([0-9]* already stored, [0-9]* run)' presage-shard-"${resubmitted}"_"$victim".out)"
note "first merge (afterok:$array)" "DependencyNeverSatisfied, cancelled"
note "merge (afterok:$(IFS=:; echo "${after[*]}"))" "$(grep -o '[0-9]* runs added' presage-merge-"$merge".out), $(runs all.db) runs in all.db"
note "array + re-submission + merge" "$sharded_s s"
note "unsharded sweep ($(nproc) workers)" "$unsharded_s s"
note "integrity_check" "ok: all.db, unsharded.db, shard-*.db"
[[ -z $orders_program ]] || note "orders program under srun (3 tasks)" "$(grep '^OK' "presage-orders-$orders_job.out") ($orders_s s, token required)"
note "total" "$((SECONDS - started)) s"
