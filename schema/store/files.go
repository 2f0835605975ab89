package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
// table with the same content hash (sha256, or xxh3 for traces): a
// concurrent ingest of the same bytes won.
func isDuplicate(err error, table string) bool {
	return err != nil && (strings.Contains(err.Error(), "UNIQUE constraint failed: "+table+".sha256") ||
		strings.Contains(err.Error(), "UNIQUE constraint failed: "+table+".xxh3"))
}

// saveFile runs insert in one transaction. When insert fails because the
// store holds the same bytes already (table's content hash is unique), the
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
		found, _, err := lookup()
		return found, err
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return saved, nil
}

// getByNameOrID reads into dest the row of table named ref or, when no
// row has that name and ref is a number, the row with that id; found is
// false when there is neither. Every stored input (trace, machine, order
// trace, calibration) is named this way on the command line. Files of one
// base name in different folders are all stored under that name: then
// the name is ambiguous and the error lists their ids, never choosing one.
func (s *Store) getByNameOrID(dest any, table, columns, ref string) (found bool, err error) {
	var same []struct {
		ID   int64  `db:"id"`
		Path string `db:"path"`
	}
	if err := s.db.Select(&same, `SELECT id, path FROM `+table+` WHERE name = ? ORDER BY id`, ref); err != nil {
		return false, err
	}
	if len(same) > 1 {
		list := make([]string, len(same))
		for i, r := range same {
			list[i] = fmt.Sprintf("%d (%s)", r.ID, r.Path)
		}
		return false, fmt.Errorf("%d %s are named %q: ids %s; give the id instead", len(same), strings.ReplaceAll(table, "_", " "), ref, strings.Join(list, ", "))
	}
	err = s.db.Get(dest, `SELECT `+columns+` FROM `+table+` WHERE name = ?`, ref)
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

// Namesakes returns the ids of the other rows of table (traces, machines,
// sts_files, order_traces, calibrations, order_measurements) stored under
// the name of row id: files of one base name from different folders.
func (s *Store) Namesakes(table string, id int64) ([]int64, error) {
	if !slices.Contains([]string{"traces", "machines", "sts_files", "order_traces", "calibrations", "order_measurements"}, table) {
		return nil, fmt.Errorf("namesakes: unknown table %q", table)
	}
	var ids []int64
	err := s.db.Select(&ids, `SELECT o.id FROM `+table+` o JOIN `+table+` t ON t.name = o.name WHERE t.id = ? AND o.id <> ? ORDER BY o.id`, id, id)
	return ids, err
}

// missing is the error for an input the store does not hold: it wraps
// ErrNotFound, lists the names the store holds of that kind (up to ten)
// and says how to ingest one. kind is "trace", "machine", "order trace"
// or "calibration"; ingest the ingest subcommand.
func (s *Store) missing(table, kind, ingest, name string) error {
	var names []string
	err := s.db.Select(&names, `SELECT DISTINCT name FROM `+table+` ORDER BY name LIMIT 11`)
	holds := "none"
	switch {
	case err != nil:
		holds = "unknown: " + err.Error()
	case len(names) > 10:
		holds = strings.Join(names[:10], ", ") + ", …"
	case len(names) > 0:
		holds = strings.Join(names, ", ")
	}
	return notFound(fmt.Sprintf("no %s %q in the store (its %ss: %s); ingest it with presage ingest %s FILE, or give a stored name or id",
		kind, name, kind, holds, ingest))
}
