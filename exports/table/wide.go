package table

import (
	"fmt"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

// charColumns are the characteristic columns of the wide table, one per
// result.Char in Char order; NULL where a value is not stored.
func charColumns() []Column {
	cols := make([]Column, result.NumChars)
	for i, c := range result.Chars {
		cols[i] = nullable(c.Name, Float64)
	}
	return cols
}

// Markers delimit the generated view in the schema's views migration.
const (
	WideBegin = "-- BEGIN GENERATED v_intervals_wide"
	WideEnd   = "-- END GENERATED v_intervals_wide"
)

// WideViewSQL generates the CREATE VIEW statement of v_intervals_wide from
// result.Chars: the pivot of interval_values by char_id, so that adding a
// characteristic cannot leave the view behind (a test compares it with the
// migration).
func WideViewSQL() string {
	var b strings.Builder
	b.WriteString("CREATE VIEW v_intervals_wide AS\n")
	b.WriteString("SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,\n")
	b.WriteString("       r.network, r.tstart, r.tbyte, r.power,\n")
	b.WriteString("       i.interval_id, i.parent, i.path, i.type, i.level, i.file, i.line, i.count")
	for id, c := range result.Chars {
		fmt.Fprintf(&b, ",\n       max(CASE v.char_id WHEN %d THEN v.value END) AS %s", id, quoteIdent(c.Name))
	}
	b.WriteString("\nFROM v_intervals i\n")
	b.WriteString("JOIN v_runs r ON r.run_id = i.run_id\n")
	b.WriteString("JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.interval_id\n")
	b.WriteString("GROUP BY r.sweep_id, r.run_id, i.interval_id;\n")
	return b.String()
}
