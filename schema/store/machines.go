package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/machine"
)

// The machines table holds the ingested machine files: their source kept
// verbatim, and the parsed machine (sim/machine.Encode) that loading
// decodes. Machines stored before schema 12 have no parsed form until
// ingest.ParseStoredMachines gives them one.

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
	tree, err := machine.Encode(m)
	if err != nil {
		return info, fmt.Errorf("store machine %s: %w", info.Path, err)
	}
	insert := func(tx *sqlx.Tx) (stored.MachineInfo, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO machines(name, path, sha256, format, root, processors, search,
			source, tree, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			info.Name, info.Path, info.SHA256, info.Format, info.Root, info.Processors, info.Search,
			string(source), string(tree), info.IngestedAt)
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
// machine, decoded from its parsed form. The error of an unknown machine
// wraps ErrNotFound.
func (s *Store) Machine(name string) (*machine.Machine, stored.MachineInfo, error) {
	var row struct {
		stored.MachineInfo
		Tree sql.NullString `db:"tree"`
	}
	found, err := s.getByNameOrID(&row, "machines", machineColumns+", tree", name)
	if err != nil {
		return nil, stored.MachineInfo{}, err
	}
	if !found {
		return nil, stored.MachineInfo{}, s.missing("machines", "machine", "machine", name)
	}
	if !row.Tree.Valid {
		return nil, stored.MachineInfo{}, fmt.Errorf("machine %s (%s) was stored by an older presage without its parsed form: any presage command that writes to the store (predict, sweep, ingest) parses it once", row.Name, row.Path)
	}
	m, err := machine.Decode([]byte(row.Tree.String))
	if err != nil {
		return nil, stored.MachineInfo{}, fmt.Errorf("machine %s (%s): %w", row.Name, row.Path, err)
	}
	return m, row.MachineInfo, nil
}

// UnparsedMachines returns the machines stored before schema 12 without
// their parsed form, with their source.
func (s *Store) UnparsedMachines(ctx context.Context) (infos []stored.MachineInfo, sources []string, err error) {
	var rows []struct {
		stored.MachineInfo
		Source string `db:"source"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT `+machineColumns+`, source FROM machines WHERE tree IS NULL ORDER BY id`); err != nil {
		return nil, nil, fmt.Errorf("list unparsed machines: %w", err)
	}
	for _, r := range rows {
		infos, sources = append(infos, r.MachineInfo), append(sources, r.Source)
	}
	return infos, sources, nil
}

// SetMachineTrees stores the parsed form of machines stored without one
// (keyed by id), in one transaction.
func (s *Store) SetMachineTrees(ctx context.Context, trees map[int64]*machine.Machine) error {
	return s.update(ctx, func(tx *sqlx.Tx) error {
		for id, m := range trees {
			tree, err := machine.Encode(m)
			if err != nil {
				return fmt.Errorf("machine %d: %w", id, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE machines SET tree = ? WHERE id = ? AND tree IS NULL`, string(tree), id); err != nil {
				return fmt.Errorf("store the parsed machine %d: %w", id, err)
			}
		}
		return nil
	})
}

// Machines returns the stored machines ordered by name, then id.
func (s *Store) Machines() ([]stored.MachineInfo, error) {
	var infos []stored.MachineInfo
	if err := s.db.Select(&infos, `SELECT `+machineColumns+` FROM machines ORDER BY name, id`); err != nil {
		return nil, fmt.Errorf("list machines: %w", err)
	}
	return infos, nil
}
