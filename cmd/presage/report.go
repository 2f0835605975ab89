package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/presage-dvm/presage/exports/htmlreport"
	"github.com/presage-dvm/presage/exports/jsonreport"
	"github.com/presage-dvm/presage/exports/sweepreport"
	"github.com/presage-dvm/presage/exports/textreport"
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
	Out             string `help:"Output file (default: PROGRAM.MACHINE.GRID.html, or sweep-ID.html)." type:"path"`
	All             bool   `help:"Start from Main rather than from the interval the original starts from."`
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
	out := c.Out
	if out == "" {
		out = defaultReportName(run, ".html")
	}
	opt := htmlreport.Options{AllIntervals: c.All}
	if opt.Timeline, err = st.RunTimeline(ctx, run.ID); err != nil {
		return err
	}
	if opt.Timeline == nil && run.Kind == result.Predicted && run.TraceID != 0 {
		g.infof("run %d has no stored per-processor picture (runs of sweeps, and runs predicted before this version, have none): presage export timeline --run %d draws its timeline", run.ID, run.ID)
	}
	if err := writeFileAtomic(out, func(w io.Writer) error {
		return htmlreport.Write(w, run, opt)
	}); err != nil {
		return err
	}
	g.infof("report of run %d written to %s", run.ID, out)
	return nil
}

func (c *htmlCmd) sweepReport(ctx context.Context, g *Globals, st *store.Store) error {
	out := c.Out
	if out == "" {
		out = fmt.Sprintf("sweep-%d.html", c.Sweep)
	}
	opt := sweepreport.Options{AllIntervals: c.All, IncludeDoubtful: c.IncludeDoubtful}
	// Loaded first: an unknown sweep is an error about the sweep, not
	// about a file that was never to be written.
	in, err := sweepreport.Load(ctx, st, c.Sweep, opt)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(out, func(w io.Writer) error { return sweepreport.Write(w, in, opt) }); err != nil {
		return err
	}
	g.infof("report of sweep %d written to %s", c.Sweep, out)
	return nil
}

type jsonCmd struct {
	runRef
	Out     string `help:"Output file ('-' for standard output)." default:"-"`
	PerProc bool   `help:"Include per-processor values."`
}

func (c *jsonCmd) Run(g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	run, err := c.load(st)
	if err != nil {
		return err
	}
	return writeOutput(c.Out, func(w io.Writer) error {
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
}

func (c *textCmd) Run(ctx context.Context, g *Globals) error {
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
	return writeOutput(c.Out, func(w io.Writer) error {
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

// writeOutput writes to standard output for "-", else to the file.
func writeOutput(path string, write func(io.Writer) error) error {
	if path == "-" || path == "" {
		w := bufio.NewWriter(os.Stdout)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}
	return writeFileAtomic(path, write)
}

// writeFileAtomic writes a file through a temporary one, so that a failed
// report never leaves a half-written file behind.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	if err := write(w); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; a report is for the group too (a
	// shared cluster's project folder).
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
