package schema

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
)

// testSteps stand for the steps schema/store supplies, for the tests of
// this package, whose stores hold no row of a legacy form: the step of
// migration 24 refuses an order trace left in the JSON-line form; the
// step of migration 25 leaves the packs as they are (no test here reads
// one back).
var testSteps = []Step{{Name: "pack-order-traces", Run: func(ctx context.Context, conn *sqlx.Conn) error {
	var legacy int
	if err := conn.GetContext(ctx, &legacy, `SELECT count(*) FROM order_traces WHERE packing = 0`); err != nil {
		return err
	}
	if legacy > 0 {
		return fmt.Errorf("%d order traces of JSON lines, which this test's step does not pack", legacy)
	}
	return nil
}}, compressNothing}

// compressNothing stands for migration 25's step.
var compressNothing = Step{Name: "compress-trace-packs", Run: func(context.Context, *sqlx.Conn) error { return nil }}

// TestMigrationNamesItsStep: migration 24 names the step that packs the
// order traces, migration 25 the one that compresses the trace packs, and
// a store is not migrated past it without the step:
// it keeps its version, and the step's error is the migration's.
func TestMigrationNamesItsStep(t *testing.T) {
	var named []string
	for _, m := range migrations() {
		if m.step != "" {
			named = append(named, fmt.Sprintf("%d %s", m.version, m.step))
		}
	}
	if want := "[24 pack-order-traces 25 compress-trace-packs]"; fmt.Sprint(named) != want {
		t.Fatalf("migrations with a step: %v, want %s", named, want)
	}
	db := storeOfVersion(t, 23)
	if err := Migrate(db); err == nil || !strings.Contains(err.Error(), `step "pack-order-traces" was not supplied`) {
		t.Errorf("migrated without the step: %v, want the step's absence reported", err)
	}
	failing := Step{Name: "pack-order-traces", Run: func(context.Context, *sqlx.Conn) error { return fmt.Errorf("cannot pack") }}
	if err := Migrate(db, failing); err == nil || !strings.Contains(err.Error(), "cannot pack") {
		t.Errorf("migrated with a failing step: %v, want its error", err)
	}
	if v, err := CurrentVersion(db); err != nil || v != 23 {
		t.Errorf("after the step failed: version %d (%v), want 23", v, err)
	}
	ran := 0
	counting := Step{Name: "pack-order-traces", Run: func(context.Context, *sqlx.Conn) error { ran++; return nil }}
	for range 2 {
		if err := Migrate(db, counting, compressNothing); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := CurrentVersion(db); v != Version || ran != 1 {
		t.Errorf("migrated twice: version %d, the step ran %d times; want %d, once", v, ran, Version)
	}
	var packing int
	if err := db.Get(&packing, `SELECT count(*) FROM pragma_table_info('order_traces') WHERE name = 'packing'`); err != nil || packing != 0 {
		t.Errorf("order_traces.packing: %d columns (%v), want it dropped", packing, err)
	}
}
