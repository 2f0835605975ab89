package schema

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"
)

// TestFailedMigrationLeavesStoreAsItWas: the migrations a store lacks
// are applied in one transaction, so when the last of them fails the
// ones before it are undone too: the store keeps its version, never half
// migrated.
func TestFailedMigrationLeavesStoreAsItWas(t *testing.T) {
	db := storeOfVersion(t, 21)
	// Migration 23 adds this column: it now fails.
	db.MustExec(`ALTER TABLE traces ADD COLUMN refused TEXT`)
	if err := Migrate(db, testSteps...); err == nil {
		t.Fatal("a migration that fails was reported applied")
	}
	if v, err := CurrentVersion(db); err != nil || v != 21 {
		t.Errorf("after the failed migration: version %d (%v), want 21 as before", v, err)
	}
	var cols int
	if err := db.Get(&cols, `SELECT count(*) FROM pragma_table_info('calibration_blocks') WHERE name = 'cpu_spread'`); err != nil || cols != 0 {
		t.Errorf("the migration before the failed one stayed applied: %d columns calibration_blocks.cpu_spread (%v)", cols, err)
	}
}

// TestMigrateRefusesForeignDatabase: Migrate leaves another program's
// database as it is, with an error wrapping ErrNotStore.
func TestMigrateRefusesForeignDatabase(t *testing.T) {
	db, err := sqlx.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "foreign.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec(`CREATE TABLE accounts(id INTEGER PRIMARY KEY)`)
	if err := Migrate(db, testSteps...); !errors.Is(err, ErrNotStore) {
		t.Fatalf("Migrate of a foreign database: %v, want ErrNotStore", err)
	}
	var tables int
	if err := db.Get(&tables, `SELECT count(*) FROM sqlite_master`); err != nil || tables != 1 {
		t.Errorf("the foreign database has %d objects after Migrate (%v), want its one table", tables, err)
	}
}
