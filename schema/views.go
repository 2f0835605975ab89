package schema

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/presage-dvm/presage/schema/stored"
)

// WideViewSQL is the CREATE VIEW statement of v_intervals_wide: the pivot of
// interval_values by characteristic, one column per WideCharColumns entry.
// Each value is read by its key (run, interval, characteristic) rather
// than by grouping every value: a filter on the runs or the intervals
// (level = 0, run_id = 7) then applies first, and only the rows it keeps
// are pivoted. An interval without any value has no row, as before.
func WideViewSQL() string {
	var b strings.Builder
	b.WriteString("CREATE VIEW v_intervals_wide AS\n")
	b.WriteString("SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,\n")
	b.WriteString("       r.network, r.tstart_us, r.tbyte_us, r.power,\n")
	b.WriteString("       i.id AS interval_id, i.parent, i.path, i.type, i.level, i.file, i.line, i.count")
	for _, c := range stored.WideCharColumns() {
		fmt.Fprintf(&b, ",\n       (SELECT v.value FROM interval_values v WHERE v.run_id = i.run_id AND v.interval_id = i.id AND v.char_id = %d) AS %s",
			c.Char, QuoteIdent(c.Name))
	}
	b.WriteString("\nFROM intervals i\n")
	b.WriteString("JOIN v_runs r ON r.run_id = i.run_id\n")
	b.WriteString("WHERE EXISTS (SELECT 1 FROM interval_values v WHERE v.run_id = i.run_id AND v.interval_id = i.id)")
	return b.String()
}

// QuoteIdent quotes an SQL identifier.
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// generatedViews are the views derived from Go lists (the characteristics):
// the migrations create them once, and syncViews recreates them whenever
// the list has changed since, so that every store, of any version, has
// them as this build generates them.
var generatedViews = []struct {
	name string
	sql  func() string
}{
	{"v_intervals_wide", WideViewSQL},
}

// syncViews recreates, in the migration's transaction, each generated
// view whose stored definition differs from the one this build generates.
func syncViews(ctx context.Context, conn *sqlx.Conn) error {
	for _, v := range generatedViews {
		var stored string
		err := conn.GetContext(ctx, &stored, `SELECT coalesce(max(sql), '') FROM sqlite_master WHERE type = 'view' AND name = ?`, v.name)
		if err != nil {
			return err
		}
		want := v.sql()
		if normalizeSQL(stored) == normalizeSQL(want) {
			continue
		}
		if _, err := conn.ExecContext(ctx, `DROP VIEW IF EXISTS `+QuoteIdent(v.name)); err != nil {
			return fmt.Errorf("recreate view %s: %w", v.name, err)
		}
		if _, err := conn.ExecContext(ctx, want); err != nil {
			return fmt.Errorf("recreate view %s: %w", v.name, err)
		}
	}
	return nil
}

// normalizeSQL folds white space and drops a final ';' so that a view's
// text as SQLite keeps it compares equal to the generated text.
func normalizeSQL(s string) string {
	return strings.TrimSuffix(strings.Join(strings.Fields(s), " "), ";")
}
