package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/presage-dvm/presage/exports/timeline"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// exportTimelineCmd writes what every processor does over the simulated
// time of a predicted run, re-simulated from its stored trace and
// configuration (stage.Replay).
type exportTimelineCmd struct {
	runRef
	Format string `help:"paraver (.prv, .pcf and .row for Paraver/wxparaver) or perfetto (Chrome trace JSON for ui.perfetto.dev)." enum:"paraver,perfetto" required:""`
	Out    string `help:"Output file: the .prv for paraver, beside which the .pcf and .row are written (default: PROGRAM.MACHINE.GRID.prv or .json)." type:"path"`
}

func (c *exportTimelineCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	run, err := c.load(st)
	if err != nil {
		return err
	}
	start := time.Now()
	var stats events.Stats
	var files []string
	switch c.Format {
	case "perfetto":
		out := c.out(run, ".json")
		files = []string{out}
		err = writeFileAtomic(out, func(w io.Writer) error {
			p, err := timeline.NewPerfetto(w, timelineTitle(run), run.Config.Procs())
			if err != nil {
				return err
			}
			stats, err = replayInto(ctx, st, run, p)
			return err
		})
	default:
		stats, files, err = c.paraver(ctx, st, run)
	}
	if err != nil {
		return err
	}
	g.infof("timeline of run %d (%d spans, %d messages) written to %s in %s", run.ID, stats.Spans, stats.Messages,
		strings.Join(files, ", "), time.Since(start).Round(time.Millisecond))
	return nil
}

// out is --out, or the run's default name with ext.
func (c *exportTimelineCmd) out(run *result.Run, ext string) string {
	if c.Out != "" {
		return c.Out
	}
	return defaultReportName(run, ext)
}

// paraver writes the .prv, then the .pcf and .row beside it.
func (c *exportTimelineCmd) paraver(ctx context.Context, st *store.Store, run *result.Run) (events.Stats, []string, error) {
	prv := c.out(run, ".prv")
	base := strings.TrimSuffix(prv, ".prv")
	var pcf, row bytes.Buffer
	var stats events.Stats
	err := writeFileAtomic(prv, func(w io.Writer) error {
		p := timeline.NewParaver(w, &pcf, &row, timeline.ParaverOptions{
			Title: timelineTitle(run), Procs: run.Config.Procs(), TempDir: os.TempDir()})
		var err error
		stats, err = replayInto(ctx, st, run, p)
		return err
	})
	if err != nil {
		return stats, nil, err
	}
	for _, f := range []struct {
		path string
		b    *bytes.Buffer
	}{{base + ".pcf", &pcf}, {base + ".row", &row}} {
		if err := writeFileAtomic(f.path, func(w io.Writer) error { _, err := w.Write(f.b.Bytes()); return err }); err != nil {
			return stats, nil, err
		}
	}
	return stats, []string{prv, base + ".pcf", base + ".row"}, nil
}

// replayInto re-simulates run into the sinks.
func replayInto(ctx context.Context, st *store.Store, run *result.Run, sinks ...events.Sink) (events.Stats, error) {
	col := events.NewCollector(run.Config.Procs(), sinks...)
	if err := stage.Replay(ctx, st, run, col); err != nil {
		col.Close()
		return events.Stats{}, err
	}
	return col.Close()
}

func timelineTitle(run *result.Run) string {
	return fmt.Sprintf("%s on %s, %s processors (run %d)", run.Program, run.Config.Machine, result.GridString(run.Config.Grid), run.ID)
}
