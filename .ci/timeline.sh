#!/usr/bin/env bash
# The timeline exports of a predicted run, read by real parsers: the
# Perfetto/Chrome JSON by Chrome DevTools' own trace engine (npm), the
# Paraver trace by the strict checks of exports/timeline's tests.
# Usage: timeline.sh PRESAGE DB WORKDIR
set -euo pipefail
presage=$1 db=$2 work=$3
dir="$work/timeline"
mkdir -p "$dir"
(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error @paulirish/trace_engine@0.0.65 >/dev/null)
cp exports/timeline/testdata/check-perfetto.mjs "$dir/"
# The latest prediction of a Lib-DVM trace (the store holds orders runs too).
run=$("$presage" --db "$db" query --format csv "SELECT max(id) FROM runs WHERE engine = 'dvm' AND kind = 'predicted'" | tail -1)
"$presage" --db "$db" --quiet export timeline --run "$run" --format perfetto --out "$dir/t.json"
"$presage" --db "$db" --quiet export timeline --run "$run" --format paraver --out "$dir/t.prv"
ls -l "$dir"/t.json "$dir"/t.prv "$dir"/t.pcf "$dir"/t.row | awk '{print $5, $9}'
node "$dir/check-perfetto.mjs" "$dir/t.json"
