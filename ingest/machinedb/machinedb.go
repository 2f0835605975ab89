// Package machinedb owns the machines table of the store: it ingests machine
// files (once per content, source kept verbatim) and loads them back as
// parsed machines by name or id.
package machinedb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/filestore"
	"github.com/presage-dvm/presage/ingest/machine"
)

// Info describes a stored machine file (a row of the machines table).
type Info struct {
	ID         int64  `db:"id"`
	Name       string `db:"name"` // file base name without .par
	Path       string `db:"path"` // as given to Ingest
	SHA256     string `db:"sha256"`
	Format     string `db:"format"`     // machine.FormatCluster or machine.FormatFlat
	Root       string `db:"root"`       // name of the modelled cluster
	Processors int    `db:"processors"` // number of leaves
	Search     int    `db:"search"`
	IngestedAt string `db:"ingested_at"` // RFC 3339, UTC
	// Existing is set by Ingest when the file's content was already stored
	// and nothing was written.
	Existing bool `db:"-"`
}

// ErrNotFound is returned (wrapped) by Load for an unknown machine.
var ErrNotFound = errors.New("machine not found in the store")

const infoColumns = `id, name, path, sha256, format, root, processors, search, ingested_at`

// maxSource bounds the file read by Ingest; machine.Parse refuses larger
// files anyway.
const maxSource = 1 << 22

// MachineName is the name a machine file is stored under: its base name
// without a .par suffix.
func MachineName(path string) string { return filestore.Name(path, ".par") }

// Ingest stores the machine file at path unless a file with the same bytes
// is stored already, in which case it returns that machine's Info with
// Existing set. The file is parsed first: a defective file (a
// *machine.Error) is not stored.
func Ingest(ctx context.Context, db *sqlx.DB, path string) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxSource+1))
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(src) > maxSource {
		return Info{}, fmt.Errorf("%s: larger than %d bytes, not a machine file", path, maxSource)
	}
	sum := filestore.Sum(src)
	if info, err := bySHA(ctx, db, sum); err != nil || info.ID != 0 {
		return info, err
	}
	m, err := machine.Parse(bytes.NewReader(src), path)
	if err != nil {
		return Info{}, err
	}
	info := Info{
		Name: MachineName(path), Path: path, SHA256: sum, Format: m.Format, Root: m.Name,
		Processors: m.Processors(), Search: m.Search, IngestedAt: time.Now().UTC().Format(time.RFC3339),
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Info{}, err
	}
	defer tx.Rollback() // no-op after Commit
	res, err := tx.ExecContext(ctx, `INSERT INTO machines(name, path, sha256, format, root, processors, search,
		source, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		info.Name, info.Path, info.SHA256, info.Format, info.Root, info.Processors, info.Search,
		string(src), info.IngestedAt)
	if err != nil {
		if filestore.IsDuplicate(err, "machines") {
			// Another ingest of the same bytes won the race.
			tx.Rollback()
			return bySHA(ctx, db, sum)
		}
		return Info{}, fmt.Errorf("store machine %s: %w", path, err)
	}
	if info.ID, err = res.LastInsertId(); err != nil {
		return Info{}, err
	}
	if err := tx.Commit(); err != nil {
		return Info{}, err
	}
	return info, nil
}

// bySHA returns the stored machine with that content hash with Existing set,
// or a zero Info.
func bySHA(ctx context.Context, db *sqlx.DB, sum string) (Info, error) {
	info, found, err := filestore.Find[Info](ctx, db, `SELECT `+infoColumns+` FROM machines WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, err
}

// Load returns the stored machine called name (the latest ingested one of
// that name) or, when name is a number that is an id of the table, that
// machine. The source is parsed again, with the stored path in messages.
func Load(db *sqlx.DB, name string) (*machine.Machine, Info, error) {
	var row struct {
		Info
		Source string `db:"source"`
	}
	err := sql.ErrNoRows
	if id, perr := strconv.ParseInt(name, 10, 64); perr == nil {
		err = db.Get(&row, `SELECT `+infoColumns+`, source FROM machines WHERE id = ?`, id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = db.Get(&row, `SELECT `+infoColumns+`, source FROM machines WHERE name = ? ORDER BY id DESC LIMIT 1`, name)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Info{}, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return nil, Info{}, err
	}
	m, err := machine.Parse(strings.NewReader(row.Source), row.Path)
	if err != nil {
		return nil, Info{}, err
	}
	return m, row.Info, nil
}

// List returns the stored machines ordered by name, then id.
func List(db *sqlx.DB) ([]Info, error) {
	var infos []Info
	err := db.Select(&infos, `SELECT `+infoColumns+` FROM machines ORDER BY name, id`)
	return infos, err
}
