package sweep

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/sim/result"
)

// Estimate is what a sweep would write, extrapolated from one simulated
// configuration.
type Estimate struct {
	Configs  int   // configurations selected (after sharding)
	Skipped  int   // left out for exceeding a machine's processors
	Calls    int64 // call simulations: configurations x traced calls
	Rows     int64 // rows of runs, intervals, interval_values, interval_stats, interval_proc_values
	PerProc  int64 // of which interval_proc_values
	Sample   string
	SampleIV int // intervals of the sample run
}

// EstimateRows simulates the first selected configuration and
// extrapolates: every run writes one runs row, one row per interval, one
// interval_values row per interval and characteristic, the sample's
// non-zero comparative rows, and (up to PerProcMax processors) its average
// of non-zero per-processor values per processor times the processors.
// It counts the configurations by group (Plan.Groups), never lists them.
func (p *Plan) EstimateRows(ctx context.Context, shard, shards int) (Estimate, error) {
	if shards > 1 && (shard < 0 || shard >= shards) {
		return Estimate{}, fmt.Errorf("shard %d/%d: expected 0 <= I < N", shard, shards)
	}
	est := Estimate{Skipped: p.Skipped}
	var first *Config
	selected := make([]int64, len(p.Groups))
	for k, g := range p.Groups {
		n, at := inShard(g, shard, shards)
		selected[k] = n
		est.Configs += int(n)
		if first == nil && n > 0 {
			c := p.Def.config(g, at)
			first = &c
		}
	}
	est.Calls = int64(est.Configs) * int64(p.Program.Calls())
	if first == nil {
		return est, nil
	}
	run, err := p.Simulate(ctx, *first)
	if err != nil {
		return est, err
	}
	est.Sample, est.SampleIV = p.Describe(*first), len(run.Intervals)
	stats, perProcVals := rowShape(run)
	nIV := int64(len(run.Intervals))
	for k, g := range p.Groups {
		n := selected[k]
		est.Rows += n * (1 + nIV*(1+int64(result.NumChars)) + stats)
		if procs := (Config{Grid: g.Grid}).Procs(); p.Def.PerProcMax == 0 || procs <= p.Def.PerProcMax {
			rows := n * int64(perProcVals*float64(procs))
			est.Rows += rows
			est.PerProc += rows
		}
	}
	return est, nil
}

// inShard counts the configurations of g in shard i of n (Shard's
// selection: position i modulo n; n 0 or 1: all) and returns the first
// one's position.
func inShard(g Group, i, n int) (count int64, first int) {
	if n <= 1 {
		return int64(g.Count), g.First
	}
	first = g.First + ((i-g.First%n)%n+n)%n
	if first >= g.First+g.Count {
		return 0, 0
	}
	return int64((g.First+g.Count-1-first)/n + 1), first
}

// rowShape counts the comparative rows of a run and its per-processor rows
// per processor, as the store writes them (zeros left out except the
// execution time).
func rowShape(run *result.Run) (stats int64, perProc float64) {
	var procRows, procs int64
	for _, iv := range run.Intervals {
		all, _ := iv.Comparatives()
		for _, s := range all {
			if s.Min != 0 || s.Max != 0 {
				stats++
			}
		}
		for _, pv := range iv.Procs {
			procs++
			for c, v := range pv.Values {
				if v != 0 || result.Char(c) == result.ExecutionTime {
					procRows++
				}
			}
		}
	}
	if procs == 0 {
		return stats, 0
	}
	return stats, float64(procRows) / float64(procs) * float64(len(run.Intervals))
}
