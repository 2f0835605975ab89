package htmlreport

import (
	"strconv"

	"github.com/presage-dvm/presage/sim/result"
)

// The section of one interval: the content of one page of the original.

func headerOf(iv *result.Interval) header {
	h := header{
		ID: iv.ID, Type: string(iv.Type), Level: strconv.Itoa(iv.Level),
		Count: strconv.FormatInt(iv.Count, 10), Line: strconv.Itoa(iv.Line), File: iv.File,
	}
	if iv.Expr != nil {
		h.Expr = strconv.FormatInt(*iv.Expr, 10)
	}
	return h
}

func newSection(run *result.Run, iv *result.Interval, grid string) section {
	v := &iv.Values
	s := section{
		header: headerOf(iv), Grid: grid, Rows: charRows(v), Classes: classRows(v),
		ProdPct: share(v[result.ProductiveTime], v[result.TotalTime]),
		LostPct: share(v[result.LostTime], v[result.TotalTime]),
		Exec:    num(v[result.ExecutionTime]), Effic: num(v[result.Efficiency]),
		Procs: newProcTable(iv),
	}
	for i, c := range iv.Children {
		child := run.Interval(c)
		cv := &child.Values
		s.Nested = append(s.Nested, nestedRow{i + 1, headerOf(child),
			num(cv[result.ExecutionTime]), num(cv[result.Efficiency])})
	}
	return s
}

// charRows lists the main characteristics in the original's order.
func charRows(v *result.Values) []charRow {
	row := func(label string, c result.Char, depth int, parts ...fact) charRow {
		return charRow{label, num(v[c]), depth, parts}
	}
	part := func(label string, c result.Char) fact { return fact{label, num(v[c])} }
	return []charRow{
		row("Efficiency", result.Efficiency, 0),
		row("Execution time", result.ExecutionTime, 0),
		row("Total time", result.TotalTime, 0),
		row("Productive time", result.ProductiveTime, 1,
			part("CPU", result.ProductiveCPUTime), part("SYS", result.ProductiveSYSTime), part("I/O", result.IOTime)),
		row("Lost time", result.LostTime, 1),
		row("Insufficient parallelism", result.InsuffParallelism, 2,
			part("USR", result.InsuffParallelismUsr), part("SYS", result.InsuffParallelismSys)),
		row("Communications", result.Communication, 2, part("SYN", result.CommunicationSynch)),
		row("Idle time", result.Idle, 2),
		row("Load imbalance", result.LoadImbalance, 0),
		row("Synchronization", result.Synchronization, 0),
		row("Time variation", result.TimeVariation, 0),
		row("Overlap", result.Overlap, 0),
	}
}

// classLabels are the row labels of the per-class table, in OpClass order.
var classLabels = [result.NumOpClasses]string{"I/O", "Reduction", "Shadow", "Remote access", "Redistribution"}

func classRows(v *result.Values) []classRow {
	rows := make([]classRow, result.NumOpClasses)
	for c := result.OpIO; c < result.NumOpClasses; c++ {
		cells := []string{count(v[result.OpChar(c, result.OpCount)])}
		for col := result.OpComm; col <= result.OpOverlap; col++ {
			cells = append(cells, num(v[result.OpChar(c, col)]))
		}
		rows[c] = classRow{classLabels[c], cells}
	}
	return rows
}
