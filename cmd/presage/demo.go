package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/presage-dvm/presage/exports/htmlreport"
	"github.com/presage-dvm/presage/exports/sweepreport"
	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/outfile"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

//go:embed demo.par
var demoMachine []byte

type demoCmd struct {
	Dir   string `help:"Directory for the generated trace, machine file and reports." default:"presage-demo" type:"path"`
	Procs int    `help:"Sweep the grids of 1..N processors (rank up to 2)." default:"64"`
	Grid  string `help:"Grid of the run report and of the table's last line." default:"8x8"`
	outputFlags
}

func (c *demoCmd) Validate() error { return checkFlags(between("--procs", c.Procs, 1, 1024)) }

// demoTable are the grids the demo prints, up to its --grid.
var demoTable = []string{"1", "2", "2x2", "4x4", "8x8", "16x16", "32x32"}

// Run generates a Jacobi trace with intervals and the demo machine,
// ingests them, sweeps every grid of 1..--procs processors and writes the
// run report of --grid and the sweep report. Running it again finds
// everything stored (the files have the same bytes, the sweep the same
// definition) and only writes the reports again.
func (c *demoCmd) Run(ctx context.Context, g *Globals) error {
	grid, err := result.ParseGrid(c.Grid)
	if err != nil {
		return fmt.Errorf("--grid: %w", err)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	guard := g.outputs(c.Force)
	tracePath := filepath.Join(c.Dir, "jacobi.ptr")
	if err := guard.WriteFile(ctx, outfile.Target{Path: tracePath, Kind: kindTrace}, func(w io.Writer) error {
		_, err := tracegen.Write(w, tracegen.Options{Program: tracegen.Jacobi, N: 2000, Iterations: 100, Intervals: true, Seed: 1})
		return err
	}); err != nil {
		return err
	}
	machinePath := filepath.Join(c.Dir, "demo.par")
	if err := guard.WriteFile(ctx, outfile.Target{Path: machinePath, Kind: kindDemoMachine}, func(w io.Writer) error {
		_, err := w.Write(demoMachine)
		return err
	}); err != nil {
		return err
	}
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	tr, err := ingest.Trace(ctx, st, tracePath, nil)
	if err != nil {
		return err
	}
	m, err := ingest.Machine(ctx, st, machinePath)
	if err != nil {
		return err
	}
	g.infof("store %s: trace %s (%d calls), machine %s (%d processors)", g.DB, tr.Name, tr.Calls, m.Name, m.Processors)
	plan, err := stage.PlanSweep(ctx, st, stage.SweepRequest{Trace: tr.Name, Machines: []string{m.Name},
		Procs: stage.ProcRange{Lo: 1, Hi: c.Procs, MaxRank: 2}, PerProcMax: 64, Options: g.simOptions()})
	if err != nil {
		return err
	}
	update, finish := g.sweepProgress()
	sum, err := stage.Sweep(ctx, st, plan, stage.SweepOptions{Progress: update, Command: commandLine()})
	finish()
	if err == nil {
		err = failures(sum)
	}
	if err != nil {
		return err
	}
	g.infof("sweep %d: %d grids of 1..%d processors (%d already stored, %s%d predicted)", sum.SweepID, sum.Selected, c.Procs, sum.Existing, copiedNote(sum.Reused), sum.Ran)
	outcomes, err := st.SweepOutcomes(ctx, sum.SweepID)
	if err != nil {
		return err
	}
	byGrid := map[string]stored.Outcome{}
	for _, o := range outcomes {
		byGrid[o.Grid] = o
	}
	if err := printDemoTable(byGrid, result.GridString(grid)); err != nil {
		return err
	}
	chosen, ok := byGrid[result.GridString(grid)]
	if !ok {
		return fmt.Errorf("--grid %s: not among the sweep's grids of 1..%d processors", c.Grid, c.Procs)
	}
	run, err := st.Run(chosen.RunID)
	if err != nil {
		return err
	}
	sample, err := stage.StoreTimeline(ctx, st, run)
	if err != nil {
		return err
	}
	runReport := filepath.Join(c.Dir, defaultReportName(run, ".html"))
	if err := guard.WriteFile(ctx, htmlTarget("", runReport), func(w io.Writer) error {
		return htmlreport.Write(w, run, htmlreport.Options{Timeline: sample})
	}); err != nil {
		return err
	}
	sweepReport := filepath.Join(c.Dir, fmt.Sprintf("sweep-%d.html", sum.SweepID))
	if err := guard.WriteFile(ctx, htmlTarget("", sweepReport), func(w io.Writer) error {
		in, err := sweepreport.Load(ctx, st, sum.SweepID, sweepreport.Options{})
		if err != nil {
			return err
		}
		return sweepreport.Write(w, in, sweepreport.Options{})
	}); err != nil {
		return err
	}
	for _, r := range []struct{ what, path string }{{fmt.Sprintf("run %d (%s)", run.ID, c.Grid), runReport}, {fmt.Sprintf("sweep %d", sum.SweepID), sweepReport}} {
		abs, _ := filepath.Abs(r.path)
		fmt.Printf("HTML report of %s: %s\n", r.what, abs)
	}
	printNextSteps(g.DB, run.ID, sum.SweepID)
	return nil
}

// printNextSteps says what to try after the demo, on the store it made.
func printNextSteps(db string, run, sweep int64) {
	fmt.Printf("\nNext, on this store (add --db %[1]s, or export PRESAGE_DB=%[1]s):\n", db)
	for _, step := range [][2]string{
		{"presage list runs", "the runs stored, with their times"},
		{fmt.Sprintf("presage query --name top_lost --param run=%d", run), fmt.Sprintf("where run %d loses its time, interval by interval", run)},
		{fmt.Sprintf("presage report html --sweep %d", sweep), "the sweep's charts of time, efficiency and speedup"},
		{"presage export parquet --out results", "every run, for pandas or DuckDB"},
		{"presage predict TRACE.ptr --machine MACHINE.par --grid 2x2", "your own program"},
	} {
		fmt.Printf("  %-58s %s\n", step[0], step[1])
	}
}

// printDemoTable prints the demo's grids up to last from the sweep.
func printDemoTable(byGrid map[string]stored.Outcome, last string) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tgrid\tprocessors\texecution time (s)\tspeedup\tefficiency\t")
	t1 := byGrid["1"].Time
	for _, gs := range demoTable {
		o, ok := byGrid[gs]
		if !ok {
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.6f\t%.2f\t%.4f\t\n", o.RunID, gs, o.Procs, o.Time, t1/o.Time, o.Efficiency)
		if gs == last {
			break
		}
	}
	return tw.Flush()
}
