package pppa

import (
	"math"

	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// perProc maps the general values to the canonical characteristics a
// processor carries.
var perProc = []struct {
	g gen
	c result.Char
}{
	{lost, result.LostTime},
	{insufUsr, result.InsuffParallelismUsr},
	{insuf, result.InsuffParallelismSys},
	{idle, result.Idle},
	{comm, result.Communication},
	{rcomm, result.CommunicationSynch},
	{sumSyn, result.Synchronization},
	{sumVar, result.TimeVariation},
	{sumOverlap, result.Overlap},
	{imb, result.LoadImbalance},
	{exec, result.ExecutionTime},
	{cpuUsr, result.ProductiveCPUTime},
	{cpuSys, result.ProductiveSYSTime},
	{ioTime, result.IOTime},
	{start, result.Starts},
	{thrUser, result.ThreadsUserTime},
	{thrSys, result.ThreadsSystemTime},
	{gpuProd, result.GPUProductiveTime},
	{gpuLost, result.GPULostTime},
	{proc, result.Processors},
}

// opClass maps the analyzer's operation order to the result classes.
var opClass = [numOps]result.OpClass{result.OpIO, result.OpReduction, result.OpShadow, result.OpRemote, result.OpRedistribution}

// opColumn maps the per-operation arrays to the result columns.
var opColumn = [numCols]int{result.OpComm, result.OpRealSynch, result.OpSynch, result.OpVary, result.OpOverlap, result.OpCount}

// buildRun assembles the measured run from the matched groups.
func buildRun(f *sts.File, program string, groups []group, vals [][]values, procs []stored.StsProc) *result.Run {
	h0 := f.Procs[0].Header
	run := &result.Run{Kind: result.Measured, Program: program, ReportRoot: 1}
	for _, d := range h0.Grid {
		run.Config.Grid = append(run.Config.Grid, int(d))
	}
	if len(run.Config.Grid) == 0 {
		run.Config.Grid = []int{len(f.Procs)}
	}
	id := map[member]int{}
	for k, g := range groups {
		for _, mb := range g.members {
			id[mb] = k + 1
		}
	}
	for k, g := range groups {
		first := g.members[0]
		siv := &f.Procs[first.proc].Intervals[first.num-1]
		iv := &result.Interval{ID: k + 1, Level: siv.Level, Type: intervalType(siv), Line: int(siv.Line), File: siv.File}
		if siv.Up != 0 {
			iv.Parent = id[member{first.proc, siv.Up}]
		}
		if siv.Expr != sts.NoExpr {
			e := siv.Expr
			iv.Expr = &e
		}
		enter := 0.0
		for _, mb := range g.members {
			enter += f.Procs[mb.proc].Intervals[mb.num-1].Enter
		}
		iv.Count = int64(math.Ceil(enter))
		fill(iv, g, vals, procs)
		run.Intervals = append(run.Intervals, iv)
	}
	for _, iv := range run.Intervals {
		if iv.Parent != 0 {
			p := run.Intervals[iv.Parent-1]
			p.Children = append(p.Children, iv.ID)
		}
	}
	return run
}

// intervalType names the interval's type; codes other than the loop and
// user types (the whole program, operation codes) count as Main at level 0
// and User elsewhere.
func intervalType(iv *sts.Interval) result.IntervalType {
	switch {
	case iv.Level == 0:
		return result.Main
	case iv.Type == sts.TypeSeq:
		return result.Seq
	case iv.Type == sts.TypePar:
		return result.Par
	}
	return result.User
}

// fill sets the interval's totals and per-processor values.
func fill(iv *result.Interval, g group, vals [][]values, procs []stored.StsProc) {
	var sum values
	emax := 0.0
	for _, mb := range g.members {
		v := &vals[mb.proc][mb.num-1]
		pv := result.NewProcValues(mb.proc)
		for _, m := range perProc {
			pv.Values[m.c] = v.g[m.g]
		}
		pv.Values[result.ThreadsAmount] = float64(procs[mb.proc].Threads)
		for c := range numCols {
			for o := range numOps {
				pv.Values[result.OpChar(opClass[o], opColumn[c])] = v.ops[c][o]
				sum.ops[c][o] += v.ops[c][o]
			}
		}
		for k := range numGen {
			sum.g[k] += v.g[k]
		}
		emax = max(emax, v.g[exec])
		iv.Procs = append(iv.Procs, pv)
	}
	n := len(g.members)
	x := &iv.Values
	for _, m := range perProc {
		x[m.c] = sum.g[m.g]
	}
	x[result.ExecutionTime] = emax
	x[result.Processors] = float64(n)
	threads := 0.0
	for p := 0; p < n && p < len(procs); p++ {
		threads += float64(procs[p].Threads)
	}
	x[result.ThreadsAmount] = threads
	x[result.TotalTime] = float64(n) * emax
	x[result.ProductiveTime] = sum.g[cpuUsr] + sum.g[cpuSys] + sum.g[ioTime]
	if x[result.TotalTime] != 0 {
		x[result.Efficiency] = x[result.ProductiveTime] / x[result.TotalTime]
	}
	x[result.InsuffParallelism] = sum.g[insufUsr] + sum.g[insuf]
	for c := range numCols {
		for o := range numOps {
			v := sum.ops[c][o]
			if c == colCalls {
				v = math.Ceil(v)
			}
			x[result.OpChar(opClass[o], opColumn[c])] = v
		}
	}
}
