package main

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/search"
)

type searchCmd struct {
	Trace      string  `help:"Stored trace (name or id)." required:""`
	Machine    string  `help:"Stored machine file (name or id)." default:"Predictor"`
	Procs      string  `help:"Processor counts a..b (default: 1..the machine's processors; the original's modes search 1..b)."`
	MaxRank    int     `name:"max-rank" help:"Largest grid rank of our search (default: the rank the trace distributes)."`
	AllGrids   bool    `name:"all-grids" help:"Keep the grids with trailing dimensions of 1 (2x1), whose results equal the shorter grid's."`
	Objective  string  `help:"What to optimise: time, efficiency or cost (time x processors)." enum:"time,efficiency,cost" default:"time"`
	Deadline   float64 `help:"Find the fewest processors whose execution time is at most this many seconds."`
	Mode       int     `help:"Run the original Predictor's search instead: 1 heuristic, 2 full over not-bad grids, 3 full, 5 = 1 then 2." enum:"0,1,2,3,5" default:"0"`
	First      string  `help:"Grid of the original's first run, its initial best (default 1)."`
	Top        int     `help:"Configurations printed." default:"10"`
	PerProcMax int     `name:"per-proc-max" help:"Write interval x processor rows only for runs of at most this many processors (0: always)." default:"64"`
	Workers    int     `help:"Configurations simulated at once (default: all cores)."`
	Log        bool    `help:"Print the original's search log (modes 1-5)."`
	Doubtful   bool    `name:"include-doubtful" help:"Rank the doubtful configurations too (outside the model's domain; left out by default)."`
}

func (c *searchCmd) Validate() error {
	return checkFlags(atLeast("--top", c.Top, 0), seconds("--deadline", c.Deadline), between("--max-rank", c.MaxRank, 0, 4),
		atLeast("--per-proc-max", c.PerProcMax, 0), atLeast("--workers", c.Workers, 0))
}

func (c *searchCmd) Run(ctx context.Context, g *Globals) error {
	req := stage.SearchRequest{Trace: c.Trace, Machine: c.Machine, MaxRank: c.MaxRank, Mode: c.Mode,
		Objective: search.Objective(c.Objective), Deadline: c.Deadline, PerProcMax: c.PerProcMax, AllGrids: c.AllGrids,
		Workers: c.Workers, Command: commandLine(), IncludeDoubtful: c.Doubtful}
	if c.Procs != "" {
		lo, hi, err := parseRange(c.Procs)
		if err != nil {
			return fmt.Errorf("--procs: %w", err)
		}
		req.Lo, req.Hi = lo, hi
	}
	if c.First != "" {
		first, err := result.ParseGrid(c.First)
		if err != nil {
			return fmt.Errorf("--first: %w", err)
		}
		req.First = first
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
	if c.Deadline > 0 {
		if s := rep.Smallest; s != nil {
			fmt.Printf("fewest processors meeting %g s: %s (%d processors), %.6f s\n", c.Deadline, s.Grid, s.Procs, s.Time)
		} else {
			fmt.Printf("no configuration meets %g s\n", c.Deadline)
		}
	}
	if n := rep.DoubtfulLeftOut; n > 0 {
		g.infof("doubtful configurations left out: %d (an array over more processors than its elements: docs/deviations.md); --include-doubtful ranks them", n)
	}
	fmt.Printf("search sweep %d: %d configurations evaluated, best by %s:\n", rep.SweepID, len(rep.Ranked), c.Objective)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "rank\tgrid\tprocs\ttime (s)\tefficiency\tcost (s)\trun\t")
	for i, o := range rep.Ranked[:min(c.Top, len(rep.Ranked))] {
		fmt.Fprintf(w, "%d\t%s\t%d\t%.6f\t%.4f\t%.6f\t%d\t\n", i+1, o.Grid, o.Procs, o.Time, o.Efficiency, o.Cost(), o.RunID)
	}
	return w.Flush()
}
