package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/presage-dvm/presage/exports/fitreport"

	"github.com/presage-dvm/presage/internal/stage"
)

type fitCmd struct {
	Trace    string   `help:"Stored trace of the program (name or id)." required:""`
	Measured []int64  `help:"Measured runs to fit (ids); by default every measured run of the trace's program." sep:","`
	Machine  string   `help:"Stored machine the parameters start from, and the prediction before the fit." default:"Predictor"`
	Holdout  []string `help:"Grids held out of the fit and predicted (e.g. 2x2)." sep:","`
	Out      string   `help:"Machine file to write and ingest; its base name names the fitted machine (default: TRACE-fit.par)." placeholder:"FILE.par"`
	Report   string   `help:"Write the fit report (per run and interval, before and after) to this file: text, JSON when it ends in .json, an HTML page with a chart when it ends in .html." placeholder:"FILE"`
	hostFlags
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
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	out := c.Out
	if out == "" {
		out = c.Trace + "-fit.par"
	}
	cal, err := stage.Fit(ctx, st, stage.FitRequest{
		Trace: c.Trace, Measured: c.Measured, Machine: c.Machine, Host: host, Holdout: c.Holdout, Out: out,
	})
	if err != nil {
		return err
	}
	g.infof("fitted machine %s (machine %d) written to %s", cal.Machine, cal.MachineID, cal.Path)
	if err := writeOutput("-", func(w io.Writer) error { return fitreport.WriteText(w, cal) }); err != nil {
		return err
	}
	if c.Report == "" {
		return nil
	}
	write := fitreport.WriteText
	switch {
	case strings.HasSuffix(c.Report, ".json"):
		write = fitreport.WriteJSON
	case strings.HasSuffix(c.Report, ".html"):
		write = fitreport.WriteHTML
	}
	return writeOutput(c.Report, func(w io.Writer) error { return write(w, cal) })
}
