package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
)

// TestNewStoreIsMigrated: a new store, made in one step from the schema
// the migrations end at, is the store that applying the migrations one
// by one with their steps in a file of the same settings makes, then
// opened as every store is: the same
// sqlite_master rows, header fields, journal mode, rows of every table
// (schema_version's but for when they were applied) and an intact
// store. The two cannot drift apart, nor a step start doing something in
// an empty store.
func TestNewStoreIsMigrated(t *testing.T) {
	dir := t.TempDir()
	oneStep := filepath.Join(dir, "one-step.db")
	st, err := Open(oneStep)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	byMigrations := filepath.Join(dir, "by-migrations.db")
	db, err := sqlx.Open("sqlite", fileURI(byMigrations)+"?_pragma=foreign_keys(1)"+newFilePragmas)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.MigrateTo(db, schema.Version, steps...); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if st, err = Open(byMigrations); err != nil {
		t.Fatal(err)
	}
	st.Close()

	want, got := storeFacts(t, byMigrations), storeFacts(t, oneStep)
	for _, f := range missing(want, got) {
		t.Errorf("the new store lacks: %s", f)
	}
	for _, f := range missing(got, want) {
		t.Errorf("the new store has, the migrated one not: %s", f)
	}
	if len(want) < 60 {
		t.Errorf("only %d facts compared", len(want))
	}
}

// storeFacts lists what a store is, as lines to compare: its schema
// objects (sorted: SQLite numbers them as they come), header pragmas,
// checks, and every table's rows.
func storeFacts(t *testing.T, path string) []string {
	t.Helper()
	db, err := sqlx.Open("sqlite", fileURI(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var facts []string
	var objects []struct {
		Type, Name, Table string
		SQL               *string
	}
	if err := db.Select(&objects, `SELECT type, name, tbl_name AS "table", sql FROM sqlite_master`); err != nil {
		t.Fatal(err)
	}
	var tables []string
	for _, o := range objects {
		sql := "NULL"
		if o.SQL != nil {
			sql = *o.SQL
		}
		facts = append(facts, fmt.Sprintf("%s %s on %s: %s", o.Type, o.Name, o.Table, sql))
		if o.Type == "table" {
			tables = append(tables, o.Name)
		}
	}
	slices.Sort(facts)
	for _, p := range []string{"application_id", "user_version", "page_size", "journal_mode", "auto_vacuum", "encoding", "integrity_check"} {
		var v string
		if err := db.Get(&v, `PRAGMA `+p); err != nil {
			t.Fatal(err)
		}
		facts = append(facts, p+" = "+v)
	}
	var broken int
	if err := db.Get(&broken, `SELECT count(*) FROM pragma_foreign_key_check`); err != nil {
		t.Fatal(err)
	}
	facts = append(facts, fmt.Sprintf("%d rows breaking foreign keys", broken))
	slices.Sort(tables)
	for _, table := range tables {
		cols := "*"
		if table == "schema_version" {
			cols = "version, name" // not applied_at, a time
		}
		rows, err := db.Queryx(`SELECT ` + cols + ` FROM ` + schema.QuoteIdent(table) + ` ORDER BY 1, 2`)
		if err != nil {
			// a table of one column
			rows, err = db.Queryx(`SELECT ` + cols + ` FROM ` + schema.QuoteIdent(table) + ` ORDER BY 1`)
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			v, err := rows.SliceScan()
			if err != nil {
				t.Fatal(err)
			}
			facts = append(facts, fmt.Sprintf("%s row %s", table, strings.TrimSpace(fmt.Sprintf("%v", v))))
			n++
		}
		rows.Close()
		facts = append(facts, fmt.Sprintf("%s: %d rows", table, n))
	}
	return facts
}

// missing returns the facts of want that got lacks, counting repeats.
func missing(want, got []string) []string {
	have := map[string]int{}
	for _, f := range got {
		have[f]++
	}
	var lack []string
	for _, f := range want {
		if have[f] == 0 {
			lack = append(lack, f)
		}
		have[f]--
	}
	return lack
}
