package sweepreport

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// Source is what the report reads: *store.Store is one.
type Source interface {
	SweepReport(ctx context.Context, id int64) (*stored.SweepReport, error)
	Run(id int64) (*result.Run, error)
}

// Input is what the report of a sweep shows: the sweep with its runs, and
// the run whose lost-time breakdown is drawn.
type Input struct {
	Sweep *stored.SweepReport
	Run   *result.Run // one of Sweep.Configs
}

// Load reads the report's input of sweep sweepID from src: the run of the
// breakdown is opt.Run, or the fastest.
func Load(ctx context.Context, src Source, sweepID int64, opt Options) (*Input, error) {
	rep, err := src.SweepReport(ctx, sweepID)
	if err != nil {
		return nil, err
	}
	if len(rep.Configs) == 0 {
		return nil, fmt.Errorf("sweep %d: no runs stored yet (run or resume the sweep first)", sweepID)
	}
	cs, _ := configs(rep, opt.IncludeDoubtful)
	chosen, err := chooseRun(cs, opt.Run, sweepID)
	if err != nil {
		return nil, err
	}
	run, err := src.Run(chosen.RunID)
	if err != nil {
		return nil, fmt.Errorf("sweep %d: %w", sweepID, err)
	}
	return &Input{Sweep: rep, Run: run}, nil
}

// config is one run of the sweep: its configuration and headline numbers.
type config struct{ stored.SweepConfig }

// configs returns the configurations the report shows: the doubtful ones
// only with include (or when every one is), and how many it left out.
func configs(rep *stored.SweepReport, include bool) (cs []*config, leftOut int) {
	for _, c := range rep.Configs {
		if c.Doubtful && !include {
			leftOut++
			continue
		}
		cs = append(cs, &config{c})
	}
	if len(cs) == 0 {
		return configs(rep, true)
	}
	return cs, leftOut
}

// Cost is the processor time the configuration occupies.
func (c *config) Cost() float64 { return c.Time * float64(c.Procs) }

// Efficiency returns the stored efficiency, NaN when absent.
func (c *config) Efficiency() float64 {
	if !c.SweepConfig.Efficiency.Valid {
		return nan
	}
	return c.SweepConfig.Efficiency.V
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

// breakdown returns the intervals of run in pre-order from its report
// root (from Main when all is set or no root is recorded) with the values
// of barChars.
func breakdown(run *result.Run, all bool) []*interval {
	ivs := make([]*interval, len(run.Intervals))
	for k, iv := range run.Intervals {
		ivs[k] = &interval{ID: iv.ID, Level: iv.Level, Type: string(iv.Type), Line: iv.Line, File: iv.File,
			Values: make([]float64, len(barChars)), Lost: iv.Values[result.LostTime]}
		for i, c := range barChars {
			ivs[k].Values[i] = iv.Values[c]
		}
	}
	if all || run.ReportRoot == 0 {
		return ivs
	}
	return subtree(ivs, run.ReportRoot)
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
