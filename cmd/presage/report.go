package main

import (
	"context"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/exports/htmlreport"
	"github.com/presage-dvm/presage/exports/jsonreport"
	"github.com/presage-dvm/presage/exports/sweepreport"
	"github.com/presage-dvm/presage/exports/textreport"
	"github.com/presage-dvm/presage/internal/outfile"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

type reportCmd struct {
	HTML htmlCmd `cmd:"" name:"html" help:"HTML report of a predicted run (the Predictor's report)."`
	JSON jsonCmd `cmd:"" name:"json" help:"The report's content as JSON."`
	Text textCmd `cmd:"" help:"Text report of a measured run (the analyzer's report)."`
}

type runRef struct {
	Run string `help:"Run number or 'latest'." default:"latest"`
}

// load resolves --run and loads the run.
func (r runRef) load(st *store.Store) (*result.Run, error) {
	id, err := st.ResolveRun(r.Run)
	if err != nil {
		return nil, err
	}
	return st.Run(id)
}

type htmlCmd struct {
	runRef
	Sweep           int64  `help:"Report a sweep (charts of time, efficiency and speedup vs processors) instead of one run."`
	IncludeDoubtful bool   `help:"With --sweep, show the doubtful configurations too (outside the model's domain; left out by default)."`
	Out             string `help:"Output file (default: PROGRAM.MACHINE.GRID.html, or sweep-ID.html); an existing one is replaced only if it is a Presage HTML report, or with --force." type:"path"`
	All             bool   `help:"Start from Main rather than from the interval the original starts from."`
	outputFlags
}

func (c *htmlCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if c.Sweep != 0 {
		return c.sweepReport(ctx, g, st)
	}
	run, err := c.load(st)
	if err != nil {
		return err
	}
	out := htmlTarget(c.Out, defaultReportName(run, ".html"))
	guard := g.outputs(c.Force)
	if err := guard.Check(out); err != nil {
		return err
	}
	opt := htmlreport.Options{AllIntervals: c.All}
	if opt.Timeline, err = st.RunTimeline(ctx, run.ID); err != nil {
		return err
	}
	if opt.Timeline == nil && run.Kind == result.Predicted && run.TraceID != 0 {
		g.infof("run %d has no stored per-processor picture (runs of sweeps, and runs predicted before this version, have none): presage export timeline --run %d draws its timeline", run.ID, run.ID)
	}
	if err := guard.WriteFile(ctx, out, func(w io.Writer) error {
		return htmlreport.Write(w, run, opt)
	}); err != nil {
		return err
	}
	g.infof("report of run %d written to %s", run.ID, out.Path)
	return nil
}

func (c *htmlCmd) sweepReport(ctx context.Context, g *Globals, st *store.Store) error {
	out := htmlTarget(c.Out, fmt.Sprintf("sweep-%d.html", c.Sweep))
	guard := g.outputs(c.Force)
	opt := sweepreport.Options{AllIntervals: c.All, IncludeDoubtful: c.IncludeDoubtful}
	// Loaded first: an unknown sweep is an error about the sweep, not
	// about a file that was never to be written.
	in, err := sweepreport.Load(ctx, st, c.Sweep, opt)
	if err != nil {
		return err
	}
	if err := guard.WriteFile(ctx, out, func(w io.Writer) error { return sweepreport.Write(w, in, opt) }); err != nil {
		return err
	}
	g.infof("report of sweep %d written to %s", c.Sweep, out.Path)
	return nil
}

type jsonCmd struct {
	runRef
	Out     string `help:"Output file ('-' for standard output); an existing one is replaced only if it is a JSON report of Presage's, or with --force." default:"-"`
	PerProc bool   `help:"Include per-processor values."`
	outputFlags
}

func (c *jsonCmd) Run(ctx context.Context, g *Globals) error {
	out, guard := outfile.Target{Path: c.Out, Flag: "--out", Kind: kindRunJSON}, g.outputs(c.Force)
	if err := checkOutput(guard, out); err != nil {
		return err
	}
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	run, err := c.load(st)
	if err != nil {
		return err
	}
	return writeOutput(ctx, guard, out, func(w io.Writer) error {
		return jsonreport.Write(w, run, jsonreport.Options{PerProc: c.PerProc})
	})
}

type textCmd struct {
	runRef
	Out       string `help:"Output file ('-' for standard output)." default:"-"`
	Level     int    `help:"Show intervals up to this level (the analyzer's -l); -1 for all." default:"-1"`
	Procs     string `help:"Processors of the per-processor tables (-n): e.g. 1-2,4; 0 for none; empty for all."`
	Verbosity string `help:"Sections (-v): cpu,gpu, cpu, gpu or none." default:"cpu,gpu"`
	Matrix    string `help:"Print each processor's time matrix summed by rows (i) or columns (j) (-m)." enum:",i,j" default:""`
	Format    string `help:"text, or json (-j)." enum:"text,json" default:"text"`
	outputFlags
}

func (c *textCmd) Run(ctx context.Context, g *Globals) error {
	out, guard := outfile.Target{Path: c.Out, Flag: "--out", Kind: kindAnalyzerText}, g.outputs(c.Force)
	if c.Format == "json" {
		out.Kind = kindAnalyzerJSON
	}
	if err := checkOutput(guard, out); err != nil {
		return err
	}
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := st.ResolveRun(c.runRef.Run)
	if err != nil {
		return err
	}
	if run, err := st.Run(id); err == nil && run.Kind != result.Measured {
		return fmt.Errorf("run %d is a %s run: report text is the analyzer's report of a measured one (an ingested sts file); presage report html --run %d writes the Predictor's report of a %s run", id, run.Kind, id, run.Kind)
	}
	return writeOutput(ctx, guard, out, func(w io.Writer) error {
		rep, err := textreport.Load(ctx, st, id)
		if err != nil {
			return err
		}
		return textreport.Render(w, rep, textreport.Options{
			MaxLevel: c.Level, Procs: c.Procs, Verbosity: c.Verbosity, Matrix: c.Matrix, Format: c.Format,
		})
	})
}

func defaultReportName(run *result.Run, ext string) string {
	name := run.Program
	if run.Config.Machine != "" {
		name += "." + run.Config.Machine
	}
	return name + "." + result.GridString(run.Config.Grid) + ext
}
