package schema

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"
)

var update = flag.Bool("update", false, "rewrite new_store.ddl from the migrations")

// TestNewStoreDDL: new_store.ddl is the schema that the migrations,
// applied one by one to an empty database, end at; -update rewrites it.
func TestNewStoreDDL(t *testing.T) {
	db := migratedStepByStep(t)
	got, err := schemaScript(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("new_store.ddl", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != newStoreDDL {
		t.Fatal("new_store.ddl is not the schema the migrations end at: go test ./schema -run TestNewStoreDDL -update")
	}
}

// migratedStepByStep returns a store migrated from empty one migration
// at a time, as stores of older builds were, closed at the end of the
// test.
func migratedStepByStep(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := sqlx.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "steps.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := MigrateTo(db, Version, testSteps...); err != nil {
		t.Fatal(err)
	}
	return db
}
