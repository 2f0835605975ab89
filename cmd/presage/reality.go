package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/presage-dvm/presage/exports/realityreport"
	"github.com/presage-dvm/presage/exports/textreport"
	"github.com/presage-dvm/presage/internal/hostprobe"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/machine"
)

// realityCmd is the DVM reality check: real runs of the DVM system (devdvm's
// output folders, or a user's own in the same layout) against Presage's
// predictions, and Presage's reports against the original's on the same
// fresh files (docs/compare.md, "The DVM reality check").
type realityCmd struct {
	Dirs       []string `arg:"" name:"dir" help:"Folders in devdvm's layout (run.sh OUT), one round each: NAME.ptr.gz, NAME.GRID.sts.gz+, extra/pred/NAME.GRID.html, extra/pa/NAME.GRID.txt." type:"existingdir"`
	Machine    string   `help:"Machine file of the original-compatible prediction (default: the Predictor.par the first folder holds, if any; devdvm's run.sh copies none: give the one its reports were made with, e.g. ../shared/data/machines/Predictor.par)." type:"existingfile" placeholder:"FILE.par"`
	Intervals  string   `help:"Rows: all (every interval matched between the measured and predicted runs) or main (Main only)." enum:"all,main" default:"all"`
	NoExtended bool     `help:"Leave out the extended column (a leave-one-out fit per program and grid) and the leave-one-out across programs and sizes."`
	// BoundReportOnly is CI's: on its shared machine the rounds of two
	// processes spread more than the bound from one day to the next.
	BoundReportOnly bool `help:"List the runs the extended model misses beyond 10% (and the rounds' spread) without failing on them; a report that differs from the original's still fails."`
	// MinWithin keeps --bound-report-only able to fail: a model or a fit
	// that broke predicts most runs as the original-compatible model does
	// (2 to 5 of 12 within the bound on devdvm's check), a noisy round one
	// to five runs fewer than usual (docs/compare.md, "The CI step").
	MinWithin int `help:"Fail when fewer than N runs (Main) are predicted by the extended model within 10% or the rounds' spread, --bound-report-only or not." placeholder:"N"`
	// IOByte prices the extended model's I/O copy time for the fits that
	// cannot (runs of one size, docs/compare.md "The extended model").
	IOByte float64 `name:"iobyte" help:"I/O copy time in nanoseconds per byte that the fits of runs of one size keep, fitting the run work beside it (they cannot tell the two apart), priced on other runs, e.g. a check of two sizes (default: the machine file's iobyte statement; without one they fit the I/O copy time alone, with no run work)." placeholder:"NS"`
	// FreshPage prices the extended model's fresh page time: by default a
	// micro-benchmark of this host, which is the runs' host when the check
	// runs where devdvm ran (docs/compare.md, "The extended model").
	FreshPage *float64 `name:"fresh-page" help:"Fresh page time of the host the runs ran on, in microseconds per 4 KB page (default: measured on this host, which must then be that host; 0 leaves the term out)." placeholder:"US"`
	JSON      bool     `help:"Write the check as JSON instead of the table." xor:"format"`
	CSV       bool     `help:"Write the table's rows as CSV instead of the table." xor:"format"`
	hostFlags
}

// Run ingests the rounds, predicts, prints the table and fails when a
// report of Presage's differs from the original's, when the extended
// model predicts fewer runs than MinWithin within realityreport.Bound (and
// the rounds' spread), or, without BoundReportOnly, misses any.
func (c *realityCmd) Run(ctx context.Context, g *Globals) error {
	req, err := c.request()
	if err != nil {
		return err
	}
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	req.Analyzer = func(ctx context.Context, runID int64, original string) ([]string, error) {
		return analyzerDiffs(ctx, st, runID, original)
	}
	req.Progress = g.infof
	r, err := stage.DVMReality(ctx, st, req)
	if err != nil {
		return err
	}
	if c.Intervals == "main" {
		rows := r.Rows[:0]
		for _, row := range r.Rows {
			if row.Depth == 0 {
				rows = append(rows, row)
			}
		}
		r.Rows = rows
	}
	w := bufio.NewWriter(os.Stdout)
	write := realityreport.WriteText
	switch {
	case c.JSON:
		write = realityreport.WriteJSON
	case c.CSV:
		write = realityreport.WriteCSV
	}
	if err := write(w, r); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if bad := r.Mismatches(); len(bad) > 0 {
		var files []string
		for _, b := range bad {
			files = append(files, b.Original)
		}
		return fmt.Errorf("reality: %d of %d reports differ from the original's: %s", len(bad), len(r.Reports), strings.Join(files, ", "))
	}
	if !req.Extended {
		return nil
	}
	if _, within, runs := r.Within(realityreport.Bound); within < c.MinWithin {
		return fmt.Errorf("reality: the extended model predicts %d of %d runs within %.0f%% of the measured median or the rounds' spread, fewer than --min-within %d",
			within, runs, 100*realityreport.Bound, c.MinWithin)
	}
	miss := r.ExtendedMisses(realityreport.Bound)
	if len(miss) == 0 {
		return nil
	}
	var runs []string
	for _, m := range miss {
		runs = append(runs, fmt.Sprintf("%s on %s (%+.1f%%)", m.Trace, m.Grid, 100*m.RelExtended()))
	}
	err = fmt.Errorf("reality: the extended model predicts %d run(s) beyond %.0f%% of the measured median and the rounds' spread: %s",
		len(miss), 100*realityreport.Bound, strings.Join(runs, ", "))
	if c.BoundReportOnly {
		fmt.Fprintf(os.Stderr, "presage: %v (reported, not failed: --bound-report-only)\n", err)
		return nil
	}
	return err
}

// request resolves the machine and the host: the flags, else what the
// first folder says (its Predictor.par, its sysinfo.txt's nproc).
func (c *realityCmd) request() (stage.RealityRequest, error) {
	req := stage.RealityRequest{Dirs: c.Dirs, Machine: c.Machine, Extended: !c.NoExtended, IOByte: c.IOByte / 1e9}
	if err := machine.IOByteRange.Check(req.IOByte); err != nil {
		return req, fmt.Errorf("reality: --iobyte %v: %s", c.IOByte, machine.IOByteRange.Want(1e9, "nanoseconds per byte"))
	}
	if req.Machine == "" {
		if req.Machine = stage.DefaultRealityMachine(c.Dirs[0]); req.Machine == "" {
			return req, fmt.Errorf("reality: %s holds no Predictor.par: give --machine FILE.par (the machine file the original's reports were made with)", c.Dirs[0])
		}
	}
	host, described, err := c.host()
	if err != nil {
		return req, err
	}
	if !described {
		n := stage.RealityCores(c.Dirs[0])
		if n == 0 && req.Extended {
			return req, fmt.Errorf("reality: %s/sysinfo.txt gives no \"nproc: N\": describe the host the runs ran on (--cores-per-node N), or --no-extended", c.Dirs[0])
		}
		host.Nodes, host.CoresPerNode, host.Network = 1, max(n, 1), c.Network
	}
	req.Host = host
	if req.Extended {
		if req.FreshPage, err = c.freshPage(); err != nil {
			return req, err
		}
	}
	return req, nil
}

// freshPage is the fresh page time the extended model prices: the flag's,
// else measured on this host.
func (c *realityCmd) freshPage() (float64, error) {
	if c.FreshPage != nil {
		s := *c.FreshPage / 1e6
		if err := machine.FreshPageRange.Check(s); err != nil {
			return 0, fmt.Errorf("reality: --fresh-page %v: %s", *c.FreshPage, machine.FreshPageRange.Want(1e6, "microseconds per page"))
		}
		return s, nil
	}
	s, err := hostprobe.FreshPage()
	if err != nil {
		return 0, fmt.Errorf("reality: %w (--fresh-page US)", err)
	}
	return s, nil
}

// analyzerDiffs renders Presage's analyzer report of a stored measured run
// and compares it with the original's file as the golden test does
// (textreport.DiffOriginal).
func analyzerDiffs(ctx context.Context, st *store.Store, runID int64, original string) ([]string, error) {
	want, err := os.ReadFile(original)
	if err != nil {
		return nil, err
	}
	rep, err := textreport.Load(ctx, st, runID)
	if err != nil {
		return nil, err
	}
	var got bytes.Buffer
	if err := textreport.Render(&got, rep, textreport.Options{}); err != nil {
		return nil, err
	}
	return textreport.DiffOriginal(got.String(), string(want)), nil
}
