package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/machine"
)

// The machines table holds the ingested machine files, their source kept
// verbatim and parsed again when loaded.

const machineColumns = `id, name, path, sha256, format, root, processors, search, ingested_at`

// SaveMachine stores the machine file source, parsed as m, under info's
// Name, Path and SHA256 (IngestedAt: now when empty; the rest from m).
// When the store holds a machine with the same SHA256 already (a
// concurrent ingest of the same bytes won), that machine comes back with
// Existing set.
func (s *Store) SaveMachine(ctx context.Context, info stored.MachineInfo, m *machine.Machine, source []byte) (stored.MachineInfo, error) {
	info.Format, info.Root, info.Processors, info.Search = m.Format, m.Name, m.Processors(), m.Search
	if info.IngestedAt == "" {
		info.IngestedAt = time.Now().UTC().Format(time.RFC3339)
	}
	insert := func(tx *sqlx.Tx) (stored.MachineInfo, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO machines(name, path, sha256, format, root, processors, search,
			source, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			info.Name, info.Path, info.SHA256, info.Format, info.Root, info.Processors, info.Search,
			string(source), info.IngestedAt)
		if err != nil {
			return info, fmt.Errorf("store machine %s: %w", info.Path, err)
		}
		info.ID, err = res.LastInsertId()
		return info, err
	}
	lookup := func() (stored.MachineInfo, bool, error) { return s.MachineBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "machines", insert, lookup)
}

// MachineBySHA returns the stored machine whose file had the given sha256
// (in hex), with Existing set, and whether there is one.
func (s *Store) MachineBySHA(ctx context.Context, sum string) (stored.MachineInfo, bool, error) {
	info, found, err := getOptional[stored.MachineInfo](ctx, s.db, `SELECT `+machineColumns+` FROM machines WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, found, err
}

// Machine returns the stored machine called name (the latest ingested one
// of that name) or, when name is a number that is an id of the table, that
// machine. The source is parsed again, with the stored path in messages.
// The error of an unknown machine wraps ErrNotFound.
func (s *Store) Machine(name string) (*machine.Machine, stored.MachineInfo, error) {
	var row struct {
		stored.MachineInfo
		Source string `db:"source"`
	}
	found, err := s.getByNameOrID(&row, "machines", machineColumns+", source", name)
	if err != nil {
		return nil, stored.MachineInfo{}, err
	}
	if !found {
		return nil, stored.MachineInfo{}, s.missing("machines", "machine", "machine", name)
	}
	m, err := machinefile.Parse(strings.NewReader(row.Source), row.Path)
	if err != nil {
		return nil, stored.MachineInfo{}, err
	}
	return m, row.MachineInfo, nil
}

// Machines returns the stored machines ordered by name, then id.
func (s *Store) Machines() ([]stored.MachineInfo, error) {
	var infos []stored.MachineInfo
	if err := s.db.Select(&infos, `SELECT `+machineColumns+` FROM machines ORDER BY name, id`); err != nil {
		return nil, fmt.Errorf("list machines: %w", err)
	}
	return infos, nil
}
