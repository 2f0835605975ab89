package sweepreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"slices"

	"github.com/presage-dvm/presage/exports/internal/htmlstyle"
)

// Options choose what the report shows beyond its fixed content.
type Options struct {
	// Run is the configuration whose lost-time breakdown is drawn; it must
	// belong to the sweep. 0 selects the fastest (lowest run id on ties).
	Run int64
	// Top is the number of rows of each best-configurations table; 0 = 10.
	Top int
	// AllIntervals starts the breakdown from Main instead of the run's
	// report root (the interval the original's report starts from).
	AllIntervals bool
	// MaxIntervals bounds the bars of the breakdown (those with the largest
	// losses are kept, in tree order); 0 = 40, negative = no bound.
	MaxIntervals int
	// IncludeDoubtful shows the doubtful configurations too (outside the
	// model's domain: result.Warning); by default they are left out, and
	// a note says how many, unless every one is.
	IncludeDoubtful bool
}

func (o Options) top() int {
	if o.Top <= 0 {
		return 10
	}
	return o.Top
}

func (o Options) maxIntervals() int {
	switch {
	case o.MaxIntervals == 0:
		return 40
	case o.MaxIntervals < 0:
		return 0
	}
	return o.MaxIntervals
}

var (
	//go:embed report.tmpl
	reportTmpl string
	//go:embed style.css
	styleCSS string
)

var tmpl = htmlstyle.Page("sweep", reportTmpl, styleCSS)

// Write renders the report of in to w. Nothing is written when the sweep
// cannot be reported (a run outside the sweep).
func Write(w io.Writer, in *Input, opt Options) error {
	id := in.Sweep.Sweep.ID
	cs, leftOut := configs(in.Sweep, opt.IncludeDoubtful)
	chosen, err := chooseRun(cs, in.Run.ID, id)
	if err != nil {
		return err
	}
	if len(in.Run.Intervals) == 0 {
		return fmt.Errorf("sweep %d: run %d: no intervals stored", id, in.Run.ID)
	}
	doc := build(in.Sweep, cs, chosen, breakdown(in.Run, opt.AllIntervals), opt)
	if leftOut > 0 {
		doc.Notes = append(doc.Notes, fmt.Sprintf("Doubtful configurations left out: %d. They distribute an array over more processors than it has elements in a dimension, where the model's times do not hold (docs/deviations.md); presage report html --sweep %d --include-doubtful shows them.", leftOut, id))
	}
	var b bytes.Buffer
	if err := tmpl().Execute(&b, doc); err != nil {
		return fmt.Errorf("sweep %d: html report: %w", id, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// chooseRun returns the configuration of run id, or the fastest when id is 0.
func chooseRun(cs []*config, id int64, sweepID int64) (*config, error) {
	if id != 0 {
		i := slices.IndexFunc(cs, func(c *config) bool { return c.RunID == id })
		if i < 0 {
			return nil, fmt.Errorf("sweep %d: run %d is not one of its runs", sweepID, id)
		}
		return cs[i], nil
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if faster(c, best) {
			best = c
		}
	}
	return best, nil
}
