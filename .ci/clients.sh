#!/usr/bin/env bash
# Checks the store and its exports with real clients:
#   - SQLite itself (Python's sqlite3 module, the C library) gives the
#     reference: the row count and sum of one column per table and sweep
#     from the base tables, which pandas.read_sql must find in the views
#     (v_values_long, v_intervals_wide, v_runs, v_intervals, and the
#     orders views); and every row and column of the exported views,
#     dumped by .ci/clients_ref.py;
#   - .ci/clients.mjs compares every column of every exported table and
#     sweep with that dump, types and values: DuckDB (@duckdb/node-api)
#     reads the Parquet and CSV exports, Apache Arrow's JavaScript library
#     the Arrow IPC export (DuckDB reads Arrow IPC only through a community
#     extension that it downloads at run time, which this machine cannot);
#     it checks the Extra-P files (every value once, repetitions of a point
#     equal, one point per configuration), and finally checks itself:
#     copies of exported files with one corrupted column must fail.
#
# Usage: .ci/clients.sh STORE EXPORT_DIR
# EXPORT_DIR holds parquet/, arrow/, csv/ and extrap/, as written by
# `presage export FORMAT --out EXPORT_DIR/FORMAT` (.ci/run does this).
# Installs python3-pandas (apt) and the npm packages into a temporary
# directory when missing. Prints one line per check and
# "N passed, M failed"; exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -ne 2 ]; then
    echo "usage: $0 STORE EXPORT_DIR" >&2
    exit 2
fi
store=$1
out=$2
[ -f "$store" ] || { echo "clients: no store $store" >&2; exit 2; }
[ -d "$out/parquet" ] || { echo "clients: no $out/parquet (export the store first)" >&2; exit 2; }

# Debian's pandas: /usr/bin/python3, whatever python3 is first on PATH.
py=/usr/bin/python3
if ! "$py" -c 'import pandas' 2>/dev/null; then
    echo "== installing python3-pandas"
    if ! apt-cache show python3-pandas >/dev/null 2>&1; then
        apt-get update -qq
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pandas >/dev/null
fi

echo "== installing @duckdb/node-api and apache-arrow"
mkdir -p "$work/node"
(cd "$work/node" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error @duckdb/node-api apache-arrow >/dev/null)

# The reference from SQLite, and pandas over the views.
"$py" - "$store" "$work/ref.json" <<'PY'
import json, sqlite3, sys
import pandas as pd

store, ref_path = sys.argv[1], sys.argv[2]
con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)

# Row count and sum per table and sweep, from the base tables.
base = {
    "values": ("value", """
        SELECT sweep, sum(n), total(s) FROM (
          SELECT coalesce(r.sweep_id, 0) AS sweep, count(*) AS n, total(v.value) AS s
          FROM interval_values v JOIN runs r ON r.id = v.run_id GROUP BY 1
          UNION ALL
          SELECT coalesce(r.sweep_id, 0), count(*), total(p.value)
          FROM interval_proc_values p JOIN runs r ON r.id = p.run_id GROUP BY 1)
        GROUP BY sweep"""),
    "intervals_wide": ("Execution_time", """
        SELECT coalesce(r.sweep_id, 0), count(*), total(v.value)
        FROM intervals i JOIN runs r ON r.id = i.run_id
        LEFT JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.id
          AND v.char_id = (SELECT id FROM characteristics WHERE name = 'Execution_time')
        GROUP BY 1"""),
    "runs": ("execution_time", "SELECT coalesce(sweep_id, 0), count(*), total(execution_time) FROM runs GROUP BY 1"),
    "intervals": ("count", """
        SELECT coalesce(r.sweep_id, 0), count(*), total(i.count)
        FROM intervals i JOIN runs r ON r.id = i.run_id GROUP BY 1"""),
}
views = {"values": "v_values_long", "intervals_wide": "v_intervals_wide", "runs": "v_runs", "intervals": "v_intervals"}
# The orders simulations' own rows, read through their views (pandas only:
# the exports carry their runs with the others).
orders = {
    "v_order_runs": ("makespan", "SELECT coalesce(r.sweep_id, 0), count(*), total(o.makespan) FROM order_runs o JOIN runs r ON r.id = o.run_id GROUP BY 1"),
    "v_order_nodes": ("busy", "SELECT coalesce(r.sweep_id, 0), count(*), total(n.busy) FROM order_nodes n JOIN runs r ON r.id = n.run_id GROUP BY 1"),
}

ref = {}
for table, (col, sql) in base.items():
    ref[table] = {"column": col, "sweeps": {str(s): [n, total] for s, n, total in con.execute(sql)}}

def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))

passed = failed = 0
print(f"sqlite {sqlite3.sqlite_version}, pandas {pd.__version__}")
for table, view in views.items():
    col = ref[table]["column"]
    df = pd.read_sql(f'SELECT sweep_id, "{col}" AS c FROM {view}', con)
    got = df.groupby("sweep_id")["c"].agg(["count", "sum"])
    for sweep, (n, total) in sorted(ref[table]["sweeps"].items()):
        s = int(sweep)
        gn = int((df["sweep_id"] == s).sum())
        gs = float(got.loc[s, "sum"]) if s in got.index else 0.0
        ok = gn == n and close(gs, total)
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok  ' if ok else 'FAIL'} pandas.read_sql {view:16} sweep {s}: {gn} rows, sum({col}) {gs:.10g}"
              f"  (sqlite: {n}, {total:.10g})")
for view, (col, sql) in orders.items():
    want = {s: (n, total) for s, n, total in con.execute(sql)}
    df = pd.read_sql(f'SELECT sweep_id, "{col}" AS c FROM {view}', con)
    ok = len(want) > 0
    for s, (n, total) in sorted(want.items()):
        part = df[df["sweep_id"] == s]["c"]
        good = len(part) == n and close(float(part.sum()), total)
        ok = ok and good
        print(f"{'ok  ' if good else 'FAIL'} pandas.read_sql {view:16} sweep {s}: {len(part)} rows, sum({col}) {part.sum():.10g}"
              f"  (sqlite: {n}, {total:.10g})")
    if not want:
        print(f"FAIL pandas.read_sql {view}: the store holds no orders simulation")
    passed, failed = passed + ok, failed + (not ok)
# Extra-P lines are the interval values (not the per-processor ones), one
# parameter point per distinct configuration of a program.
extrap = {str(s): {"rows": n, "sum": total} for s, n, total in con.execute("""
    SELECT coalesce(r.sweep_id, 0), count(*), total(v.value)
    FROM interval_values v JOIN runs r ON r.id = v.run_id GROUP BY 1""")}
for s, configs, measured in con.execute("""
    SELECT sweep, count(*), max(kind = 'measured') FROM (
      SELECT DISTINCT coalesce(sweep_id, 0) AS sweep, program, kind, machine, grid, network,
        tstart_us, tbyte_us, power, options, trace_id
      FROM runs r WHERE EXISTS (SELECT 1 FROM interval_values v WHERE v.run_id = r.id)) GROUP BY 1"""):
    extrap[str(s)].update(configs=configs, measured=bool(measured))
json.dump({"extrap": extrap, "passed": passed, "failed": failed}, open(ref_path, "w"))
PY

# Every row and column of the exported views, as SQLite gives them.
mkdir -p "$work/ref"
"$py" .ci/clients_ref.py "$store" "$work/ref"

echo "== checking $store and $out"
cp .ci/clients.mjs "$work/node/"
node "$work/node/clients.mjs" "$out" "$work/ref" "$work/ref.json"
