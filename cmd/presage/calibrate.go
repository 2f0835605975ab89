package main

import (
	"context"
	"fmt"
	"github.com/presage-dvm/presage/exports/calibreport"
	"io"
	"strings"

	"github.com/presage-dvm/presage/internal/stage"
)

type calibrateCmd struct {
	Trace    string   `help:"Stored trace of the program (name or id)." required:""`
	Measured []int64  `help:"Measured runs to fit (ids); by default every measured run of the trace's program." sep:","`
	Machine  string   `help:"Stored machine the parameters start from, and the prediction before calibration." default:"Predictor"`
	Holdout  []string `help:"Grids held out of the fit and predicted (e.g. 2x2)." sep:","`
	Out      string   `help:"Machine file to write and ingest; its base name names the fitted machine (default: TRACE-fit.par)." placeholder:"FILE.par"`
	Report   string   `help:"Write the calibration report (per run and interval, before and after) to this file: text, JSON when it ends in .json, an HTML page with a chart when it ends in .html." placeholder:"FILE"`
	hostFlags
}

// Run fits the machine parameters of the model to measured runs of a
// traced program and stores the fitted machine.
func (c *calibrateCmd) Run(ctx context.Context, g *Globals) error {
	host, described, err := c.host()
	if err != nil {
		return err
	}
	if !described {
		return fmt.Errorf("calibrate: describe the host the measurements ran on (--cores-per-node N [--nodes N], or --host-file FILE.par)")
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
	cal, err := stage.Calibrate(ctx, st, stage.CalibrateRequest{
		Trace: c.Trace, Measured: c.Measured, Machine: c.Machine, Host: host, Holdout: c.Holdout, Out: out,
	})
	if err != nil {
		return err
	}
	g.infof("fitted machine %s (machine %d) written to %s", cal.Machine.Name, cal.Machine.ID, cal.Path)
	if err := writeOutput("-", func(w io.Writer) error { return calibreport.WriteText(w, cal) }); err != nil {
		return err
	}
	if c.Report == "" {
		return nil
	}
	write := calibreport.WriteText
	switch {
	case strings.HasSuffix(c.Report, ".json"):
		write = calibreport.WriteJSON
	case strings.HasSuffix(c.Report, ".html"):
		write = calibreport.WriteHTML
	}
	return writeOutput(c.Report, func(w io.Writer) error { return write(w, cal) })
}
