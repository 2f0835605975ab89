package schema

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// newStoreDDL is the schema the migrations end at, as one script: every
// table, index and view of a store migrated from empty, in the order
// they stand in its sqlite_master. It is generated from the migrations
// (`go test ./schema -run TestNewStoreDDL -update`), and
// TestNewStoreDDL fails when they no longer make it.
//
//go:embed new_store.ddl
var newStoreDDL string

// createSchema makes, inside the caller's transaction, the schema of
// this build in an empty database at once: the script the migrations end
// at and the rows of schema_version they would have written. Applying the
// 24 migrations one by one made a new store cost about 60 ms of CPU
// instead of 15 (schema/store's BenchmarkOpenNew), most of it SQLite
// reading the whole schema again after each of their table rebuilds. A
// migration's step has nothing to re-encode in an empty store, so none
// runs: schema/store's TestNewStoreIsMigrated holds a store made this way
// to one migrated step by step with the steps.
func createSchema(ctx context.Context, conn *sqlx.Conn) error {
	if _, err := conn.ExecContext(ctx, newStoreDDL); err != nil {
		return fmt.Errorf("new store: %w", err)
	}
	ms := migrations()
	rows := make([]string, len(ms))
	args := make([]any, 0, 2*len(ms))
	for i, m := range ms {
		rows[i] = "(?, ?)"
		args = append(args, m.version, m.name)
	}
	_, err := conn.ExecContext(ctx, `INSERT INTO schema_version(version, name) VALUES `+strings.Join(rows, ", "), args...)
	return err
}

// schemaScript returns the schema db holds as the script newStoreDDL
// is: the statement of every table, index and view SQLite keeps, in the
// order of its sqlite_master, each ended by ";" and a blank line. The
// objects SQLite makes itself (sqlite_sequence, the indexes of UNIQUE
// and PRIMARY KEY constraints) are left to it.
func schemaScript(ctx context.Context, db sqlx.QueryerContext) (string, error) {
	var stmts []string
	if err := sqlx.SelectContext(ctx, db, &stmts, `SELECT sql FROM sqlite_master
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(scriptHeader)
	for _, s := range stmts {
		b.WriteString(s)
		b.WriteString(";\n\n")
	}
	return b.String(), nil
}

// scriptHeader begins new_store.ddl.
const scriptHeader = `-- The schema the migrations NNNN_*.sql end at, made in a new store in one
-- step (newstore.go). Generated: go test ./schema -run TestNewStoreDDL -update

`
