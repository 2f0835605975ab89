# Presage tasks. `just --list` shows them.

# Build the presage binary into ./bin.
build:
    go build -o bin/presage ./cmd/presage

# Run every test (golden tests read ../shared when it is there).
test:
    go test ./...

# Run the demo: generate a trace, predict it, write the HTML report.
demo:
    go run ./cmd/presage demo

# The benchmarks of the paths whose speed docs/performance.md keeps, COUNT times each, in benchstat's format: ingest (BenchmarkTraceX40000), the one-shot `predict FILE --grid 1` (BenchmarkPredictFile), a stored prediction at 2x2, 8x8 and 64x64 (BenchmarkPredictStored, jac1d_x40000), a sweep (BenchmarkSweep, 2 workers) and the picture's cost in the engine (BenchmarkSimulatePicture, 8x8, without and with). The stage benchmarks report CPU ns per operation (cpu-ns/op) beside the wall time.
bench count="6":
    go test -run '^$' -bench '^BenchmarkTraceX40000$' -benchmem -count {{count}} ./ingest
    go test -run '^$' -bench '^BenchmarkPredictFile$|^BenchmarkPredictStored$/^jac1d_x40000$/^(2x2|8x8|64x64)$|^BenchmarkSweep$/^workers=2$' -benchmem -count {{count}} ./internal/stage
    go test -run '^$' -bench '^BenchmarkSimulatePicture$/^8x8$' -count {{count}} ./sim

# Every benchmark of every package that has one, as `go test -list` finds them (.ci/targets.sh; CI runs each once).
bench-all:
    bash .ci/targets.sh bench -benchmem

# REF (a commit, branch or tag) against the working tree, with benchstat: the whole commands first, CPU time (user+sys) of each, COUNT runs interleaved REF / working tree (ingest trace, predict FILE --grid 1 on a fresh store, a stored prediction at 2x2, 8x8 and 64x64 on Predictor.par's cluster grown to 16,384 processors, a sweep of the grids of 1..16 processors), then the benchmarks of `just bench` of both, -count 1 per round, interleaved. REF's files are taken with git archive into a temporary folder (the repository's git state is left alone), removed at the end.
bench-compare ref count="6" trace="../shared/data/traces/jac1d_x40000.ptr.gz":
    #!/usr/bin/env bash
    set -euo pipefail
    benchstat="go tool benchstat"
    export PRESAGE_SHARED=$(realpath ../shared) # for REF's folder, which has no ../shared beside it
    work=$(mktemp -d); wt="$work/ref"
    trap 'rm -rf "$work"' EXIT
    mkdir "$wt"; git archive "{{ref}}" | tar -x -C "$wt"
    (cd "$wt" && go build -o "$work/presage-ref" ./cmd/presage)
    go build -o "$work/presage-new" ./cmd/presage
    case "{{trace}}" in *.gz) gunzip -c "{{trace}}" >"$work/trace.ptr" ;; *) cp "{{trace}}" "$work/trace.ptr" ;; esac
    sed 's/{512 x mvsP2}/{8192 x mvsP2}/' ../shared/data/machines/Predictor.par >"$work/Predictor.par"
    cpu() { # name side command...: one benchmark line of the command's CPU time
      local name=$1 side=$2; shift 2
      /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1
      awk -v n="$name" '{printf "BenchmarkCLI/%s 1 %.0f cpu-ns/op\n", n, ($1 + $2) * 1e9}' "$work/time" >>"$work/$side-cli.txt"
    }
    for side in ref new; do
      "$work/presage-$side" -q --db "$work/$side-tpl.db" ingest trace "$work/trace.ptr" >/dev/null
      "$work/presage-$side" -q --db "$work/$side-tpl.db" ingest machine "$work/Predictor.par" >/dev/null
    done
    fresh() { rm -f "$work"/run.db*; if [ -n "${1:-}" ]; then cp "$work/$1-tpl.db" "$work/run.db"; fi; }
    for i in $(seq {{count}}); do
      for side in ref new; do
        p="$work/presage-$side"
        fresh; cpu ingest $side "$p" -q --db "$work/run.db" ingest trace "$work/trace.ptr"
        fresh; cpu predict-file-grid1 $side "$p" -q --db "$work/run.db" predict "$work/trace.ptr" --machine "$work/Predictor.par" --grid 1
        for g in 2x2 8x8 64x64; do
          fresh $side; cpu "stored-$g" $side "$p" -q --db "$work/run.db" predict --trace trace --machine Predictor --grid "$g" --again
        done
        fresh $side; cpu sweep-1..16 $side "$p" -q --db "$work/run.db" sweep --trace trace --machine Predictor --procs 1..16
      done
    done
    echo "== whole commands, CPU time (user+sys): {{ref}} against the working tree"
    $benchstat "{{ref}}=$work/ref-cli.txt" "working tree=$work/new-cli.txt"
    pattern='^BenchmarkTraceX40000$|^BenchmarkPredictFile$|^BenchmarkPredictStored$/^jac1d_x40000$/^(2x2|8x8|64x64)$|^BenchmarkSweep$/^workers=2$|^BenchmarkSimulatePicture$/^8x8$'
    for i in $(seq {{count}}); do
      (cd "$wt" && go test -run '^$' -bench "$pattern" -benchmem -count 1 ./ingest ./internal/stage ./sim) >>"$work/ref-go.txt"
      go test -run '^$' -bench "$pattern" -benchmem -count 1 ./ingest ./internal/stage ./sim >>"$work/new-go.txt"
    done
    echo "== the benchmarks of just bench: {{ref}} against the working tree"
    $benchstat "{{ref}}=$work/ref-go.txt" "working tree=$work/new-go.txt"

# The orders reality check: every example at two sizes, every placement, on 1, 2 and every power of two up to the cores (or WORKERS, e.g. "1,2,4"), real runs against predictions, as one table. Run it alone on the machine.
reality workers="":
    w="{{workers}}"; go run ./orders/examples/realitycheck ${w:+-workers "$w"}

# The orders reality check in worker processes: every example, coarse and fine, on 2 worker processes of one core, pinned, RUNS runs each (median) against the prediction from its network calibration and a trace recorded with -orders.codec (.ci/procs-reality.sh; into OUT, default a temporary folder). Fails if one is more than 15% off. ORDERS_FLAGS="-orders.ahead -1" (say) gives the network calibration and the runs more flags. Run it alone on the machine (about a minute and a half on 2 cores, 5 runs).
procs-reality runs="5" out="":
    #!/usr/bin/env bash
    set -euo pipefail
    go build -o bin/presage ./cmd/presage
    out="{{out}}"; if [ -z "$out" ]; then out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
    bash .ci/procs-reality.sh bin/presage "$out" {{runs}}

# The DVM reality check: the real DVM system (../shared/tools/devdvm) runs jac and sor on grids 1, 1x2, 2x1, one thread a process (DVMH_NUM_THREADS=1), the big size five times and the small size seven (into OUT, default a temporary folder), then `presage reality` prints measured against predicted, fails if Presage's reports differ from the original's, and lists the runs the extended model misses by more than 10% and their rounds' spread. Run it alone on the machine (about 8 minutes on 2 cores).
dvm-reality out="":
    #!/usr/bin/env bash
    set -euo pipefail
    go build -o bin/presage ./cmd/presage
    out="{{out}}"; if [ -z "$out" ]; then out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
    bash .ci/dvm-reality.sh "$(realpath bin/presage)" "$out"

# The DVM reality check again, with this build, on checks already measured: each CHECK the OUT of `just dvm-reality` or CI's PRESAGE_CI_KEEP folder (its dvm-reality), `presage reality` on its rounds in a new store. Prints each check's runs within the bound, original-compatible and extended, and their sums: a change of the model or its fit judged on measurements that no longer move (docs/compare.md, "Judging a change on the kept checks"). About half a minute a check.
dvm-replay +checks:
    #!/usr/bin/env bash
    set -euo pipefail
    go build -o bin/presage ./cmd/presage
    machine=${MACHINE:-../shared/data/machines/Predictor.par}
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    orig=0 ext=0 runs=0
    for check in {{checks}}; do
      if [ ! -d "$check" ]; then echo "$check: no such folder" >&2; exit 1; fi
      if [ -d "$check/dvm-reality" ]; then check="$check/dvm-reality"; fi
      rounds=$(find "$check" -mindepth 1 -maxdepth 1 -type d \( -name 'round*' -o -name 'small*' \) | sort)
      if [ -z "$rounds" ]; then echo "$check: no round*/small* folder of devdvm's runs" >&2; exit 1; fi
      rm -f "$work"/check.db*
      if ! bin/presage --quiet --db "$work/check.db" reality --machine "$machine" --intervals all --bound-report-only $rounds >"$work/out" 2>"$work/err"; then
        cat "$work/err" >&2; exit 1
      fi
      # runs (Main) within 10% ...: original-compatible A of N, extended B of N
      line=$(grep '^runs (Main)' "$work/out")
      read -r a n b <<<"$(sed -E 's/.*original-compatible ([0-9]+) of ([0-9]+), extended ([0-9]+) of.*/\1 \2 \3/' <<<"$line")"
      echo "$check: original-compatible $a of $n, extended $b of $n"
      orig=$((orig + a)) ext=$((ext + b)) runs=$((runs + n))
    done
    echo "all: original-compatible $orig of $runs, extended $ext of $runs"

# Fuzz every fuzz target of every package, as `go test -list` finds them (.ci/targets.sh), for FUZZTIME (default 5m) each. A crasher found is saved under the package's testdata/fuzz: keep it, plain `go test` then runs it.
fuzz fuzztime="5m":
    bash .ci/targets.sh fuzz {{fuzztime}}

# gofmt, go vet, staticcheck and unreachable code (the tools pinned in go.mod's tool block), and every benchmark and fuzz target in the lists that CI and `just fuzz` run.
lint:
    test -z "$(gofmt -l .)"
    go vet ./...
    go tool staticcheck ./...
    go tool deadcode -test ./...
    bash .ci/targets.sh check

# Side by side with the original DVM Predictor: CPU s (user+sys), 3 runs each: `predict FILE` into a fresh store, and a stored trace predicted anew (--again).
compare-original trace="../shared/data/traces/jac1d_x40000.ptr.gz" machine="../shared/data/machines/Predictor.par" grids="1 2x2 8x8":
    #!/usr/bin/env bash
    set -euo pipefail
    go build -o bin/presage ./cmd/presage
    presage=$(realpath bin/presage); orig=$(realpath ../shared/tools/dvm-predictor); machine=$(realpath "{{machine}}")
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    case "{{trace}}" in *.gz) gunzip -c "{{trace}}" >"$work/trace.ptr" ;; *) cp "{{trace}}" "$work/trace.ptr" ;; esac
    cpu() { /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1; awk '{printf "%.2f", $1 + $2}' "$work/time"; }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
    # The stored column: the trace ingested (and checked by its first
    # prediction) once, then each grid predicted anew (--again: without it
    # the stored prediction is shown and nothing is simulated).
    "$presage" -q --db "$work/s.db" ingest trace "$work/trace.ptr" >/dev/null
    "$presage" -q --db "$work/s.db" predict --trace trace --machine "$machine" --grid 1 >/dev/null
    printf '%-6s %-3s %9s %14s %14s %7s %7s\n' grid run original presage-fresh presage-stored fresh× stored×
    for g in {{grids}}; do
      for i in 1 2 3; do
        o=$(cd "$work" && cpu "$orig" "$machine" trace.ptr out.html ${g//x/ })
        rm -f "$work"/p.db*
        f=$(cpu "$presage" -q --db "$work/p.db" predict "$work/trace.ptr" --machine "$machine" --grid "$g")
        s=$(cpu "$presage" -q --db "$work/s.db" predict --trace trace --machine "$machine" --grid "$g" --again)
        printf '%-6s %-3s %9s %14s %14s %7s %7s\n' "$g" "$i" "$o" "$f" "$s" "$(ratio "$o" "$f")" "$(ratio "$o" "$s")"
      done
    done

# Prediction cost against the grid: CPU ms (user+sys) per `presage predict --again` of a stored trace (simulated each time), RUNS runs per grid, on Predictor.par's cluster grown to 16,384 processors.
grid-scaling trace="../shared/data/traces/jac_e4_L500_it4000.ptr.gz" grids="2x2 8x8 64x64 128x128" runs="20":
    #!/usr/bin/env bash
    set -euo pipefail
    go build -o bin/presage ./cmd/presage
    presage=$(realpath bin/presage)
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    sed 's/{512 x mvsP2}/{8192 x mvsP2}/' ../shared/data/machines/Predictor.par >"$work/Predictor-16384.par"
    "$presage" -q --db "$work/p.db" ingest trace "{{trace}}"
    "$presage" -q --db "$work/p.db" ingest machine "$work/Predictor-16384.par"
    name=$(basename "{{trace}}"); name=${name%.gz}; name=${name%.ptr}
    base=""
    printf '%-8s %11s %6s\n' grid cpu-ms/run ratio
    for g in {{grids}}; do
      /usr/bin/time -f '%U %S' -o "$work/time" bash -c "for i in \$(seq {{runs}}); do '$presage' -q --db '$work/p.db' predict --trace '$name' --machine Predictor-16384 --grid $g --again >/dev/null; done"
      ms=$(awk -v n={{runs}} '{printf "%.1f", ($1 + $2) * 1000 / n}' "$work/time")
      base=${base:-$ms}
      printf '%-8s %11s %6s\n' "$g" "$ms" "$(awk -v a="$ms" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
    done

# The orders engine through the command line (issue 22's table): for every `gen orders` shape of ORDERS orders, `ingest orders`, `orders simulate` at 64 and 1024 nodes (FIFO and work stealing) and `orders sweep --nodes 1..1024:*2`, with CPU s, orders per CPU s and peak RSS.
orders-scaling orders="1000000" shapes="dac pipeline master":
    #!/usr/bin/env bash
    set -euo pipefail
    go build -o bin/presage ./cmd/presage
    presage=$(realpath bin/presage)
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    measure() { # label, orders, command...
      local label=$1 n=$2; shift 2
      /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >/dev/null
      awk -v l="$label" -v n="$n" '{cpu = $1 + $2; printf "%-58s %8.2f %12.0f %8.0f\n", l, cpu, n / cpu, $3 / 1024}' "$work/time"
    }
    printf '%-58s %8s %12s %8s\n' command cpu-s orders/cpu-s rss-MB
    for s in {{shapes}}; do
      "$presage" -q gen orders --shape "$s" --orders {{orders}} "$work/$s.jsonl"
      n=$(head -1 "$work/$s.jsonl" | sed 's/.*"orders":\([0-9]*\).*/\1/')
      longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$work/$s.jsonl")
      echo "$s: $n orders, $(du -m "$work/$s.jsonl" | cut -f1) MB of JSON, longest line $longest bytes"
      measure "ingest orders $s" "$n" "$presage" -q --db "$work/p.db" ingest orders "$work/$s.jsonl"
      rm -f "$work/$s.jsonl"
      for nodes in 64 1024; do
        for sched in fifo work-stealing; do
          measure "orders simulate $s --nodes $nodes --scheduler $sched" "$n" \
            "$presage" -q --db "$work/p.db" orders simulate --orders "$s" --nodes "$nodes" --scheduler "$sched"
        done
      done
      measure "orders sweep $s --nodes 1..1024:*2 (11 sizes)" "$((n * 11))" \
        "$presage" -q --db "$work/p.db" orders sweep --orders "$s" --nodes '1..1024:*2'
    done
