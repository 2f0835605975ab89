package store

import "fmt"

// MeasuredRuns lists the ids of the measured runs of program (runs of
// statistics files and real orders runs), oldest first: the runs a
// calibration of the program fits by default.
func (s *Store) MeasuredRuns(program string) ([]int64, error) {
	var ids []int64
	if err := s.db.Select(&ids, `SELECT id FROM runs WHERE kind = 'measured' AND program = ? ORDER BY id`, program); err != nil {
		return nil, fmt.Errorf("measured runs of %s: %w", program, err)
	}
	return ids, nil
}
