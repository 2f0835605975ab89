package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/events"
)

// A prediction's per-processor picture (events.Sample) is stored with the
// run (run_timelines, schema/0012_stored_for_readers.sql): the run report
// reads it instead of simulating the run again.

// saveTimeline writes run runID's sample within tx.
func saveTimeline(tx *sqlx.Tx, runID int64, s *events.Sample) error {
	cols := 0
	if len(s.States) > 0 {
		cols = len(s.States[0])
	}
	cells := make([]byte, 0, len(s.States)*cols)
	for r, row := range s.States {
		if len(row) != cols {
			return fmt.Errorf("timeline row %d: %d columns, want %d", r, len(row), cols)
		}
		for _, st := range row {
			cells = append(cells, byte(st))
		}
	}
	procs, err := json.Marshal(s.Procs)
	if err != nil {
		return err
	}
	var mix []byte // NULL without shares
	if s.Mixes != nil {
		mix, err = packMixes(s.Mixes, len(s.States), cols)
		if err != nil {
			return err
		}
	}
	_, err = tx.Exec(`INSERT INTO run_timelines(run_id, total, bucket_ns, end_ns, cols, procs, states, mix, mix_states) VALUES (?,?,?,?,?,?,?,?,?)`,
		runID, s.Total, s.Bucket, s.End, cols, string(procs), blobEncoder().EncodeAll(cells, nil), mix, mixStates)
	return err
}

// mixStates is the number of shares a stored cell holds: states 1 to
// NumStates−1.
const mixStates = int(events.NumStates) - 1

// packMixes flattens the shares of rows x cols cells, mixStates bytes a
// cell, and compresses them.
func packMixes(mixes [][]events.Mix, rows, cols int) ([]byte, error) {
	if len(mixes) != rows {
		return nil, fmt.Errorf("timeline: %d rows of shares for %d rows", len(mixes), rows)
	}
	raw := make([]byte, 0, rows*cols*mixStates)
	for r, row := range mixes {
		if len(row) != cols {
			return nil, fmt.Errorf("timeline row %d: %d columns of shares, want %d", r, len(row), cols)
		}
		for _, m := range row {
			raw = append(raw, m[1:]...)
		}
	}
	return blobEncoder().EncodeAll(raw, nil), nil
}

// unpackMixes is packMixes' inverse for cells of k shares (k ≤ mixStates:
// a picture stored when there were fewer states).
func unpackMixes(packed []byte, rows, cols, k int) ([][]events.Mix, error) {
	raw, err := blobDecoder().DecodeAll(packed, nil)
	if err != nil || k < 1 || k > mixStates || len(raw) != rows*cols*k {
		return nil, fmt.Errorf("shares of %d bytes for %d rows of %d columns of %d states (%v)", len(raw), rows, cols, k, err)
	}
	mixes := make([][]events.Mix, rows)
	for r := range mixes {
		mixes[r] = make([]events.Mix, cols)
		for c := range mixes[r] {
			copy(mixes[r][c][1:], raw[(r*cols+c)*k:])
		}
	}
	return mixes, nil
}

// RunTimeline returns the stored per-processor picture of run runID, or
// nil when the run has none (a run of a sweep, or stored before schema
// 12).
func (s *Store) RunTimeline(ctx context.Context, runID int64) (*events.Sample, error) {
	var row struct {
		Total  int           `db:"total"`
		Bucket int64         `db:"bucket_ns"`
		End    int64         `db:"end_ns"`
		Cols   int           `db:"cols"`
		Procs  string        `db:"procs"`
		States []byte        `db:"states"`
		Mix    []byte        `db:"mix"`
		K      sql.Null[int] `db:"mix_states"`
	}
	err := s.db.GetContext(ctx, &row, `SELECT total, bucket_ns, end_ns, cols, procs, states, mix, mix_states FROM run_timelines WHERE run_id = ?`, runID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("run %d: timeline: %w", runID, err)
	}
	sm := &events.Sample{Total: row.Total, Bucket: row.Bucket, End: row.End}
	if err := json.Unmarshal([]byte(row.Procs), &sm.Procs); err != nil {
		return nil, fmt.Errorf("run %d: timeline rows: %w", runID, err)
	}
	cells, err := blobDecoder().DecodeAll(row.States, nil)
	if err != nil || len(cells) != len(sm.Procs)*row.Cols {
		return nil, fmt.Errorf("run %d: timeline of %d bytes for %d rows of %d columns (%v)", runID, len(cells), len(sm.Procs), row.Cols, err)
	}
	sm.States = make([][]events.State, len(sm.Procs))
	for r := range sm.States {
		sm.States[r] = make([]events.State, row.Cols)
		for c, b := range cells[r*row.Cols : (r+1)*row.Cols] {
			if events.State(b) >= events.NumStates {
				return nil, fmt.Errorf("run %d: timeline row %d column %d: state %d", runID, r, c, b)
			}
			sm.States[r][c] = events.State(b)
		}
	}
	if row.Mix != nil {
		if sm.Mixes, err = unpackMixes(row.Mix, len(sm.Procs), row.Cols, row.K.V); err != nil {
			return nil, fmt.Errorf("run %d: timeline: %w", runID, err)
		}
	}
	return sm, nil
}

// SaveRunTimeline stores the per-processor picture of a stored run that
// has none, in its own transaction.
func (s *Store) SaveRunTimeline(ctx context.Context, runID int64, sm *events.Sample) error {
	return s.update(ctx, func(tx *sqlx.Tx) error { return saveTimeline(tx, runID, sm) })
}
