#!/usr/bin/env bash
# Checks the store and its exports with real clients:
#   - SQLite itself (Python's sqlite3 module, the C library) gives the
#     reference: row count and sum of one column per exported table and
#     sweep, computed from the base tables;
#   - pandas.read_sql reads the store's views (v_values_long,
#     v_intervals_wide, v_runs, v_intervals) and must find the same;
#   - DuckDB (@duckdb/node-api, its binary ships in the npm package) reads
#     the Parquet export (and the CSV export) with Hive partitioning and
#     must find the same;
#   - the Arrow IPC export is read with Apache Arrow's JavaScript library
#     (apache-arrow): DuckDB reads Arrow IPC only through a community
#     extension that it downloads at run time, which this machine cannot.
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
# Extra-P lines are the interval values (not the per-processor ones).
extrap = {str(s): [n, total] for s, n, total in con.execute("""
    SELECT coalesce(r.sweep_id, 0), count(*), total(v.value)
    FROM interval_values v JOIN runs r ON r.id = v.run_id GROUP BY 1""")}
json.dump({"ref": ref, "extrap": extrap, "passed": passed, "failed": failed}, open(ref_path, "w"))
PY

# DuckDB over Parquet and CSV, apache-arrow over Arrow IPC.
cat > "$work/node/check.mjs" <<'JS'
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [out, refPath] = process.argv.slice(2);
const { ref, extrap, passed: p0, failed: f0 } = JSON.parse(readFileSync(refPath, 'utf8'));
let passed = p0, failed = f0;
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const report = (ok, what, n, s, col, want) => {
  ok ? passed++ : failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${n} rows, sum(${col}) ${s.toPrecision(10)}  (sqlite: ${want[0]}, ${want[1].toPrecision(10)})`);
};

const db = await (await DuckDBInstance.create(':memory:')).connect();
const version = (await db.runAndReadAll('SELECT version()')).getRows()[0][0];
console.log(`duckdb ${version}`);
for (const [table, { column, sweeps }] of Object.entries(ref)) {
  for (const [fmt, reader] of [['parquet', 'read_parquet'], ['csv', 'read_csv']]) {
    const glob = join(out, fmt, table, '*', `part-0.${fmt}`);
    const q = `SELECT sweep_id, count(*), coalesce(sum("${column}"), 0)::DOUBLE
               FROM ${reader}('${glob}', hive_partitioning = true) GROUP BY sweep_id`;
    const got = new Map((await db.runAndReadAll(q)).getRows().map(([s, n, t]) => [String(s), [Number(n), t]]));
    for (const [sweep, want] of Object.entries(sweeps)) {
      const [n, s] = got.get(sweep) ?? [0, 0];
      report(n === want[0] && close(s, want[1]), `duckdb ${reader} ${table} sweep ${sweep}`, n, s, column, want);
    }
  }
  for (const [sweep, want] of Object.entries(sweeps)) {
    const path = join(out, 'arrow', table, `sweep_id=${sweep}`, 'part-0.arrow');
    if (!existsSync(path)) { report(false, `apache-arrow ${path} missing`, 0, 0, column, want); continue; }
    const t = tableFromIPC(readFileSync(path));
    let s = 0;
    const col = t.getChild(column);
    for (let i = 0; i < t.numRows; i++) { const v = col.get(i); if (v !== null) s += Number(v); }
    const meta = t.schema.metadata;
    const ok = t.numRows === want[0] && close(s, want[1]) && meta.get('presage.table') === table
      && meta.get('presage.sweep_id') === sweep && meta.has('presage.schema_version');
    report(ok, `apache-arrow ${table} sweep ${sweep} (schema ${meta.get('presage.schema_version')})`, t.numRows, s, column, want);
  }
}
// Parquet metadata as DuckDB sees it: the schema version in every file's
// key-value metadata, zstd on every column chunk, dictionaries on strings.
{
  const glob = join(out, 'parquet', '*', '*', 'part-0.parquet');
  const files = Number((await db.runAndReadAll(`SELECT count(DISTINCT file_name) FROM parquet_metadata('${glob}')`)).getRows()[0][0]);
  const withVersion = Number((await db.runAndReadAll(`SELECT count(DISTINCT file_name) FROM parquet_kv_metadata('${glob}')
      WHERE decode(key) = 'presage.schema_version'`)).getRows()[0][0]);
  const notZstd = Number((await db.runAndReadAll(`SELECT count(*) FROM parquet_metadata('${glob}') WHERE compression <> 'ZSTD'`)).getRows()[0][0]);
  const plainStrings = Number((await db.runAndReadAll(`SELECT count(*) FROM parquet_metadata('${glob}') m
      JOIN parquet_schema('${glob}') s ON s.file_name = m.file_name AND s.name = m.path_in_schema
      WHERE s.type = 'BYTE_ARRAY' AND m.encodings NOT LIKE '%DICTIONARY%'`)).getRows()[0][0]);
  const ok = files > 0 && withVersion === files && notZstd === 0 && plainStrings === 0;
  ok ? passed++ : failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} duckdb parquet metadata: ${files} files, ${withVersion} with presage.schema_version, ` +
    `${notZstd} column chunks not zstd, ${plainStrings} string chunks without a dictionary`);
}
// Extra-P: one line per interval value, in one file per sweep and program.
for (const [sweep, want] of Object.entries(extrap)) {
  const glob = join(out, 'extrap', `sweep_id=${sweep}`, '*.jsonl');
  const q = `SELECT count(*), coalesce(sum(value), 0)::DOUBLE FROM read_json('${glob}', format = 'newline_delimited')`;
  const [[n, s]] = (await db.runAndReadAll(q)).getRows();
  report(Number(n) === want[0] && close(s, want[1]), `duckdb read_json extrap sweep ${sweep}`, Number(n), s, 'value', want);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
JS
echo "== checking $store and $out"
node "$work/node/check.mjs" "$out" "$work/ref.json"
