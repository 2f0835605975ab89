#!/usr/bin/env bash
# The DVM reality check (docs/compare.md, "The DVM reality check"): the real
# DVM system packed in ../shared/tools/devdvm runs jac and sor, big size on
# grids 1, 1x2 and 2x1 five times (OUT/round1..5: sor's 1x2 runs spread by a
# quarter from one run to the next, docs/compare.md, and five rounds hold
# both its fast and its slow runs far more often than three) and the small
# size seven times (OUT/small1..7: its runs last a tenth of a second, and a
# neighbour's burst on the host slows one round by a quarter; on the
# twenty-five kept checks three small rounds held 258 runs of 300 where
# five held 270, docs/compare.md, "The CI step"), each big round followed
# by a small one, so that a busy minute falls on both sizes alike; then
# `presage reality` holds the predictions against the measured times in one
# table, and Presage's Predictor and analyzer reports against the
# original's on these fresh files. Fails when a devdvm run is missing or a
# report differs; lists the runs the extended model misses by more than 10%
# and the rounds' spread.
# Run it alone on the machine: the times are real.
#
# usage: .ci/dvm-reality.sh PRESAGE OUT
set -euo pipefail
presage=$1 out=$2
devdvm=${DEVDVM:-../shared/tools/devdvm}
# devdvm runs the original Predictor on its own par/Predictor.par, which
# equals this one (and copies none into OUT).
machine=${MACHINE:-../shared/data/machines/Predictor.par}
grids="1 1x2 2x1"
# One thread a process, in the traced run as in every measured one: the DVMH
# run-time runs a REGION's parallel loop on as many threads as its process
# has cores, so a one-process run on 2 cores, the traced run among them,
# computes sor's initialisation on two threads, where each process of a
# two-process run has one core and one thread (docs/compare.md, "Where the
# time goes", item 6). devdvm passes DVMH_* through to every run; a value
# given by the caller is kept.
export DVMH_NUM_THREADS=${DVMH_NUM_THREADS:-1}

# measure SIZE DIR EXTRAS: one devdvm round, with the original Predictor's
# and analyzer's reports when EXTRAS is 1; every program on every grid must
# have its statistics, or the table would silently lose a row.
measure() {
  local size=$1 dir=$2 extras=$3 want=$((2 * $(wc -w <<<"$grids")))
  local start=$SECONDS
  DVMB_SIZE=$size DVMB_MAXNP=2 DVMB_GRIDS="$grids" DVMB_PROGS="jac sor" DVMB_EXTRAS=$extras \
    "$devdvm/run.sh" "$dir" >"$dir.log" 2>&1 ||
    { cat "$dir.log"; echo "devdvm run.sh $dir failed"; exit 1; }
  local got
  got=$(find "$dir" -maxdepth 1 -name '*.sts.gz+' | wc -l)
  if [ "$got" -ne "$want" ]; then
    cat "$dir/times.tsv"; echo "$dir: $got statistics files, expected $want (2 programs x grids $grids)"; exit 1
  fi
  echo "-- $dir: devdvm $size in $((SECONDS - start)) s"
}

# The original's reports of the first three rounds are held against
# Presage's (30 Predictor and 36 analyzer reports); the later rounds only
# measure, which takes a small round 14 s instead of 20.
for r in 1 2 3 4 5 6 7; do
  extras=$((r <= 3 ? 1 : 0))
  if [ "$r" -le 5 ]; then measure big "$out/round$r" $extras; fi
  measure small "$out/small$r" $extras
done
# --bound-report-only: the runs the extended model misses beyond 10% and
# their rounds' spread are listed, not failed on: on this shared machine
# the checks miss about one run in twelve (docs/compare.md, "The CI
# step"); a report that differs from the original's still fails, and so
# does a check with fewer than 7 of its 12 runs within the bound (the
# worst of the twenty-five kept checks has 9; the original-compatible
# model has 1 to 7).
"$presage" --db "$out/presage.db" reality --machine "$machine" --intervals all --bound-report-only --min-within 7 \
  "$out"/round{1,2,3,4,5} "$out"/small{1,2,3,4,5,6,7}
