#!/usr/bin/env bash
# The orders workflow end to end on the example programs, through the CLI:
# calibrate, record, run for real on 1 and 2 workers (FIFO, and work
# stealing on 2), each run recording its schedule order by order; store
# the measured runs beside simulations of the same clusters and rules,
# and print presage compare's verdict: Main against Main, then order by
# order and per procedure. Timings are noisy on a shared machine: what is
# asserted is the structure — every order of the real run matched with
# the simulated order at its place in the tree, as many orders of every
# procedure on both sides — never how close the times are.
# Usage: orders-compare.sh PRESAGE DB WORKDIR
set -euo pipefail
presage=$1 db=$2 work=$3
p() { "$presage" --db "$db" --quiet "$@"; }
fail() { echo "orders-compare: $*" >&2; exit 1; }
for prog in matmul sort pipeline cholesky; do
	go build -o "$work/$prog" "./orders/examples/$prog"
	"$work/$prog" -orders.mode calibrate -orders.out "$work/$prog.cal.csv" 2>/dev/null
	"$work/$prog" -orders.mode record -orders.calibration "$work/$prog.cal.csv" -orders.out "$work/$prog.jsonl" 2>/dev/null
	p ingest calibration "$work/$prog.cal.csv"
	p ingest orders "$work/$prog.jsonl"
	for run in 1:fifo 2:fifo 2:work-stealing; do
		workers=${run%%:*} rule=${run#*:}
		file="$work/$prog.run$workers.$rule.jsonl"
		"$work/$prog" -orders.workers "$workers" -orders.scheduler "$rule" -orders.out "$file" >/dev/null
		measured=$("$presage" --db "$db" ingest orders-run "$file" 2>&1 | sed -n 's/.*(run \([0-9]*\))$/\1/p')
		predicted=$(p orders simulate --orders "$prog" --nodes "$workers" --scheduler "$rule" | sed -n 's/^run \([0-9]*\):.*/\1/p')
		out=$(p compare --measured "$measured" --predicted "$predicted" --worst 3)
		echo "$prog on $workers worker(s), $rule: $(grep -E '^  Main [^ ]+:[0-9]+ ' <<<"$out")"
		procs=$(sed -n '/^Per procedure/,/^$/p' <<<"$out")
		sed -e '/^$/d' -e 's/^/    /' <<<"$procs"
		# The header's orders: the real run's orders, all recorded.
		orders=$(sed -n '1s/.*"orders":\([0-9]*\),.*/\1/p' "$file")
		summary=$(grep '^Orders: ' <<<"$out") || fail "$prog, $workers worker(s), $rule: no order-by-order comparison in:"$'\n'"$out"
		echo "    $summary"
		[[ $summary == "Orders: $orders matched, 0 unmatched measured, 0 unmatched predicted orders;"* ]] ||
			fail "$prog, $workers worker(s), $rule: expected the $orders orders of the real run all matched"
		# Per procedure: orders measured = predicted = matched.
		awk 'NR > 2 && NF && ($2 != $3 || $3 != $4) { print "orders-compare: procedure " $1 ": " $2 " measured, " $3 " predicted, " $4 " matched" > "/dev/stderr"; bad = 1 }
			END { exit bad }' <<<"$procs" || fail "$prog, $workers worker(s), $rule: procedures counted differently"
	done
done
