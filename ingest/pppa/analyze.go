package pppa

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/schema/stored"
)

// Reader-side sizes: wider writer values lose their high-order bytes.
const (
	readerLong    = 8
	readerPointer = 8
)

// Analyze computes the analyzer's characteristics of f; name is the
// file's stored name, and the run's program is that name without its grid
// (ProgramName).
func Analyze(f *sts.File, name string) (*stored.StsAnalysis, error) {
	if len(f.Procs) == 0 {
		return nil, fmt.Errorf("%s: no processor buffers", f.Name)
	}
	h0 := f.Procs[0].Header
	a := &stored.StsAnalysis{Grid: h0.Grid, Version: h0.Version, Platform: h0.Platform, Warnings: warnings(f)}
	for _, p := range f.Procs {
		a.SmallBuff = a.SmallBuff || p.Header.SmallBuff
		a.Procs = append(a.Procs, stored.StsProc{Name: p.Header.ProcName, TestTime: p.Header.ProcTime, Threads: p.Header.DVMH.Threads})
	}
	vals := make([][]values, len(f.Procs))
	ev := make([]*events, len(f.Procs))
	for p := range f.Procs {
		ivs := f.Procs[p].Intervals
		vals[p] = make([]values, len(ivs))
		for k := range ivs {
			vals[p][k] = fromMatrix(&ivs[k])
		}
		ev[p] = indexEvents(f.Procs[p].Times)
	}
	groups := match(f.Procs)
	for _, g := range groups {
		if !complete(g, f.Procs) {
			// Processors disagree on where the interval ran: the analyzer
			// computes no synchronisation, variation or overlap for it.
			continue
		}
		if err := synchronize(g, ev, vals, a.SmallBuff); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	for p := range f.Procs {
		rollUp(f.Procs[p].Intervals, vals[p])
	}
	for _, g := range groups {
		idleAndImbalance(g, f.Procs, vals)
	}
	a.Run = buildRun(f, ProgramName(name, len(f.Procs)), groups, vals, a.Procs)
	for _, iv := range a.Run.Intervals {
		if c, v, ok := iv.NonFinite(); ok {
			return nil, fmt.Errorf("%s: %s of interval %s:%d is %v: expected finite times in the file (damaged numbers such as NaN, Inf or 1e308)",
				f.Name, c, iv.File, iv.Line, v)
		}
	}
	for _, g := range groups {
		iv := &f.Procs[g.members[0].proc].Intervals[g.members[0].num-1]
		info := stored.StsIntervalSums{TypeCode: iv.Type, LineEnd: iv.LineEnd}
		for _, mb := range g.members {
			v := &vals[mb.proc][mb.num-1]
			info.Sums = append(info.Sums, stored.ProcSums{Proc: mb.proc, Rows: v.rows, Cols: v.cols})
		}
		a.Intervals = append(a.Intervals, info)
	}
	return a, nil
}

// complete reports whether the group was found on as many processors as
// each of them says executed it.
func complete(g group, procs []sts.Proc) bool {
	for _, mb := range g.members {
		if procs[mb.proc].Intervals[mb.num-1].QProc != int64(len(g.members)) {
			return false
		}
	}
	return true
}

// warnings are the header conditions the analyzer reports with "!!".
func warnings(f *sts.File) []string {
	var w []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			w = append(w, s)
		}
	}
	for _, p := range f.Procs {
		h := p.Header
		if h.SizeLong > readerLong || h.SizePointer > readerPointer {
			add("Number of operation may be incorrect. Data size not equal.")
		}
		if h.SmallBuff {
			add("Not all times of collective operations were accumulated")
		}
	}
	return w
}

// rollUp adds every interval into its parent, deepest level first, after
// finishing it (docs/model.md §10.6).
func rollUp(ivs []sts.Interval, v []values) {
	deepest := 0
	for k := range ivs {
		deepest = max(deepest, ivs[k].Level)
	}
	for lev := deepest; lev >= 1; lev-- {
		for k := range ivs {
			if ivs[k].Level != lev {
				continue
			}
			v[k].finish(ivs[k].QProc)
			if up := ivs[k].Up; up != 0 {
				v[up-1].add(&v[k])
			}
		}
	}
	for k := range ivs {
		if ivs[k].Level == 0 {
			v[k].finish(ivs[k].QProc)
		}
	}
}

// idleAndImbalance computes idle time and load imbalance of a matched
// group on the rolled-up values.
func idleAndImbalance(g group, procs []sts.Proc, vals [][]values) {
	n := float64(len(g.members))
	vs := make([]*values, len(g.members))
	consistent := true
	for j, mb := range g.members {
		vs[j] = &vals[mb.proc][mb.num-1]
		if vs[j].g[proc] != n {
			consistent = false
		}
	}
	if !consistent {
		for _, v := range vs {
			v.g[idle], v.g[lost], v.g[imb], v.g[proc] = 0, 0, 0, 0
		}
		return
	}
	emax, cmax := math.Inf(-1), math.Inf(-1)
	for _, v := range vs {
		emax = max(emax, v.g[exec])
		cmax = max(cmax, v.g[cpuSys]+v.g[cpuUsr])
	}
	for _, v := range vs {
		if d := emax - v.g[exec]; d > 0 {
			v.g[idle] += d
			v.g[lost] += d
		}
		if d := cmax - (v.g[cpuSys] + v.g[cpuUsr]); d > 0 {
			v.g[imb] += d
		}
	}
}
