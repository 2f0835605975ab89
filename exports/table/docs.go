package table

import (
	"fmt"
	"io"
	"strings"
)

// WriteDocs writes docs/exports.md: every exported table with its
// columns, types, units and descriptions, from the definitions the
// exporters use, so that the documentation cannot drift from the files
// (TestDocsUpToDate compares them).
func WriteDocs(w io.Writer) error {
	var b strings.Builder
	b.WriteString(`# Exported tables

<!-- Generated from exports/table by TestDocsUpToDate (go test ./exports/table -run TestDocsUpToDate -update); do not edit. -->

` + "`presage export parquet|arrow|csv --out DIR`" + ` writes every table below into DIR, one file per
table and sweep at ` + "`DIR/<table>/sweep_id=<n>/part-0.<ext>`" + ` (Hive partitioning; sweep 0 holds the
runs outside any sweep), and the static tables once at ` + "`DIR/<table>/part-0.<ext>`" + `. The
folder gets a manifest, ` + "`presage-export.json`" + `, and replaces an earlier export only once
complete. In Parquet and Arrow files every column's unit and description are in its field
metadata (keys ` + "`unit`" + ` and ` + "`description`" + `), the store's schema version, the table and the sweep
in the file's (` + "`" + MetaSchemaVersion + "`" + `, ` + "`" + MetaTable + "`" + `, ` + "`" + MetaSweepID + "`" + `).
` + "`--sweep N`, `--trace NAME` and `--run N`" + ` narrow the export to one sweep, the runs of one trace, or
one run. The values table keeps a processor's value of a characteristic only when it is not
zero (the execution time always), so a pivot gives NaN for those zeros: ` + "`--dense`" + ` writes
every characteristic of every processor of each interval with per-processor values, 0 where
none is stored. CSV files have a header row; NULL is an empty field. Arrow files are uncompressed unless
` + "`presage export arrow --zstd`" + ` (Apache Arrow JS cannot read compressed IPC files).

Extra-P files (` + "`presage export extrap`" + `) are JSON Lines, one file per sweep, program and
combination of the non-numeric attributes that vary among its runs (kind, machine, network,
options, grid rank, which machine-file values are overridden), named by the attributes that
vary, e.g. ` + "`sweep_id=1/jacobi.network=bus.rank=2.jsonl`" + `. Their parameters are exactly the
numeric attributes that vary within the file: ` + "`procs`, `grid_d2`…`grid_d4`, `tstart_us` and `tbyte_us`" + `
(in µs) and ` + "`power`" + `; a parameter equal to an earlier one on every run is left out, so that
every point's repetitions are true repetitions.

`)
	for _, t := range Exported() {
		fmt.Fprintf(&b, "## %s\n\n", t.Name)
		if t.Static {
			b.WriteString("One file, not partitioned by sweep.\n\n")
		}
		b.WriteString("| column | type | unit | NULL | description |\n|---|---|---|---|---|\n")
		for _, c := range t.Columns {
			null := ""
			if c.Nullable {
				null = "yes"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.Name, c.Kind, c.Unit, null, strings.ReplaceAll(c.Doc, "|", `\|`))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}
