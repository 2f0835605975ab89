// Package schema owns the store's DDL: the numbered .sql files of this
// directory (embedded), the migrations that apply them in order and record
// them in schema_version (all in one transaction, and only on a Presage
// store: Identify), the schema they end at made in a new store in one
// step (new_store.ddl), the characteristics table, and the views
// generated from the characteristics. schema/store opens stores and holds
// every other statement, and the Go steps of the migrations that need
// one (Step).
package schema

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
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
// TestVersionIsStored checks against stored.SchemaVersion; counted by
// their names, every process starting with it (migrations() reads and
// checks the files when a store is migrated).
var Version = countMigrations()

// countMigrations returns the number of migration files.
func countMigrations() int {
	entries, err := fs.ReadDir(ddl, ".")
	if err != nil {
		panic(err)
	}
	return len(entries)
}

type migration struct {
	version int
	name    string
	sql     string
	step    string // the name of its Step, "" for none
}

// Step is the part of a migration that SQL cannot do: rows of a legacy
// form re-encoded by the Go code that owns the form (schema/store), so
// that no read path of the old form has to stay. A migration names its
// step in a line "-- step: NAME" of its file; the step runs in the
// migration's transaction, before the file's statements, which may then
// drop what only the old form used. A store is migrated once, so a step
// runs once per store; applying a migration whose step the caller did not
// supply fails, and leaves the store as it was.
type Step struct {
	Name string
	Run  func(ctx context.Context, tx *sqlx.Conn) error
}

// stepLine marks the line of a migration file that names its step.
const stepLine = "-- step: "

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
		ms = append(ms, migration{v, e.Name(), string(text), stepOf(string(text))})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			panic(fmt.Sprintf("schema: migration %s out of sequence", m.name))
		}
	}
	return ms
}

// stepOf returns the step a migration's text names, "" for none.
func stepOf(text string) string {
	for line := range strings.Lines(text) {
		if name, ok := strings.CutPrefix(line, stepLine); ok {
			return strings.TrimSpace(name)
		}
	}
	return ""
}

// CurrentVersion reports the schema version recorded in db (0 if none).
// db is a database or a transaction: an export reads it in its snapshot.
func CurrentVersion(db sqlx.Queryer) (int, error) {
	var n int
	err := sqlx.Get(db, &n, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_version'`)
	if err != nil || n == 0 {
		return 0, err
	}
	var v int
	err = sqlx.Get(db, &v, `SELECT coalesce(max(version), 0) FROM schema_version`)
	return v, err
}

// ApplicationID is the number SQLite keeps in the header of every
// Presage store (PRAGMA application_id, "Prsg"), so that a store is
// recognised as one before anything is written to it. Stores made before
// it was set carry it from the first time a writing command opens them.
const ApplicationID = 0x50727367

// ErrNotStore is wrapped by the errors about a database that is not a
// Presage store: it is neither migrated nor written.
var ErrNotStore = errors.New("not a Presage store")

// firstMigration is the name every Presage store records as version 1,
// which tells its schema_version from another program's table of that name.
const firstMigration = "0001_init.sql"

// Identify reports whether db holds no table at all (empty: a new
// database), and refuses with an error wrapping ErrNotStore a database
// that is not a Presage store: another program's application_id, or
// tables without Presage's schema_version. It only reads.
func Identify(ctx context.Context, db sqlx.QueryerContext) (empty bool, err error) {
	var app int64
	if err := sqlx.GetContext(ctx, db, &app, `PRAGMA application_id`); err != nil {
		return false, err
	}
	if app == ApplicationID {
		return false, nil
	}
	if app != 0 {
		return false, fmt.Errorf("a SQLite database of another program (application_id 0x%08x): %w", uint32(app), ErrNotStore)
	}
	var tables []string
	if err := sqlx.SelectContext(ctx, db, &tables, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`); err != nil {
		return false, err
	}
	if len(tables) == 0 {
		return true, nil
	}
	if slices.Contains(tables, "schema_version") {
		var first []string
		if err := sqlx.SelectContext(ctx, db, &first, `SELECT name FROM schema_version WHERE version = 1`); err == nil && len(first) == 1 && first[0] == firstMigration {
			return false, nil
		}
	}
	return false, fmt.Errorf("a SQLite database with the tables %s and no Presage schema_version: %w", listSome(tables, 5), ErrNotStore)
}

// listSome joins the first most names, saying how many more there are.
func listSome(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}

// Migrate brings db to this build's schema in one transaction: the
// migrations db lacks (with their steps, which the caller supplies), the
// application id, the characteristics dimension table and the views
// generated from the characteristics. A database that is not a Presage
// store (Identify) is refused untouched, and one whose migration fails is
// left as it was: never half-migrated. An empty database gets the schema
// the migrations end at in one step (createSchema).
func Migrate(db *sqlx.DB, steps ...Step) error { return migrate(db, Version, true, steps) }

// MigrateTo applies the numbered migrations db lacks up to version to, in
// one transaction, and nothing else: the tests of later migrations make
// the stores of older builds with it.
func MigrateTo(db *sqlx.DB, to int, steps ...Step) error { return migrate(db, to, false, steps) }

// migrateTo is MigrateTo without steps.
func migrateTo(db *sqlx.DB, to int) error { return MigrateTo(db, to) }

// migrate applies the migrations db lacks up to version to, then, when
// refresh, the application id, the characteristics and the generated
// views, all in one transaction on one connection. An empty database
// brought to this build's schema gets it in one step instead
// (createSchema); MigrateTo always migrates one by one.
//
// The transaction begins IMMEDIATE, taking the write lock before it reads
// the version, so processes opening a store at once apply every migration
// once: the others wait, then find it applied. Foreign keys are off on
// that connection while migrating, as SQLite requires for the table
// rebuilds a migration may do, and checked after each migration.
func migrate(db *sqlx.DB, to int, refresh bool, steps []Step) (err error) {
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
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	defer func() {
		end := `COMMIT`
		if err != nil {
			end = `ROLLBACK`
		}
		if _, cerr := conn.ExecContext(ctx, end); err == nil {
			err = cerr
		}
	}()
	empty, err := Identify(ctx, conn)
	if err != nil {
		return err
	}
	if empty && refresh && to == Version {
		err = createSchema(ctx, conn)
	} else {
		err = applyMigrations(ctx, conn, to, steps)
	}
	if err != nil {
		return err
	}
	if !refresh {
		return nil
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID)); err != nil {
		return err
	}
	if err := seedCharacteristics(ctx, conn); err != nil {
		return err
	}
	return syncViews(ctx, conn)
}

// applyMigrations applies, inside the caller's transaction, the numbered
// migrations the store lacks up to version to, each after its step.
func applyMigrations(ctx context.Context, conn *sqlx.Conn, to int, steps []Step) error {
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`); err != nil {
		return err
	}
	var have int
	if err := conn.GetContext(ctx, &have, `SELECT coalesce(max(version), 0) FROM schema_version`); err != nil {
		return err
	}
	if have > Version {
		return fmt.Errorf("schema version %d is newer than this build's %d", have, Version)
	}
	for _, m := range migrations()[min(have, to):to] {
		if err := runStep(ctx, conn, m, steps); err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		var broken int
		if err := conn.GetContext(ctx, &broken, `SELECT count(*) FROM pragma_foreign_key_check`); err != nil {
			return err
		}
		if broken > 0 {
			return fmt.Errorf("migration %s: %d rows break foreign keys", m.name, broken)
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO schema_version(version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
			return err
		}
	}
	return nil
}

// runStep runs the step of migration m, if it has one, from steps.
func runStep(ctx context.Context, conn *sqlx.Conn, m migration, steps []Step) error {
	if m.step == "" {
		return nil
	}
	i := slices.IndexFunc(steps, func(s Step) bool { return s.Name == m.step })
	if i < 0 {
		return fmt.Errorf("migration %s: its step %q was not supplied (schema/store.Open supplies every step)", m.name, m.step)
	}
	if err := steps[i].Run(ctx, conn); err != nil {
		return fmt.Errorf("migration %s, step %s: %w", m.name, m.step, err)
	}
	return nil
}

// seedCharacteristics writes the characteristics of this build into
// their table, inside the migration's transaction, in one statement
// (every writing command runs it: one statement prepared, not one per
// characteristic).
func seedCharacteristics(ctx context.Context, conn *sqlx.Conn) error {
	rows := make([]string, len(result.Chars))
	args := make([]any, 0, 6*len(result.Chars))
	for id, c := range result.Chars {
		var op any
		if c.OpClass != "" {
			op = c.OpClass
		}
		rows[id] = "(?, ?, ?, ?, ?, ?)"
		args = append(args, id, c.Name, c.Unit, string(c.Family), op, c.Description)
	}
	_, err := conn.ExecContext(ctx, `INSERT INTO characteristics(id, name, unit, family, op_class, description)
		VALUES `+strings.Join(rows, ", ")+`
		ON CONFLICT(id) DO UPDATE SET name=excluded.name, unit=excluded.unit, family=excluded.family,
			op_class=excluded.op_class, description=excluded.description`, args...)
	return err
}
