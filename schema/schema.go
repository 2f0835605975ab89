// Package schema owns the SQLite store: its DDL (the numbered .sql files of
// this directory, embedded), the migrations that apply them in order and
// record them in schema_version, and opening a store ready for use.
package schema

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/presage-dvm/presage/sim/result"
)

//go:embed *.sql
var ddl embed.FS

// Version is the schema version this build writes; stores of a newer
// version are refused.
var Version = len(migrations())

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded NNNN_name.sql files in version order.
func migrations() []migration {
	entries, err := fs.ReadDir(ddl, ".")
	if err != nil {
		panic(err)
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic("schema: migration file without a version number: " + e.Name())
		}
		text, err := fs.ReadFile(ddl, e.Name())
		if err != nil {
			panic(err)
		}
		ms = append(ms, migration{v, e.Name(), string(text)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			panic(fmt.Sprintf("schema: migration %s out of sequence", m.name))
		}
	}
	return ms
}

// Open opens (creating if needed) the store at path and brings its schema
// up to date. Foreign keys are enforced; writers wait for each other.
func Open(path string) (*sqlx.DB, error) {
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := Migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return db, nil
}

// OpenReadOnly opens an existing store for queries that must not change it.
func OpenReadOnly(path string) (*sqlx.DB, error) {
	dsn := "file:" + path + "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(10000)"
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return db, nil
}

// CurrentVersion reports the schema version recorded in db (0 if none).
func CurrentVersion(db *sqlx.DB) (int, error) {
	var n int
	err := db.Get(&n, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_version'`)
	if err != nil || n == 0 {
		return 0, err
	}
	var v int
	err = db.Get(&v, `SELECT coalesce(max(version), 0) FROM schema_version`)
	return v, err
}

// Migrate applies the migrations db lacks, each in its own transaction, and
// refreshes the characteristics dimension table.
func Migrate(db *sqlx.DB) error {
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`); err != nil {
		return err
	}
	have, err := CurrentVersion(db)
	if err != nil {
		return err
	}
	if have > Version {
		return fmt.Errorf("schema version %d is newer than this build's %d", have, Version)
	}
	for _, m := range migrations()[have:] {
		tx, err := db.Beginx()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(m.sql); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.Exec(`INSERT INTO schema_version(version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return seedCharacteristics(db)
}

func seedCharacteristics(db *sqlx.DB) error {
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for id, c := range result.Chars {
		var op any
		if c.OpClass != "" {
			op = c.OpClass
		}
		if _, err := tx.Exec(`INSERT INTO characteristics(id, name, unit, family, op_class, description)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT(id) DO UPDATE SET name=excluded.name, unit=excluded.unit, family=excluded.family,
				op_class=excluded.op_class, description=excluded.description`,
			id, c.Name, c.Unit, string(c.Family), op, c.Description); err != nil {
			return err
		}
	}
	return tx.Commit()
}
