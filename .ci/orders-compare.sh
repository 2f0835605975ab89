#!/usr/bin/env bash
# The orders workflow end to end on the example programs, through the CLI:
# calibrate, record, run for real on 1 and 2 workers, store the measured
# runs beside simulations of the same clusters, and print presage
# compare's verdict. Usage: orders-compare.sh PRESAGE DB WORKDIR
set -euo pipefail
presage=$1 db=$2 work=$3
p() { "$presage" --db "$db" --quiet "$@"; }
for prog in matmul sort pipeline; do
	go build -o "$work/$prog" "./orders/examples/$prog"
	"$work/$prog" -orders.mode calibrate -orders.out "$work/$prog.cal.csv" 2>/dev/null
	"$work/$prog" -orders.mode record -orders.calibration "$work/$prog.cal.csv" -orders.out "$work/$prog.jsonl" 2>/dev/null
	p ingest calibration "$work/$prog.cal.csv"
	p ingest orders "$work/$prog.jsonl"
	for workers in 1 2; do
		"$work/$prog" -orders.workers "$workers" -orders.out "$work/$prog.run$workers.jsonl" >/dev/null
		measured=$("$presage" --db "$db" ingest orders-run "$work/$prog.run$workers.jsonl" 2>&1 | sed -n 's/.*(run \([0-9]*\))$/\1/p')
		predicted=$(p orders simulate --orders "$prog" --nodes "$workers" | sed -n 's/^run \([0-9]*\):.*/\1/p')
		echo "$prog on $workers worker(s): $(p compare --measured "$measured" --predicted "$predicted" | grep -E '^  Main [^ ]+:[0-9]+ ')"
	done
done
