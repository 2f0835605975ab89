package store

import (
	"math"
	"strconv"

	"github.com/presage-dvm/presage/sim/result"
)

// The per-processor values of an interval are stored once per class of
// processors with equal values (schema 0010_proc_classes.sql): a row of
// interval_proc_classes holds the class of every processor, and one row of
// interval_proc_series per characteristic holds a JSON array indexed by
// class of the value, or null where none is stored. The view
// interval_proc_values unfolds them into the rows older stores held, one
// per value. A grid's processors fall into a few classes, so this stores
// a few values per characteristic instead of one per processor.

// procSeries adds the rows of the per-processor values of iv: their
// classes, and a series per characteristic. Zeros are left out (null),
// except the execution time, which keeps every processor present; a
// characteristic without a value left gets no row.
func (ins *inserter) procSeries(runID int64, iv *result.Interval) error {
	if len(iv.Procs) == 0 {
		return nil
	}
	classOf, members := procClasses(iv.Procs)
	ins.json = appendClasses(ins.json[:0], procSlots(iv.Procs), classOf)
	if err := ins.classes.add(runID, iv.ID, string(ins.json)); err != nil {
		return err
	}
	for c := result.Char(0); c < result.NumChars; c++ {
		ins.json = appendSeries(ins.json[:0], iv.Procs, members, c)
		if ins.json == nil {
			continue
		}
		if err := ins.proc.add(runID, iv.ID, c, string(ins.json)); err != nil {
			return err
		}
	}
	return nil
}

// procClasses groups procs by their values, bit for bit: classOf[i] is the
// class of procs[i], classes numbered in order of first appearance, and
// members[k] the index in procs of a member of class k.
func procClasses(procs []result.ProcValues) (classOf []int32, members []int) {
	type bits [result.NumChars]uint64
	index := map[bits]int32{}
	// Processors that share their values (a simulation's classes) are in
	// one class without comparing the values again.
	shared := map[*result.Values]int32{}
	classOf = make([]int32, len(procs))
	for i := range procs {
		if k, ok := shared[procs[i].Values]; ok {
			classOf[i] = k
			continue
		}
		var key bits
		for c, v := range procs[i].Values {
			key[c] = math.Float64bits(v)
		}
		k, ok := index[key]
		if !ok {
			k = int32(len(members))
			index[key] = k
			members = append(members, i)
		}
		shared[procs[i].Values] = k
		classOf[i] = k
	}
	return classOf, members
}

// appendClasses appends to b the JSON array of the class of every
// processor number of slot, null for a processor without values.
func appendClasses(b []byte, slot []int, classOf []int32) []byte {
	b = append(b, '[')
	for p, i := range slot {
		if p > 0 {
			b = append(b, ',')
		}
		if i < 0 {
			b = append(b, "null"...)
			continue
		}
		b = strconv.AppendInt(b, int64(classOf[i]), 10)
	}
	return append(b, ']')
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
// positions of slot (procs indices, -1 for none), without trailing nulls,
// and returns nil when every element would be null.
func appendSeries(b []byte, procs []result.ProcValues, slot []int, c result.Char) []byte {
	b = append(b, '[')
	kept := 0 // length of b up to the last value
	for p, i := range slot {
		if p > 0 {
			b = append(b, ',')
		}
		if i < 0 || (procs[i].Values[c] == 0 && c != result.ExecutionTime) {
			b = append(b, "null"...)
			continue
		}
		b = appendJSONNumber(b, procs[i].Values[c])
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
