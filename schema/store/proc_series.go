package store

import (
	"math"
	"strconv"

	"github.com/presage-dvm/presage/sim/result"
)

// The per-processor values of an interval are stored as one row per
// characteristic (table interval_proc_series, schema 0008_proc_series.sql):
// a JSON array indexed by processor holding the value, or null where none
// is stored. The view interval_proc_values unfolds the arrays into the rows
// that older stores held, one per value.

// procSeries adds the rows of the per-processor values of iv: zeros are
// left out (null), except the execution time, which keeps every processor
// present; a characteristic without a value left gets no row.
func (ins *inserter) procSeries(runID int64, iv *result.Interval) error {
	slot := procSlots(iv.Procs)
	for c := result.Char(0); c < result.NumChars; c++ {
		ins.json = appendSeries(ins.json[:0], iv.Procs, slot, c)
		if ins.json == nil {
			continue
		}
		if err := ins.proc.add(runID, iv.ID, c, string(ins.json)); err != nil {
			return err
		}
	}
	return nil
}

// procSlots maps each processor number up to the highest of procs to its
// index in procs, -1 for a processor without values.
func procSlots(procs []result.ProcValues) []int {
	top := -1
	for _, p := range procs {
		top = max(top, p.Proc)
	}
	slot := make([]int, top+1)
	for i := range slot {
		slot[i] = -1
	}
	for i, p := range procs {
		if p.Proc >= 0 {
			slot[p.Proc] = i
		}
	}
	return slot
}

// appendSeries appends to b the JSON array of characteristic c over the
// processors of slot, without trailing nulls, and returns nil when every
// element would be null.
func appendSeries(b []byte, procs []result.ProcValues, slot []int, c result.Char) []byte {
	b = append(b, '[')
	kept := 0 // length of b up to the last value
	// Processors of one class have equal values, often side by side: the
	// last number is copied rather than formatted again.
	var last struct {
		bits       uint64
		start, end int // its text in b, when end > 0
	}
	for p, i := range slot {
		if p > 0 {
			b = append(b, ',')
		}
		if i < 0 || (procs[i].Values[c] == 0 && c != result.ExecutionTime) {
			b = append(b, "null"...)
			continue
		}
		v := procs[i].Values[c]
		start := len(b)
		if bits := math.Float64bits(v); last.end > 0 && bits == last.bits {
			b = append(b, b[last.start:last.end]...)
		} else {
			b = appendJSONNumber(b, v)
			last.bits = bits
		}
		last.start, last.end = start, len(b)
		kept = len(b)
	}
	if kept == 0 {
		return nil
	}
	return append(b[:kept], ']')
}

// appendJSONNumber appends v as a JSON number that SQLite reads back as the
// same float64: the shortest decimal that round-trips; an infinity as
// SQLite writes one (9e999).
func appendJSONNumber(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "9e999"...)
	case math.IsInf(v, -1):
		return append(b, "-9e999"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}
