package sweep

import (
	"context"

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
func (p *Plan) EstimateRows(ctx context.Context, shard, shards int) (Estimate, error) {
	sel, err := Shard(p.Configs, shard, shards)
	if err != nil {
		return Estimate{}, err
	}
	est := Estimate{Configs: len(sel), Skipped: p.Skipped, Calls: int64(len(sel)) * int64(p.Program.Calls())}
	if len(sel) == 0 {
		return est, nil
	}
	run, err := p.Simulate(ctx, sel[0])
	if err != nil {
		return est, err
	}
	est.Sample, est.SampleIV = p.Describe(sel[0]), len(run.Intervals)
	stats, perProcVals := rowShape(run)
	nIV := int64(len(run.Intervals))
	for _, c := range sel {
		est.Rows += 1 + nIV*(1+int64(result.NumChars))
		est.Rows += stats
		if p.Def.PerProcMax == 0 || c.Procs() <= p.Def.PerProcMax {
			n := int64(perProcVals * float64(c.Procs()))
			est.Rows += n
			est.PerProc += n
		}
	}
	return est, nil
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
