// Package schema owns the store's DDL: the numbered .sql files of this
// directory (embedded), the migrations that apply them in order and record
// them in schema_version, the characteristics table, and the views
// generated from the characteristics. schema/store opens stores and holds
// every other statement.
package schema

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/result"
)

//go:embed *.sql
var ddl embed.FS

// Version is the schema version this build writes; stores of a newer
// version are refused. It is the number of migrations, which
// TestVersionIsStored checks against stored.SchemaVersion.
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

// Migrate applies the migrations db lacks, each in its own transaction,
// refreshes the characteristics dimension table and recreates the views
// generated from the characteristics when the list has changed.
func Migrate(db *sqlx.DB) error {
	if err := migrateTo(db, Version); err != nil {
		return err
	}
	if err := seedCharacteristics(db); err != nil {
		return err
	}
	return syncViews(db)
}

// migrateTo applies the numbered migrations db lacks up to version to,
// one transaction each, on one connection.
//
// Each transaction begins IMMEDIATE, taking the write lock before it reads
// the version, so processes opening a new store at once apply every
// migration once: the others wait, then find it applied. Foreign keys are
// off on that connection while migrating, as SQLite requires for the
// table rebuilds a migration may do, and checked before each commit.
func migrateTo(db *sqlx.DB, to int) error {
	ctx := context.Background()
	conn, err := db.Connx(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, `PRAGMA foreign_keys = ON`)
	for {
		more, err := migrateNext(ctx, conn, to)
		if err != nil || !more {
			return err
		}
	}
}

// migrateNext applies the next migration below version to, if any, and
// reports whether it applied one.
func migrateNext(ctx context.Context, conn *sqlx.Conn, to int) (applied bool, err error) {
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return false, err
	}
	defer func() {
		end := `COMMIT`
		if err != nil || !applied {
			end = `ROLLBACK`
		}
		if _, cerr := conn.ExecContext(ctx, end); err == nil {
			err = cerr
		}
	}()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`); err != nil {
		return false, err
	}
	var have int
	if err := conn.GetContext(ctx, &have, `SELECT coalesce(max(version), 0) FROM schema_version`); err != nil {
		return false, err
	}
	if have > Version {
		return false, fmt.Errorf("schema version %d is newer than this build's %d", have, Version)
	}
	if have >= to {
		return false, nil
	}
	m := migrations()[have]
	if _, err := conn.ExecContext(ctx, m.sql); err != nil {
		return false, fmt.Errorf("migration %s: %w", m.name, err)
	}
	var broken int
	if err := conn.GetContext(ctx, &broken, `SELECT count(*) FROM pragma_foreign_key_check`); err != nil {
		return false, err
	}
	if broken > 0 {
		return false, fmt.Errorf("migration %s: %d rows break foreign keys", m.name, broken)
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO schema_version(version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
		return false, err
	}
	return true, nil
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
