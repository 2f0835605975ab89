#!/usr/bin/env bash
# procs-reality.sh PRESAGE OUT [RUNS] [CASES...]: every example on 2
# worker processes of one core (-orders.procs 2 -orders.pin), measured
# and predicted. For each case (program:size; by default every example
# coarse and fine) it times the network (-orders.mode network), calibrates
# the blocks, records a trace with the encoding's time in it
# (-orders.codec), predicts the run with `presage orders simulate
# --cluster` on that network, pinned, and runs it RUNS times (default 5)
# after one untimed run. It prints each case's median makespan, the
# makespan per order and the CPU time per order of the whole run (the
# coordinator, its server and the workers: user + system, median of the
# runs), the prediction and its error, and exits 1 when one is more than
# 15% off.
set -euo pipefail
presage=$(realpath "$1")
out=$(realpath "$2")
runs=${3:-5}
shift $(($# < 3 ? $# : 3))
cases=("$@")
# ORDERS_FLAGS: more -orders.* flags for the network calibration and the
# runs (for instance "-orders.ahead -1"), as a user's own runs have them.
read -r -a flags <<<"${ORDERS_FLAGS:-}"
if [ ${#cases[@]} -eq 0 ]; then
    # coarse, then fine: fewer and longer orders, then more and shorter
    cases=(sort:250000 sort:20000 matmul:640 matmul:128 cholesky:512 cholesky:1024 pipeline:16 pipeline:4)
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/bin"
printf '%-10s %8s %8s %12s %10s %10s %12s %8s\n' program size orders measured 'µs/order' 'cpu µs/o' predicted error
off=0
for c in "${cases[@]}"; do
    prog=${c%%:*} n=${c#*:}
    ex="$out/bin/$prog"
    [ -x "$ex" ] || (cd "$repo" && go build -tags cluster -o "$ex" "./orders/examples/$prog")
    d="$out/$prog-$n"
    rm -rf "$d" && mkdir -p "$d"
    "$ex" -n "$n" -orders.mode network -orders.procs 2 "${flags[@]}" -orders.out "$d/cluster.json" 2>"$d/network.log"
    "$ex" -n "$n" -orders.mode calibrate -orders.out "$d/cal.csv" >"$d/calibrate.log" 2>&1
    "$ex" -n "$n" -orders.mode record -orders.codec -orders.calibration "$d/cal.csv" -orders.out "$d/$prog.jsonl" >"$d/record.log" 2>&1
    "$presage" -q --db "$d/store.db" ingest orders "$d/$prog.jsonl" >/dev/null
    "$presage" --db "$d/store.db" orders simulate --orders "$prog" --cluster "$d/cluster.json" --pin >"$d/simulate.log" 2>&1
    predicted=$(sed -n 's/.*: makespan \([0-9.e+-]*\) s.*/\1/p' "$d/simulate.log" | head -1)
    times=() cpus=()
    for i in $(seq 0 "$runs"); do
        /usr/bin/time -f '%U %S' -o "$d/cpu$i" "$ex" -n "$n" -orders.procs 2 -orders.pin "${flags[@]}" -orders.out "$d/run$i.json" >"$d/run$i.log" 2>&1
        [ "$i" -eq 0 ] && continue
        times+=("$(grep -o '"makespan": *[0-9.e+-]*' "$d/run$i.json" | grep -o '[0-9.e+-]*$')")
        cpus+=("$(awk '{print $1 + $2}' "$d/cpu$i")")
    done
    orders=$(grep -o '"orders": *[0-9]*' "$d/run1.json" | head -1 | grep -o '[0-9]*$')
    median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
    measured=$(median "${times[@]}")
    cpu=$(median "${cpus[@]}")
    err=$(awk -v p="$predicted" -v m="$measured" 'BEGIN {printf "%+.1f%%", 100 * (p - m) / m}')
    printf '%-10s %8s %8s %12.4g %10.0f %10.0f %12.4g %8s\n' "$prog" "$n" "$orders" "$measured" \
        "$(awk -v m="$measured" -v o="$orders" 'BEGIN {print 1e6 * m / o}')" "$(awk -v c="$cpu" -v o="$orders" 'BEGIN {print 1e6 * c / o}')" "$predicted" "$err"
    awk -v p="$predicted" -v m="$measured" 'BEGIN {exit !((p - m) / m > 0.15 || (m - p) / m > 0.15)}' && off=$((off + 1))
done
echo "$off of ${#cases[@]} cases more than 15% off"
[ "$off" -eq 0 ]
