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
// configuration (stage.Replay); of an orders run, simulated or measured,
// the stretches its stored orders ran on every node or worker.
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
	if orders, err := st.IsOrdersRun(ctx, run.ID); err != nil || orders {
		if err != nil {
			return err
		}
		return c.orders(ctx, g, st, run)
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

// orders writes the timeline of an orders run from its stored orders and
// stretches (timeline.WriteOrdersPerfetto, WriteOrdersParaver): nothing
// is re-simulated.
func (c *exportTimelineCmd) orders(ctx context.Context, g *Globals, st *store.Store, run *result.Run) error {
	sim, err := st.OrderSimulation(ctx, run.ID, -1)
	if err != nil {
		return err
	}
	if len(sim.Events) == 0 {
		return fmt.Errorf("run %d has no per-order rows to draw (a simulation of more orders than its --max-events, or a real run that did not record its schedule)", run.ID)
	}
	label, title := "node", fmt.Sprintf("%s on %d nodes, %s (run %d)", run.Program, sim.Detail.Nodes, sim.Detail.Scheduler, run.ID)
	if run.Kind == result.Measured {
		label = "worker"
		title = fmt.Sprintf("%s on %d workers of %s, %s (run %d, measured)", run.Program, sim.Detail.Nodes, run.Config.Machine, sim.Detail.Scheduler, run.ID)
	}
	var files []string
	switch c.Format {
	case "perfetto":
		out := c.out(run, ".json")
		files = []string{out}
		err = writeFileAtomic(out, func(w io.Writer) error {
			return timeline.WriteOrdersPerfetto(w, title, label, sim.Detail.Nodes, sim.Events, sim.Stretches)
		})
	default:
		prv := c.out(run, ".prv")
		base := strings.TrimSuffix(prv, ".prv")
		var pcf, row bytes.Buffer
		err = writeFileAtomic(prv, func(w io.Writer) error {
			return timeline.WriteOrdersParaver(w, &pcf, &row, title, label, sim.Detail.Nodes, sim.Events, sim.Stretches)
		})
		files = []string{prv, base + ".pcf", base + ".row"}
		for i, b := range []*bytes.Buffer{&pcf, &row} {
			if err == nil {
				err = writeFileAtomic(files[i+1], func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err })
			}
		}
	}
	if err != nil {
		return err
	}
	g.infof("timeline of run %d (%d orders, %d stretches) written to %s", run.ID, len(sim.Events), len(sim.Stretches), strings.Join(files, ", "))
	return nil
}
