// The exports read by real clients and compared, every column of every
// row, with SQLite (.ci/clients.sh runs it). DuckDB reads the Parquet and
// CSV exports, Apache Arrow's JavaScript library the Arrow IPC export (DuckDB
// reads Arrow IPC only through an extension it downloads, which CI cannot);
// the reference is what .ci/clients_ref.py dumped from SQLite's views.
//
// For each table, sweep and format: the exported columns' types must be
// those of SQLite's values (BIGINT, DOUBLE, VARCHAR), and the rows must be
// the same multiset (EXCEPT ALL both ways over every column); when they are
// not, each column is compared alone to name the culprits. Last, the
// checker checks itself: corrupted copies of exported files (one column
// each) must fail.
//
// Usage: node clients.mjs EXPORT_DIR REF_DIR BASE.json
// BASE.json carries the earlier checks' counts and the Extra-P reference.
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { readFileSync, writeFileSync, existsSync, readdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const [out, refDir, basePath] = process.argv.slice(2);
const base = JSON.parse(readFileSync(basePath, 'utf8'));
const types = JSON.parse(readFileSync(join(refDir, 'types.json'), 'utf8'));
let passed = base.passed, failed = base.failed;
let prefix = ''; // set while the checker checks itself
const say = (ok, what) => { ok ? passed++ : failed++; console.log(`${prefix}${ok ? 'ok  ' : 'FAIL'} ${what}`); };
const scratch = mkdtempSync(join(tmpdir(), 'clients-'));

const db = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async (q) => (await db.runAndReadAll(q)).getRows();
console.log(`duckdb ${(await rows('SELECT version()'))[0][0]}`);
const lit = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (c) => `"${c.replaceAll('"', '""')}"`;
const columnsArg = (table, cols) => `{${cols.map((c) => `${lit(c)}: ${lit(types[table][c] ?? 'VARCHAR')}`).join(', ')}}`;

// The type class of a DuckDB or Arrow type, as clients_ref.py names them.
const duckClass = (t) => /^TIMESTAMP( WITH TIME ZONE|TZ)$/.test(t) ? 'TIMESTAMPTZ' : /INT/.test(t) ? 'BIGINT' : /DOUBLE|FLOAT|DECIMAL/.test(t) ? 'DOUBLE' : /VARCHAR/.test(t) ? 'VARCHAR' : t;
const arrowClass = (t) => /^timestamp<.*,\s*UTC>$/i.test(t) ? 'TIMESTAMPTZ' : /^u?int/i.test(t) ? 'BIGINT' : /^float/i.test(t) ? 'DOUBLE' : /^(utf8|largeutf8|dictionary<.*utf8>)$/i.test(t.replace(/\s/g, '')) ? 'VARCHAR' : t;

for (const table of Object.keys(types)) {
  const refCols = Object.keys(types[table]);
  await db.run(`CREATE TEMP TABLE ref_${table} AS SELECT * FROM read_csv(${lit(join(refDir, table + '.csv'))},
      header = true, nullstr = '\\N', columns = ${columnsArg(table, refCols)})`);
}

// compare checks one exported relation (SQL text) of table and sweep with
// the reference; csv: NULL and '' are one (CSV cannot tell them apart).
// Returns whether it matched.
async function compare(what, table, sweep, rel, cols, csv) {
  const bad = cols.filter((c) => !(c in types[table]));
  if (bad.length) { say(false, `${what}: columns ${bad} are not in SQLite's view`); return false; }
  const sel = (c) => (csv && types[table][c] === 'VARCHAR' ? `coalesce(${ident(c)}, '')` : ident(c));
  const ref = sweep === null ? `ref_${table}` : `(SELECT * FROM ref_${table} WHERE coalesce(sweep_id, 0) = ${sweep})`;
  const diff = async (list) => Number((await rows(`SELECT
      (SELECT count(*) FROM (SELECT ${list} FROM ${ref} EXCEPT ALL SELECT ${list} FROM ${rel})) +
      (SELECT count(*) FROM (SELECT ${list} FROM ${rel} EXCEPT ALL SELECT ${list} FROM ${ref}))`))[0][0]);
  const [[n]] = await rows(`SELECT count(*) FROM ${rel}`);
  const d = await diff(cols.map(sel).join(', '));
  if (d === 0) { say(true, `${what}: ${n} rows x ${cols.length} columns equal to SQLite's`); return true; }
  const culprits = [];
  for (const c of cols) { const k = await diff(sel(c)); if (k) culprits.push(`${c} (${k})`); }
  say(false, `${what}: ${d} rows differ from SQLite's; columns: ${culprits.join(', ') || 'only in combination'}`);
  return false;
}

// checkTypes compares exported column types with SQLite's.
function checkTypes(what, table, colTypes) {
  const wrong = Object.entries(colTypes).filter(([c, t]) => c in types[table] && t !== types[table][c]);
  say(wrong.length === 0, `${what}: column types ${wrong.length ? 'differ: ' + wrong.map(([c, t]) => `${c} ${t}, SQLite ${types[table][c]}`).join('; ') : 'as in SQLite'}`);
  return wrong.length === 0;
}

const sweepDirs = (fmt, table) => existsSync(join(out, fmt, table))
  ? readdirSync(join(out, fmt, table)).filter((d) => d.startsWith('sweep_id=')) : [];

async function checkParquet(table, file, sweep, label = `duckdb read_parquet ${table} sweep ${sweep}`) {
  const desc = await rows(`DESCRIBE SELECT * FROM read_parquet(${lit(file)}, hive_partitioning = false)`);
  const ok = checkTypes(label, table, Object.fromEntries(desc.map(([c, t]) => [c, duckClass(t)])));
  return (await compare(label, table, sweep, `read_parquet(${lit(file)}, hive_partitioning = false)`, desc.map((r) => r[0]), false)) && ok;
}

// csvHeader returns a CSV file's column names as DuckDB reads them.
const csvHeader = async (file) =>
  (await rows(`DESCRIBE SELECT * FROM read_csv(${lit(file)}, header = true, all_varchar = true, hive_partitioning = false)`)).map((r) => r[0]);

async function checkCSV(table, file, sweep, label = `duckdb read_csv ${table} sweep ${sweep}`) {
  const header = await csvHeader(file);
  try {
    const rel = `read_csv(${lit(file)}, header = true, hive_partitioning = false, columns = ${columnsArg(table, header)})`;
    return await compare(label, table, sweep, rel, header, true);
  } catch (e) {
    say(false, `${label}: unreadable with SQLite's types: ${e.message.split('\n')[0]}`);
    return false;
  }
}

// arrowToCSV writes an Arrow IPC file read by apache-arrow as CSV for DuckDB
// (numbers in JavaScript's shortest round-trip form) and returns its columns'
// type classes; corrupt, when given, changes one value per row.
function arrowToCSV(file, csvPath, corrupt) {
  const t = tableFromIPC(readFileSync(file));
  const cols = t.schema.fields.map((f) => f.name);
  const kinds = Object.fromEntries(t.schema.fields.map((f) => [f.name, arrowClass(String(f.type))]));
  const quote = (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? `"${v.replaceAll('"', '""')}"` : String(v));
  const lines = [cols.join(',')];
  const vecs = cols.map((c) => t.getChild(c));
  // apache-arrow gives a timestamp as milliseconds since the epoch.
  const times = cols.map((c) => kinds[c] === 'TIMESTAMPTZ');
  for (let i = 0; i < t.numRows; i++) {
    const row = vecs.map((v, k) => { const x = v.get(i); return times[k] && x !== null ? new Date(Number(x)).toISOString() : x; });
    if (corrupt) corrupt(cols, row);
    lines.push(row.map(quote).join(','));
  }
  writeFileSync(csvPath, lines.join('\n') + '\n');
  return { cols, kinds, meta: t.schema.metadata };
}

async function checkArrow(table, file, sweep, corrupt, label = `apache-arrow ${table} sweep ${sweep}`) {
  const csvPath = join(scratch, `${table}-${sweep}.csv`);
  const { cols, kinds, meta } = arrowToCSV(file, csvPath, corrupt);
  const metaOK = meta.get('presage.table') === table && (sweep === null ? !meta.has('presage.sweep_id') : meta.get('presage.sweep_id') === String(sweep)) && meta.has('presage.schema_version');
  if (!corrupt) say(metaOK, `${label}: metadata presage.table, presage.sweep_id, presage.schema_version ${metaOK ? 'present' : 'wrong'}`);
  const typesOK = checkTypes(label, table, kinds);
  // Arrow keeps NULL apart from '': compare like Parquet, not like CSV.
  const rel = `read_csv(${lit(csvPath)}, header = true, nullstr = '', columns = ${columnsArg(table, cols)})`;
  try {
    return (await compare(label, table, sweep, rel, cols, true)) && typesOK;
  } catch (e) {
    say(false, `${label}: unreadable with SQLite's types: ${e.message.split('\n')[0]}`);
    return false;
  }
}

// A static table (no sweep_id column: characteristics) is one file per
// format, not partitioned.
const staticTables = Object.keys(types).filter((t) => !('sweep_id' in types[t]));
for (const table of staticTables) {
  for (const fmt of ['parquet', 'csv', 'arrow']) {
    const file = join(out, fmt, table, `part-0.${fmt}`);
    if (!existsSync(file)) { say(false, `${fmt} ${table}: no ${file}`); continue; }
    if (fmt === 'parquet') await checkParquet(table, file, null, `duckdb read_parquet ${table}`);
    if (fmt === 'csv') await checkCSV(table, file, null, `duckdb read_csv ${table}`);
    if (fmt === 'arrow') await checkArrow(table, file, null, undefined, `apache-arrow ${table}`);
  }
}

for (const table of Object.keys(types).filter((t) => !staticTables.includes(t))) {
  const want = new Set((await rows(`SELECT DISTINCT coalesce(sweep_id, 0) FROM ref_${table}`)).map((r) => `sweep_id=${r[0]}`));
  for (const fmt of ['parquet', 'csv', 'arrow']) {
    const have = new Set(sweepDirs(fmt, table));
    const missing = [...want].filter((d) => !have.has(d)), extra = [...have].filter((d) => !want.has(d));
    say(!missing.length && !extra.length, `${fmt} ${table}: partitions ${[...have].sort().join(' ')}${missing.length ? '; missing ' + missing : ''}${extra.length ? '; not in SQLite ' + extra : ''}`);
    for (const d of [...have].sort()) {
      const sweep = Number(d.split('=')[1]);
      const file = join(out, fmt, table, d, `part-0.${fmt}`);
      if (fmt === 'parquet') await checkParquet(table, file, sweep);
      if (fmt === 'csv') await checkCSV(table, file, sweep);
      if (fmt === 'arrow') await checkArrow(table, file, sweep);
    }
  }
}

// Parquet metadata as DuckDB sees it: the schema version in every file's
// key-value metadata, zstd on every column chunk, dictionaries on strings.
{
  const glob = join(out, 'parquet', '*', '*', 'part-0.parquet');
  const one = async (q) => Number((await rows(q))[0][0]);
  const files = await one(`SELECT count(DISTINCT file_name) FROM parquet_metadata('${glob}')`);
  const withVersion = await one(`SELECT count(DISTINCT file_name) FROM parquet_kv_metadata('${glob}') WHERE decode(key) = 'presage.schema_version'`);
  const notZstd = await one(`SELECT count(*) FROM parquet_metadata('${glob}') WHERE compression <> 'ZSTD'`);
  const plainStrings = await one(`SELECT count(*) FROM parquet_metadata('${glob}') m
      JOIN parquet_schema('${glob}') s ON s.file_name = m.file_name AND s.name = m.path_in_schema
      WHERE s.type = 'BYTE_ARRAY' AND m.encodings NOT LIKE '%DICTIONARY%'`);
  say(files > 0 && withVersion === files && notZstd === 0 && plainStrings === 0,
    `duckdb parquet metadata: ${files} files, ${withVersion} with presage.schema_version, ${notZstd} column chunks not zstd, ${plainStrings} string chunks without a dictionary`);
}

// Extra-P: every interval value once; in each file, lines of equal
// parameters, call path and metric (the repetitions of a point) carry equal
// values, since a prediction is deterministic; and the points are as many
// as SQLite's distinct configurations.
for (const [sweep, want] of Object.entries(base.extrap)) {
  const glob = join(out, 'extrap', `sweep_id=${sweep}`, '*.jsonl');
  const src = `read_json(${lit(glob)}, format = 'newline_delimited', filename = true)`;
  const [[n, s]] = await rows(`SELECT count(*), coalesce(sum(value), 0)::DOUBLE FROM ${src}`);
  const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  say(Number(n) === want.rows && close(s, want.sum), `duckdb read_json extrap sweep ${sweep}: ${n} lines, sum ${s.toPrecision(10)} (sqlite: ${want.rows}, ${want.sum.toPrecision(10)})`);
  const [[points, repeated, unequal]] = await rows(`SELECT count(*), count(*) FILTER (WHERE k > 1),
      count(*) FILTER (WHERE hi - lo > 1e-12 * greatest(abs(hi), 1e-300)) FROM (
      SELECT filename, params::VARCHAR, callpath, metric, count(*) AS k, min(value) AS lo, max(value) AS hi
      FROM ${src} GROUP BY ALL)`);
  say(Number(unequal) === 0 || want.measured, `extrap sweep ${sweep}: ${points} points, ${repeated} with repetitions, ${unequal} whose repetitions differ`);
  const [[configs]] = await rows(`SELECT count(*) FROM (SELECT DISTINCT filename, params::VARCHAR FROM ${src})`);
  say(Number(configs) === want.configs, `extrap sweep ${sweep}: ${configs} parameter points, SQLite has ${want.configs} distinct configurations`);
}

// The checker checks itself: one corrupted column per format must fail.
{
  const quiet = async (f) => {
    const p = passed, q = failed;
    prefix = '    (expected) ';
    const ok = await f();
    prefix = '';
    passed = p; failed = q;
    return ok;
  };
  const pick = (fmt, table) => sweepDirs(fmt, table).sort().at(-1);
  const cases = [
    ['csv runs, tstart_us x 1e6', async () => {
      const d = pick('csv', 'runs'), f = join(scratch, 'runs.csv'), src = join(out, 'csv', 'runs', d, 'part-0.csv');
      await db.run(`COPY (SELECT * REPLACE (tstart_us * 1e6 AS tstart_us) FROM read_csv(${lit(src)}, header = true,
          columns = ${columnsArg('runs', await csvHeader(src))})) TO ${lit(f)} (HEADER)`);
      return checkCSV('runs', f, Number(d.split('=')[1]), 'corrupted csv runs');
    }],
    ['parquet values, grid garbage', async () => {
      const d = pick('parquet', 'values'), f = join(scratch, 'values.parquet');
      await db.run(`COPY (SELECT * REPLACE ('garbage' AS grid) FROM read_parquet(${lit(join(out, 'parquet', 'values', d, 'part-0.parquet'))}))
          TO ${lit(f)} (FORMAT parquet)`);
      return checkParquet('values', f, Number(d.split('=')[1]), 'corrupted parquet values');
    }],
    ['arrow runs, created_at garbage', async () => {
      const d = pick('arrow', 'runs');
      return checkArrow('runs', join(out, 'arrow', 'runs', d, 'part-0.arrow'), Number(d.split('=')[1]),
        (cols, row) => { row[cols.indexOf('created_at')] = 'garbage'; }, 'corrupted arrow runs');
    }],
  ];
  for (const [what, run] of cases) {
    const ok = await quiet(run);
    say(!ok, `the checker ${ok ? 'PASSES' : 'rejects'} a corrupted export (${what})`);
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
