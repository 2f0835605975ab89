package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/search"
)

type searchCmd struct {
	Trace   string `help:"Stored trace (name or id)." required:""`
	Machine string `help:"Stored machine file (name or id)." default:"Predictor"`
	overrideFlags
	Procs      string  `help:"Processor counts a..b, the processor budget (default: 1..the machine's processors; the original's modes search 1..b)."`
	MaxRank    int     `name:"max-rank" help:"Largest grid rank of our search (default: the rank the trace distributes)."`
	AllGrids   bool    `name:"all-grids" help:"Keep the grids with trailing dimensions of 1 (2x1), whose results equal the shorter grid's."`
	Objective  string  `help:"What the ranking optimises: time, efficiency or cost (time x processors)." enum:"time,efficiency,cost" default:"time"`
	Deadline   float64 `help:"Answer among the configurations whose execution time is at most this many seconds."`
	MinEffic   float64 `name:"min-efficiency" help:"Answer among the configurations whose efficiency is at least this (0..1)."`
	PerCount   bool    `name:"per-count" help:"Also print the fastest grid of each processor count."`
	Mode       int     `help:"Run the original Predictor's search instead: 1 heuristic, 2 full over not-bad grids, 3 full, 5 = 1 then 2." enum:"0,1,2,3,5" default:"0"`
	First      string  `help:"Grid of the original's first run, its initial best (default 1)."`
	Top        int     `help:"Configurations printed." default:"10"`
	PerProcMax int     `name:"per-proc-max" help:"Write interval x processor rows only for runs of at most this many processors (0: always)." default:"64"`
	Workers    int     `help:"Configurations simulated at once (default: all cores)."`
	Log        bool    `help:"Print the original's search log (modes 1-5)."`
	Doubtful   bool    `name:"include-doubtful" help:"Rank the doubtful configurations too (outside the model's domain; left out by default)."`
}

func (c *searchCmd) Validate() error {
	if err := c.overrideFlags.check(); err != nil {
		return err
	}
	return checkFlags(atLeast("--top", c.Top, 0), seconds("--deadline", c.Deadline), fraction("--min-efficiency", c.MinEffic), between("--max-rank", c.MaxRank, 0, 4),
		atLeast("--per-proc-max", c.PerProcMax, 0), atLeast("--workers", c.Workers, 0))
}

func (c *searchCmd) Run(ctx context.Context, g *Globals) error {
	req, err := c.request(g)
	if err != nil {
		return err
	}
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	update, finish := g.sweepProgress()
	req.Progress = update
	rep, err := stage.Search(ctx, st, req)
	finish()
	if err != nil {
		return err
	}
	if o := rep.Original; o != nil {
		if c.Log {
			for _, l := range o.Log {
				fmt.Println(l)
			}
		}
		fmt.Printf("original search mode %d (MinSizesOfAM %v): best grid %s, execution time %.6f s; checked %d of %d (not-bad %d)\n",
			c.Mode, rep.MinSizes, result.GridString(o.Best), o.BestE, o.Checked, o.Variants, o.NotBad)
	}
	fmt.Printf("search sweep %d: %d configurations, %d of them stored before, %d simulated now\n", rep.SweepID, rep.Evaluated+rep.DoubtfulLeftOut, rep.Stored, rep.Simulated)
	for _, f := range rep.Failed {
		fmt.Fprintf(os.Stderr, "failed, left out: %s: %v\n", f.Config, f.Err)
	}
	if n := rep.DoubtfulLeftOut; n > 0 {
		g.infof("doubtful configurations left out: %d (an array over more processors than its elements: docs/deviations.md); --include-doubtful answers from them too", n)
	}
	if cs := c.constraints(); cs != "" {
		fmt.Printf("%d of %d meet %s\n", rep.Met, rep.Evaluated, cs)
	}
	if rep.Met == 0 {
		return nil
	}
	return c.printAnswers(rep)
}

// request is the search the flags ask for.
func (c *searchCmd) request(g *Globals) (stage.SearchRequest, error) {
	req := stage.SearchRequest{Trace: c.Trace, Machine: c.Machine, MaxRank: c.MaxRank, Mode: c.Mode, AllGrids: c.AllGrids,
		Objective:   search.Objective(c.Objective),
		Constraints: stage.Constraints{Deadline: c.Deadline, MinEfficiency: c.MinEffic},
		Overrides:   c.overrideFlags.config(), IncludeDoubtful: c.Doubtful,
		PerProcMax: c.PerProcMax, Workers: c.Workers, Command: commandLine(), Options: g.simOptions()}
	if c.Procs != "" {
		lo, hi, err := parseRange(c.Procs)
		if err != nil {
			return req, fmt.Errorf("--procs: %w", err)
		}
		req.Lo, req.Hi = lo, hi
	}
	if c.First != "" {
		first, err := result.ParseGrid(c.First)
		if err != nil {
			return req, fmt.Errorf("--first: %w", err)
		}
		req.First = first
	}
	return req, nil
}

// printAnswers prints the answers, the fastest grid of each count when
// asked, and the ranking, as aligned tables.
func (c *searchCmd) printAnswers(rep *stage.SearchReport) error {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := func(first string) { fmt.Fprintf(w, "%s\tgrid\tprocs\ttime (s)\tefficiency\tcost (s)\trun\t\n", first) }
	row := func(first string, o *stored.Outcome) {
		fmt.Fprintf(w, "%s\t%s\t%d\t%.6f\t%.4f\t%.6f\t%d\t\n", first, o.Grid, o.Procs, o.Time, o.Efficiency, o.Cost(), o.RunID)
	}
	header("answer")
	row("fastest", rep.Fastest)
	row("cheapest", rep.Cheapest)
	row("most efficient", rep.MostEfficient)
	row("fewest processors", rep.FewestProcs)
	row("most processors", rep.MostProcs)
	if err := w.Flush(); err != nil {
		return err
	}
	if c.PerCount {
		fmt.Printf("\nthe fastest grid of each processor count:\n")
		header("")
		for i := range rep.PerCount {
			row("", &rep.PerCount[i])
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	fmt.Printf("\nbest by %s:\n", c.Objective)
	header("rank")
	for i := range rep.Ranked[:min(c.Top, len(rep.Ranked))] {
		row(fmt.Sprint(i+1), &rep.Ranked[i])
	}
	return w.Flush()
}

// constraints describes the limits asked for, "" when none.
func (c *searchCmd) constraints() string {
	var l []string
	if c.Deadline > 0 {
		l = append(l, fmt.Sprintf("time ≤ %g s", c.Deadline))
	}
	if c.MinEffic > 0 {
		l = append(l, fmt.Sprintf("efficiency ≥ %g", c.MinEffic))
	}
	return strings.Join(l, " and ")
}
