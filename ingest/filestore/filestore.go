// Package filestore holds what the ingesters of files into the store
// (machinedb, tracedb, stsdb) share: a file is known by the sha256 of its
// bytes and stored once per content, under its base name without the
// suffixes of its format.
package filestore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Sum returns the sha256 of b in hex, as the store's sha256 columns hold
// it.
func Sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// SumReader is Sum of everything r yields, for files too large to hold.
func SumReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Find reads the row query selects into a T (a struct with db tags) and
// reports whether there was one: no row is not an error. Ingesters look up
// a file's row by its sum with it before reading the file further.
func Find[T any](ctx context.Context, db sqlx.QueryerContext, query string, args ...any) (T, bool, error) {
	var row, zero T
	err := sqlx.GetContext(ctx, db, &row, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, false, nil
	}
	if err != nil {
		return zero, false, err
	}
	return row, true, nil
}

// IsDuplicate reports whether err is the store refusing a second row of
// table with the same sha256: a concurrent ingest of the same bytes won.
func IsDuplicate(err error, table string) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed: "+table+".sha256")
}

// Name is the name a file is stored under: the base name of path without
// each of suffixes in turn, where the name ends with it and something is
// left.
func Name(path string, suffixes ...string) string {
	name := filepath.Base(path)
	for _, suf := range suffixes {
		if len(name) > len(suf) {
			name = strings.TrimSuffix(name, suf)
		}
	}
	return name
}
