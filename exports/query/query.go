// Package query writes the results of ad hoc or named (package queries)
// SQL queries as an aligned text table, CSV or JSON. The store runs them,
// strictly read-only (store.Query).
package query

import (
	"context"
	"io"
)

// Formats are the output formats.
var Formats = []string{"table", "csv", "json"}

// Source runs read-only statements: *store.Store is one.
type Source interface {
	Query(ctx context.Context, query string, params map[string]any,
		header func(cols []string) error, row func(vals []any) error) error
}

// Rows produces a result: header once with the column names, then row
// for each row (the store's Query and List, bound to their arguments).
type Rows func(header func(cols []string) error, row func(vals []any) error) error

// Run executes one read-only statement with named arguments (:name in the
// SQL, args keyed by name without the colon) and writes its result to w in
// opt's format.
func Run(ctx context.Context, src Source, sqlText string, args map[string]any, opt Options, w io.Writer) error {
	return Write(w, opt, func(header func([]string) error, row func([]any) error) error {
		return src.Query(ctx, sqlText, args, header, row)
	})
}

// Options say how a result is written.
type Options struct {
	Format string // table (the default), csv or json
	// Digits rounds the numbers of the table format to that many
	// significant digits, for people; 0 writes them exactly. CSV and JSON,
	// for programs, are always exact.
	Digits int
}

// Write writes the result rows produce to w as opt says.
func Write(w io.Writer, opt Options, rows Rows) error {
	out, err := newWriter(opt, w)
	if err != nil {
		return err
	}
	if err := rows(out.header, out.row); err != nil {
		return err
	}
	return out.close()
}
