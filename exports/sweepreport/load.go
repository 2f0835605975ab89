package sweepreport

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/result"
)

// sweepInfo is the sweeps row of the report, with its trace's name.
type sweepInfo struct {
	ID      int64
	TraceID int64
	Trace   string
	Command string
	Created string
	Kind    string // "" when the store predates sweep kinds
	Configs int64  // configurations of the definition, 0 when unknown
	Skipped int64
}

// config is one run of the sweep: its configuration and headline numbers.
type config struct {
	RunID   int64   `db:"id"`
	Program string  `db:"program"`
	Machine string  `db:"machine"`
	Grid    string  `db:"grid"`
	Procs   int     `db:"procs"`
	Network string  `db:"network"`
	TStart  float64 `db:"tstart"` // 0 = the machine file's
	TByte   float64 `db:"tbyte"`
	Power   float64 `db:"power"`
	Time    float64 `db:"execution_time"`
	// Efficiency of the root interval; NaN when not stored.
	Effic sql.NullFloat64 `db:"effic"`
}

// Cost is the processor time the configuration occupies.
func (c *config) Cost() float64 { return c.Time * float64(c.Procs) }

// Efficiency returns the stored efficiency, NaN when absent.
func (c *config) Efficiency() float64 {
	if !c.Effic.Valid {
		return nan
	}
	return c.Effic.Float64
}

// loadSweep reads the sweeps row. The columns are read by name so that
// the report works on stores with and without the later sweep columns.
func loadSweep(db *sqlx.DB, id int64) (*sweepInfo, error) {
	row := map[string]any{}
	err := db.QueryRowx(`SELECT * FROM sweeps WHERE id = ?`, id).MapScan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sweep %d: no such sweep in the store", id)
	}
	if err != nil {
		return nil, fmt.Errorf("sweep %d: %w", id, err)
	}
	s := &sweepInfo{
		ID:      id,
		TraceID: asInt(row["trace_id"]),
		Command: asString(row["command"]),
		Created: asString(row["created_at"]),
		Kind:    asString(row["kind"]),
		Configs: asInt(row["configs"]),
		Skipped: asInt(row["skipped"]),
	}
	err = db.Get(&s.Trace, `SELECT name FROM traces WHERE id = ?`, s.TraceID)
	if errors.Is(err, sql.ErrNoRows) {
		s.Trace = fmt.Sprintf("trace %d (not in the store)", s.TraceID)
	} else if err != nil {
		return nil, fmt.Errorf("sweep %d: trace: %w", id, err)
	}
	return s, nil
}

func asString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

func asInt(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case float64:
		return int64(v)
	case string:
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	case []byte:
		n, _ := strconv.ParseInt(string(v), 10, 64)
		return n
	}
	return 0
}

// loadConfigs reads the sweep's runs in id order, each with the efficiency
// of its root interval.
func loadConfigs(db *sqlx.DB, sweepID int64) ([]*config, error) {
	var cs []*config
	err := db.Select(&cs, `SELECT r.id, r.program, coalesce(r.machine, '') AS machine, r.grid, r.procs,
			coalesce(r.network, '') AS network, coalesce(r.tstart, 0) AS tstart,
			coalesce(r.tbyte, 0) AS tbyte, coalesce(r.power, 0) AS power, r.execution_time,
			v.value AS effic
		FROM runs r
		LEFT JOIN intervals i ON i.run_id = r.id AND i.parent IS NULL
		LEFT JOIN interval_values v ON v.run_id = r.id AND v.interval_id = i.id AND v.char_id = ?
		WHERE r.sweep_id = ?
		ORDER BY r.id`, int(result.Efficiency), sweepID)
	if err != nil {
		return nil, fmt.Errorf("sweep %d: runs: %w", sweepID, err)
	}
	return cs, nil
}

// barChars are the characteristics of the lost-time breakdown: the three
// parts of lost time, stacked, then the two potential losses, which are
// not part of lost time and are drawn apart.
var barChars = []result.Char{
	result.InsuffParallelism, result.Communication, result.Idle,
	result.LoadImbalance, result.Synchronization,
}

// nStacked is how many of barChars make up lost time.
const nStacked = 3

// interval is one bar of the breakdown.
type interval struct {
	ID     int
	Level  int
	Type   string
	Line   int
	File   string
	Values []float64 // indexed like barChars
	Lost   float64
}

// loadBreakdown reads the intervals of run in pre-order from its report
// root (from Main when all is set or no root is recorded) with the values
// of barChars.
func loadBreakdown(db *sqlx.DB, runID int64, all bool) ([]*interval, error) {
	var root int
	if err := db.Get(&root, `SELECT report_root FROM runs WHERE id = ?`, runID); err != nil {
		return nil, fmt.Errorf("run %d: %w", runID, err)
	}
	var ivs []*interval
	rows, err := db.Query(`SELECT id, level, type, line, file FROM intervals WHERE run_id = ? ORDER BY ord`, runID)
	if err != nil {
		return nil, fmt.Errorf("run %d: intervals: %w", runID, err)
	}
	byID := map[int]*interval{}
	for rows.Next() {
		iv := &interval{Values: make([]float64, len(barChars))}
		if err := rows.Scan(&iv.ID, &iv.Level, &iv.Type, &iv.Line, &iv.File); err != nil {
			rows.Close()
			return nil, fmt.Errorf("run %d: intervals: %w", runID, err)
		}
		ivs = append(ivs, iv)
		byID[iv.ID] = iv
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run %d: intervals: %w", runID, err)
	}
	if len(ivs) == 0 {
		return nil, fmt.Errorf("run %d: no intervals stored", runID)
	}
	col := map[int]int{int(result.LostTime): -1}
	for i, c := range barChars {
		col[int(c)] = i
	}
	rows, err = db.Query(`SELECT interval_id, char_id, value FROM interval_values WHERE run_id = ?`, runID)
	if err != nil {
		return nil, fmt.Errorf("run %d: values: %w", runID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var ivID, char int
		var v float64
		if err := rows.Scan(&ivID, &char, &v); err != nil {
			return nil, fmt.Errorf("run %d: values: %w", runID, err)
		}
		i, want := col[char]
		iv := byID[ivID]
		switch {
		case !want || iv == nil:
		case i < 0:
			iv.Lost = v
		default:
			iv.Values[i] = v
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run %d: values: %w", runID, err)
	}
	if all || root == 0 {
		return ivs, nil
	}
	return subtree(ivs, root), nil
}

// subtree returns the interval id and its descendants from a pre-order
// list: the intervals after it down to the next one at its level or above.
// An unknown id gives the whole list.
func subtree(ivs []*interval, id int) []*interval {
	for i, iv := range ivs {
		if iv.ID != id {
			continue
		}
		j := i + 1
		for j < len(ivs) && ivs[j].Level > iv.Level {
			j++
		}
		return ivs[i:j]
	}
	return ivs
}
