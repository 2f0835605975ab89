// Package query runs ad hoc or named (queries) SQL over a store strictly
// read-only and writes the result as an aligned text table, CSV or JSON.
// Read-only is enforced twice: the statement must be one SELECT (or WITH
// ... SELECT) with no writing keyword, and it runs on a connection with
// PRAGMA query_only on, so that even a statement the check lets through
// cannot change the store. Open stores with Open (schema.OpenReadOnly).
package query

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/queries"
	"github.com/presage-dvm/presage/schema"
)

// Formats are the output formats.
var Formats = []string{"table", "csv", "json"}

// Open opens a store read-only.
func Open(path string) (*sqlx.DB, error) { return schema.OpenReadOnly(path) }

// Run executes one read-only statement with named arguments (:name in the
// SQL, args keyed by name without the colon) and writes its result to w in
// format (table, csv or json).
func Run(ctx context.Context, db *sqlx.DB, sqlText string, args map[string]any, format string, w io.Writer) error {
	if err := CheckReadOnly(sqlText); err != nil {
		return err
	}
	named := make([]any, 0, len(args))
	for k, v := range args {
		named = append(named, sql.Named(k, v))
	}
	return run(ctx, db, sqlText, named, format, w)
}

// Named runs the named query name (package queries) with its parameters
// (defaults filled in, strings converted) and writes its result.
func Named(ctx context.Context, db *sqlx.DB, name string, args map[string]any, format string, w io.Writer) error {
	q, err := queries.Get(name)
	if err != nil {
		return err
	}
	if err := CheckReadOnly(q.SQL); err != nil {
		return fmt.Errorf("query %s: %w", name, err)
	}
	bound, err := q.Args(args)
	if err != nil {
		return err
	}
	return run(ctx, db, q.SQL, bound, format, w)
}

// run executes the statement on a connection of its own with query_only
// on, and writes the result.
func run(ctx context.Context, db *sqlx.DB, sqlText string, args []any, format string, w io.Writer) (err error) {
	out, err := newWriter(format, w)
	if err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var was int
	if err := conn.QueryRowContext(ctx, `PRAGMA query_only`).Scan(&was); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA query_only = 1`); err != nil {
		return err
	}
	if was == 0 {
		// The connection goes back to the pool: restore it for writers.
		defer func() {
			if _, rerr := conn.ExecContext(context.Background(), `PRAGMA query_only = 0`); rerr != nil && err == nil {
				err = rerr
			}
		}()
	}
	rows, err := conn.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := each(rows, out.header, out.row); err != nil {
		return err
	}
	return out.close()
}

// each calls header with the column names of rows, then row with the
// values of each row as the driver gives them (int64, float64, string,
// []byte, nil, ...), in a slice that is reused from row to row.
func each(rows *sql.Rows, header func(cols []string) error, row func(vals []any) error) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := header(cols); err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}
