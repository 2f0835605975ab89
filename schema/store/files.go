package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Ingested files (traces, machine files, statistics files) are known by
// the sha256 of their bytes and stored once per content: the sha256
// column of their table is unique. An ingester looks a file's sum up
// before parsing it, and a concurrent ingest of the same bytes that
// commits first makes the later one's insert fail with a duplicate, which
// then returns the winner's row.

// getOptional reads the row query selects into a T (a struct with db tags)
// and reports whether there was one: no row is not an error.
func getOptional[T any](ctx context.Context, q sqlx.QueryerContext, query string, args ...any) (T, bool, error) {
	var row, zero T
	err := sqlx.GetContext(ctx, q, &row, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, false, nil
	}
	if err != nil {
		return zero, false, err
	}
	return row, true, nil
}

// isDuplicate reports whether err is the store refusing a second row of
// table with the same sha256: a concurrent ingest of the same bytes won.
func isDuplicate(err error, table string) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed: "+table+".sha256")
}

// saveFile runs insert in one transaction. When insert fails because the
// store holds the same bytes already (table's sha256 is unique), the
// stored row that lookup finds is returned instead: a concurrent ingest of
// the same file won, or the caller did not look before.
func saveFile[T any](ctx context.Context, s *Store, table string, insert func(tx *sqlx.Tx) (T, error), lookup func() (T, bool, error)) (T, error) {
	var saved T
	err := s.update(ctx, func(tx *sqlx.Tx) error {
		var err error
		saved, err = insert(tx)
		return err
	})
	if isDuplicate(err, table) {
		stored, _, err := lookup()
		return stored, err
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return saved, nil
}

// getByNameOrID reads into dest the row of table named ref (the latest
// stored of that name) or, when no row has that name and ref is a number,
// the row with that id; found is false when there is neither. Every
// stored input (trace, machine, order trace, calibration) is named this
// way on the command line.
func (s *Store) getByNameOrID(dest any, table, columns, ref string) (found bool, err error) {
	err = s.db.Get(dest, `SELECT `+columns+` FROM `+table+` WHERE name = ? ORDER BY id DESC LIMIT 1`, ref)
	if errors.Is(err, sql.ErrNoRows) {
		if id, perr := strconv.ParseInt(ref, 10, 64); perr == nil {
			err = s.db.Get(dest, `SELECT `+columns+` FROM `+table+` WHERE id = ?`, id)
		}
	}
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
