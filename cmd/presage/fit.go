package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/presage-dvm/presage/exports/fitreport"

	"github.com/presage-dvm/presage/internal/outfile"
	"github.com/presage-dvm/presage/internal/stage"
)

type fitCmd struct {
	Trace    string   `help:"Stored trace of the program (name or id)." required:""`
	Measured []int64  `help:"Measured runs to fit (ids); by default every measured run of the trace's program." sep:","`
	Machine  string   `help:"Stored machine the parameters start from, and the prediction before the fit." default:"Predictor"`
	Holdout  []string `help:"Grids held out of the fit and predicted (e.g. 2x2)." sep:","`
	Out      string   `help:"Machine file to write and ingest; its base name names the fitted machine (default: TRACE-fit.par)." placeholder:"FILE.par"`
	Report   string   `help:"Write the fit report (per run and interval, before and after) to this file: text, JSON when it ends in .json, an HTML page with a chart when it ends in .html." placeholder:"FILE"`
	// TracedElsewhere frees the power: by default the measured runs ran on
	// the traced host, where one process is the trace itself (power 1).
	TracedElsewhere bool `help:"The measured runs ran on another host than the one the trace was recorded on: fit the processors' power too (by default it stays 1: one process on the traced host is the trace itself)."`
	Extended        bool `help:"Fit the extended model's terms too: the run work (seconds per process a real run spends beyond its trace, the machine file's runwork statement) and, where runs put several processes on a node, the node contention (how much each busy neighbour slows a core's work, the contention statement) and, where a run pipelines an ACROSS loop across its array's contiguous dimension, the strided iteration time (seconds an iteration of it costs more, the strided statement); docs/compare.md, \"The extended model\". By default the model is the original's."`
	NoLeaveOneOut   bool `help:"Leave out the leave-one-out (a fit without each fitted grid in turn, predicting it, and each parameter's spread over those fits)."`
	hostFlags
	outputFlags
}

// targets are the fitted machine file and the report's (Path "" for
// none), each checked before the fit by its guard: neither may be the
// store or --host-file, nor the report the machine file.
func (c *fitCmd) targets(g *Globals) (par, report outfile.Target, parGuard, reportGuard *outfile.Guard, err error) {
	par = stage.FittedMachine(c.Out)
	if c.Out == "" {
		par = stage.FittedMachine(c.Trace + "-fit.par")
		par.Flag = ""
	}
	report = outfile.Target{Path: c.Report, Flag: "--report", Kind: kindFitText}
	switch {
	case strings.HasSuffix(c.Report, ".json"):
		report.Kind = kindFitJSON
	case strings.HasSuffix(c.Report, ".html"):
		report.Kind = kindHTML
	}
	parGuard = g.outputs(c.Force, "--host-file", c.HostFile)
	reportGuard = g.outputs(c.Force, "--host-file", c.HostFile)
	reportGuard.Keep(par.Path, "the fitted machine file ("+strings.TrimSpace(par.Flag+" "+par.Path)+")")
	if err = parGuard.Check(par); err == nil {
		err = checkOutput(reportGuard, report)
	}
	return par, report, parGuard, reportGuard, err
}

// Run fits the machine parameters of the model to measured runs of a
// traced program and stores the fitted machine.
func (c *fitCmd) Run(ctx context.Context, g *Globals) error {
	host, described, err := c.host()
	if err != nil {
		return err
	}
	if !described {
		return fmt.Errorf("fit: describe the host the measurements ran on (--cores-per-node N [--nodes N], or --host-file FILE.par)")
	}
	par, report, parGuard, reportGuard, err := c.targets(g)
	if err != nil {
		return err
	}
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	cal, err := stage.Fit(ctx, st, stage.FitRequest{
		Trace: c.Trace, Measured: c.Measured, Machine: c.Machine, Host: host, Holdout: c.Holdout, Out: par.Path, Output: parGuard,
		PowerFree: c.TracedElsewhere, Extended: c.Extended, LeaveOneOut: !c.NoLeaveOneOut,
	})
	if err != nil {
		return err
	}
	g.infof("fitted machine %s (machine %d) written to %s", cal.Machine, cal.MachineID, cal.Path)
	if err := writeOutput(ctx, nil, outfile.Target{Path: "-"}, func(w io.Writer) error { return fitreport.WriteText(w, cal) }); err != nil {
		return err
	}
	if c.Report == "" {
		return nil
	}
	write := fitreport.WriteText
	switch report.Kind.Name {
	case kindFitJSON.Name:
		write = fitreport.WriteJSON
	case kindHTML.Name:
		write = fitreport.WriteHTML
	}
	return writeOutput(ctx, reportGuard, report, func(w io.Writer) error { return write(w, cal) })
}
