package sweep

import (
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/result"
)

// Outcome is the headline of a stored configuration.
type Outcome struct {
	Index      int     `db:"sweep_index"`
	RunID      int64   `db:"id"`
	Grid       string  `db:"grid"`
	Machine    string  `db:"machine"`
	Procs      int     `db:"procs"`
	Time       float64 `db:"execution_time"` // of the root interval (s)
	Efficiency float64 `db:"efficiency"`     // of the root interval
}

// Cost is the processor time the configuration occupies: time x processors.
func (o Outcome) Cost() float64 { return o.Time * float64(o.Procs) }

// Outcomes returns the stored configurations of a sweep by index.
func Outcomes(db *sqlx.DB, sweepID int64) (map[int]Outcome, error) {
	var rows []Outcome
	err := db.Select(&rows, `SELECT r.sweep_index, r.id, r.grid, coalesce(r.machine, '') AS machine, r.procs, r.execution_time,
			coalesce((SELECT v.value FROM intervals i JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.id
			          WHERE i.run_id = r.id AND i.parent IS NULL AND v.char_id = ?), 0) AS efficiency
		FROM runs r WHERE r.sweep_id = ? AND r.sweep_index IS NOT NULL`, int(result.Efficiency), sweepID)
	if err != nil {
		return nil, fmt.Errorf("results of sweep %d: %w", sweepID, err)
	}
	out := make(map[int]Outcome, len(rows))
	for _, r := range rows {
		out[r.Index] = r
	}
	return out, nil
}
