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
	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/sim/result"
)

//go:embed demo.par
var demoMachine []byte

type demoCmd struct {
	Dir   string   `help:"Directory for the generated trace, machine file and report." default:"presage-demo" type:"path"`
	Grids []string `help:"Grids to predict." default:"1,2,2x2,4x4,8x8"`
}

// Run generates a Jacobi trace with intervals, ingests it with the demo
// machine, predicts every grid and writes the report of the largest one.
func (c *demoCmd) Run(ctx context.Context, g *Globals) error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	tracePath := filepath.Join(c.Dir, "jacobi.ptr")
	if _, err := tracegen.WriteFile(tracePath, tracegen.Options{
		Program: tracegen.Jacobi, N: 2000, Iterations: 100, Intervals: true, Seed: 1,
	}); err != nil {
		return err
	}
	machinePath := filepath.Join(c.Dir, "demo.par")
	if err := os.WriteFile(machinePath, demoMachine, 0o644); err != nil {
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

	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tgrid\tprocessors\texecution time (s)\tspeedup\tefficiency\t")
	var last *result.Run
	var t1 float64
	for _, gs := range c.Grids {
		grid, err := result.ParseGrid(gs)
		if err != nil {
			return err
		}
		run, err := stage.PredictOne(ctx, st, stage.PredictRequest{
			Trace: tr.Name, Machine: m.Name, Config: result.Config{Grid: grid},
		})
		if err != nil {
			return err
		}
		v := run.Intervals[0].Values
		if t1 == 0 {
			t1 = v[result.ExecutionTime]
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.6f\t%.2f\t%.4f\t\n", run.ID, gs, run.Config.Procs(),
			v[result.ExecutionTime], t1/v[result.ExecutionTime], v[result.Efficiency])
		last = run
	}
	tw.Flush()
	// The report is made from the store, as `presage report html` does.
	last, err = st.Run(last.ID)
	if err != nil {
		return err
	}
	out := filepath.Join(c.Dir, defaultReportName(last, ".html"))
	if err := writeFileAtomic(out, func(w io.Writer) error {
		return htmlreport.Write(w, last, htmlreport.Options{})
	}); err != nil {
		return err
	}
	abs, _ := filepath.Abs(out)
	fmt.Printf("HTML report of run %d: %s\n", last.ID, abs)
	return nil
}
