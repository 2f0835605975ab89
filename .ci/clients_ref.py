"""Dumps the store's exported views as the reference of .ci/clients.mjs.

Usage: clients_ref.py STORE OUTDIR

For each exported table (values, intervals_wide, runs, intervals,
characteristics) writes
OUTDIR/TABLE.csv, every row and column of its view as SQLite's own C
library returns them (integers as integers, reals in Python's repr, which
round-trips exactly, text quoted, NULL as \\N), and OUTDIR/types.json: per
table and column the type its values have in SQLite (BIGINT, DOUBLE or
VARCHAR; for a column of NULLs, its declared type), which the exports'
types must match.
"""
import csv
import json
import sqlite3
import sys

VIEWS = {"values": "v_values_long", "intervals_wide": "v_intervals_wide",
         "runs": "v_runs", "intervals": "v_intervals",
         "characteristics": "temp.ref_characteristics"}

# Columns the exports write as timestamps (UTC).
TIMES = ("created_at",)

# The characteristics table as the export names its columns; it has no
# sweep_id, its files no sweep partition.
CHARACTERISTICS = """CREATE TEMP VIEW ref_characteristics AS
    SELECT name AS characteristic, unit, family, op_class, description FROM characteristics ORDER BY id"""


def sql_type(kinds, declared):
    """The type of a column's values; of its declaration when all are NULL."""
    if str in kinds or bytes in kinds:
        return "VARCHAR"
    if float in kinds:
        return "DOUBLE"
    if int in kinds:
        return "BIGINT"
    declared = declared.upper()
    if "INT" in declared:
        return "BIGINT"
    if any(t in declared for t in ("REAL", "FLOA", "DOUB")):
        return "DOUBLE"
    return "VARCHAR"


def cell(v):
    if v is None:
        return "\\N"
    if isinstance(v, float):
        return repr(v)
    return v


def main(store, out):
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    con.execute(CHARACTERISTICS)
    types = {}
    for table, view in VIEWS.items():
        cur = con.execute(f"SELECT * FROM {view}")
        cols = [d[0] for d in cur.description]
        kinds = [set() for _ in cols]
        with open(f"{out}/{table}.csv", "w", newline="") as f:
            w = csv.writer(f, quoting=csv.QUOTE_MINIMAL)
            w.writerow(cols)
            for row in cur:
                for i, v in enumerate(row):
                    kinds[i].add(type(v))
                w.writerow([cell(v) for v in row])
        schema, _, name = view.rpartition(".")
        pragma = f"PRAGMA {schema}.table_info({name})" if schema else f"PRAGMA table_info({name})"
        declared = {r[1]: r[2] for r in con.execute(pragma)}
        types[table] = {c: sql_type(k, declared.get(c, "")) for c, k in zip(cols, kinds)}
        # SQLite keeps times as RFC 3339 text; the exports as timestamps.
        for c in TIMES:
            if c in types[table]:
                types[table][c] = "TIMESTAMPTZ"
    json.dump(types, open(f"{out}/types.json", "w"), indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
