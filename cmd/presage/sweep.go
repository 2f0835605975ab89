package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/presage-dvm/presage/internal/stage"
)

type sweepCmd struct {
	Trace      string `help:"Stored trace (name or id)." required:""`
	Machine    string `help:"Stored machine files, comma-separated (name or id)." default:"Predictor"`
	Procs      string `help:"Processor counts: range 1..64, geometric 1..1024:*2, step 2..64:2 or list 1,2,4; every grid of up to --max-rank dimensions of each count." xor:"grids"`
	MaxRank    int    `name:"max-rank" help:"Largest grid rank enumerated for --procs." default:"2"`
	AllGrids   bool   `name:"all-grids" help:"With --procs, keep the grids with trailing dimensions of 1 (2x1, 2x2x1), whose results equal the shorter grid's."`
	Grids      string `help:"Grids, comma-separated, e.g. 2x2,4x4,8x8." xor:"grids"`
	TStart     string `name:"tstart" help:"Start-up times (microseconds, at most 1e7): list a,b,c or range a..b:step."`
	TByte      string `name:"tbyte" help:"Times per byte (microseconds, at most 1e6): list or range a..b:step."`
	Power      string `help:"Processor powers (0.001 to 100): list or range a..b:step."`
	Network    string `help:"Network models, comma-separated: cluster (the default), bus, mesh."`
	PerProcMax int    `name:"per-proc-max" help:"Write interval x processor rows only for runs of at most this many processors (0: always)." default:"64"`
	Workers    int    `help:"Configurations simulated at once (default: all cores)."`
	DryRun     bool   `name:"dry-run" help:"Print the number of configurations and of rows to write, and stop."`
	Shard      string `help:"Run shard I/N of the configurations (index mod N = I), e.g. 3/16."`
}

func (c *sweepCmd) Validate() error {
	return checkFlags(between("--max-rank", c.MaxRank, 1, 4), atLeast("--per-proc-max", c.PerProcMax, 0),
		atLeast("--workers", c.Workers, 0))
}

func (c *sweepCmd) request() (stage.SweepRequest, error) {
	req := stage.SweepRequest{Trace: c.Trace, Machines: parseNames(c.Machine), PerProcMax: c.PerProcMax,
		Networks: parseNames(c.Network)}
	var err error
	switch {
	case c.Grids != "":
		req.Grids, err = parseGrids(c.Grids)
	case c.Procs != "":
		req.Procs = stage.ProcRange{MaxRank: c.MaxRank, AllGrids: c.AllGrids}
		if lo, hi, rangeErr := parseRange(c.Procs); rangeErr == nil {
			req.Procs.Lo, req.Procs.Hi = lo, hi
		} else if req.Procs.Counts, err = parseInts(c.Procs); err != nil {
			return req, fmt.Errorf("--procs: %w", err)
		}
	default:
		err = fmt.Errorf("give --procs a..b or --grids")
	}
	if err != nil {
		return req, err
	}
	lists := []struct {
		flag, val string
		per       float64
		dst       *[]float64
	}{{"--tstart", c.TStart, 1e6, &req.TStart}, {"--tbyte", c.TByte, 1e6, &req.TByte}, {"--power", c.Power, 1, &req.Power}}
	for _, l := range lists {
		if l.val == "" {
			continue
		}
		if *l.dst, err = parseFloats(l.val, l.per); err != nil {
			return req, fmt.Errorf("%s: %w", l.flag, err)
		}
		for _, v := range *l.dst {
			if err := checkPhysical(l.flag, v*l.per); err != nil {
				return req, err
			}
		}
	}
	return req, nil
}

func (c *sweepCmd) Run(ctx context.Context, g *Globals) error {
	req, err := c.request()
	if err != nil {
		return err
	}
	req.Options, req.CountOnly = g.simOptions(), c.DryRun
	shard, shards, err := parseShard(c.Shard)
	if err != nil {
		return err
	}
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	plan, err := stage.PlanSweep(ctx, st, req)
	if err != nil {
		return err
	}
	if plan.ProcsAbove > 0 {
		g.infof("--procs %s: counts above %d, the largest machine's processors, left out", c.Procs, plan.ProcsAbove)
	}
	if plan.Skipped > 0 {
		g.infof("%d configurations skipped: grid larger than the machine", plan.Skipped)
	}
	if c.DryRun {
		est, err := plan.EstimateRows(ctx, shard, shards)
		if err != nil {
			return err
		}
		fmt.Printf("%d configurations (%d skipped), %d call simulations, about %d rows (%d per-processor)\n",
			est.Configs, est.Skipped, est.Calls, est.Rows, est.PerProc)
		return nil
	}
	update, finish := g.sweepProgress()
	sum, err := stage.Sweep(ctx, st, plan, stage.SweepOptions{
		Workers: c.Workers, Shard: shard, Shards: shards, Command: commandLine(),
		Progress: update,
	})
	finish()
	if err != nil {
		if sum.Ran > 0 {
			g.infof("sweep %d: %d configurations stored before stopping; run the same command to resume", sum.SweepID, sum.Ran)
		}
		return err
	}
	if sum.SweepID != 0 { // 0: every configuration failed, and the sweep's row went
		fmt.Printf("sweep %d: %d configurations (%d already stored, %s%d run), %d call simulations in %.1f s\n",
			sum.SweepID, sum.Selected, sum.Existing, copiedNote(sum.Reused), sum.Ran, sum.Calls, sum.Elapsed.Seconds())
	}
	return failures(sum)
}

// failures reports, one line each, the configurations a sweep went on
// without, and makes the command fail when there were some.
func failures(sum stage.SweepSummary) error {
	for _, f := range sum.Failed {
		fmt.Fprintf(os.Stderr, "failed: %s: %v\n", f.Config, f.Err)
	}
	if n := len(sum.Failed); n > 0 && sum.SweepID == 0 {
		return fmt.Errorf("sweep: all %d configurations failed, over a limit of the simulator: nothing stored (--max-memory raises the limit)", n)
	}
	if n := len(sum.Failed); n > 0 {
		return fmt.Errorf("sweep %d: %d of %d configurations failed, over a limit of the simulator (the others are stored; --max-memory raises the limit)", sum.SweepID, n, sum.Selected)
	}
	return nil
}

// copiedNote says how many configurations a sweep copied from the
// store's earlier predictions, when it did.
func copiedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d copied from predictions stored before, ", n)
}

// parseShard reads "I/N"; "" means no sharding.
func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: expected I/N with 0 <= I < N", s)
	}
	return i, n, nil
}

// commandLine is the command as typed, recorded with a new sweep.
func commandLine() string {
	return strings.Join(os.Args, " ")
}
