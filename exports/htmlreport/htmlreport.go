package htmlreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/exports/internal/htmlstyle"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// Options control which intervals the report holds.
type Options struct {
	// AllIntervals starts the report from Main instead of the run's
	// report root (the interval the original's report starts from).
	AllIntervals bool
	// Timeline, when not nil, is drawn as the run's per-processor
	// timeline (a Sampler's sample of the re-simulated run).
	Timeline *events.Sample
}

var (
	//go:embed report.tmpl
	reportTmpl string
	//go:embed style.css
	styleCSS string
)

var tmpl = htmlstyle.Page("report", reportTmpl, styleCSS)

// Write renders the report of run to w. Nothing is written when the run
// cannot be reported.
func Write(w io.Writer, run *result.Run, opt Options) error {
	root, err := reportRoot(run, opt)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := tmpl().Execute(&b, build(run, root, opt)); err != nil {
		return fmt.Errorf("run %d: html report: %w", run.ID, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// reportRoot returns the interval the report starts from: the run's report
// root, or Main when asked for all intervals or when no root is recorded.
func reportRoot(run *result.Run, opt Options) (*result.Interval, error) {
	if err := run.CheckTree(); err != nil {
		return nil, err
	}
	if opt.AllIntervals || run.ReportRoot == 0 {
		return run.Intervals[0], nil
	}
	root := run.Interval(run.ReportRoot)
	if root == nil {
		return nil, fmt.Errorf("run %d: report root %d is not an interval of the run", run.ID, run.ReportRoot)
	}
	return root, nil
}
