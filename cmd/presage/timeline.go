package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/presage-dvm/presage/exports/timeline"
	"github.com/presage-dvm/presage/internal/outfile"
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
	Format string  `help:"paraver (.prv, .pcf and .row for Paraver/wxparaver) or perfetto (Chrome trace JSON for ui.perfetto.dev)." enum:"paraver,perfetto" required:""`
	Out    string  `help:"Output file: the .prv for paraver, beside which the .pcf and .row are written (default: PROGRAM.MACHINE.GRID.prv or .json)." type:"path"`
	From   float64 `help:"Predicted runs: keep from this moment of the simulated run (seconds)."`
	To     float64 `help:"Predicted runs: keep up to this moment (seconds; 0: to the end)."`
	Procs  string  `help:"Predicted runs: keep these processors (0-based: 0..15, 0,4,8) and the messages they send or receive."`
	MaxMB  int     `name:"max-mb" help:"Predicted runs: stop at about this many megabytes (a browser opens 50 MB of Perfetto JSON; 0: no bound); what is left out is said." default:"50"`
	outputFlags

	keep  map[int]bool   // --procs
	guard *outfile.Guard // set by Run
}

func (c *exportTimelineCmd) Validate() error {
	if err := checkFlags(seconds("--from", c.From), seconds("--to", c.To), atLeast("--max-mb", c.MaxMB, 0)); err != nil {
		return err
	}
	if c.To > 0 && c.To <= c.From {
		return fmt.Errorf("--to %g: expected a moment after --from %g", c.To, c.From)
	}
	if c.Procs == "" {
		return nil
	}
	var err error
	if c.keep, err = parseProcs(c.Procs); err != nil {
		return fmt.Errorf("--procs: %w", err)
	}
	return nil
}

// Bytes of a span or a message in each format, measured on
// jac_e4_L500_it4000 at 4x4 (696,000 events: 102 MB of Perfetto JSON,
// 34 MB of Paraver), by which --max-mb becomes a number of events.
var eventBytes = map[string]int64{"perfetto": 147, "paraver": 49}

// window returns the filter of the flags in front of sink.
func (c *exportTimelineCmd) window(sink events.Sink) *events.Window {
	w := &events.Window{Next: sink, From: int64(c.From * 1e9), To: int64(c.To * 1e9)}
	if c.MaxMB > 0 {
		w.Max = int64(c.MaxMB) * 1e6 / eventBytes[c.Format]
	}
	if c.keep != nil {
		w.Keep = func(p int) bool { return c.keep[p] }
	}
	return w
}

// parseProcs reads a list of 0-based processor numbers: "0..15", "0,4,8".
func parseProcs(s string) (map[int]bool, error) {
	keep := map[int]bool{}
	for _, item := range splitList(s) {
		a, b, isRange := strings.Cut(item, "..")
		if !isRange {
			b = a
		}
		lo, err1 := strconv.Atoi(a)
		hi, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi-lo >= maxListLen {
			return nil, fmt.Errorf("%q: expected processor numbers from 0, as 0..15 or 0,4,8", item)
		}
		for p := lo; p <= hi; p++ {
			keep[p] = true
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%q: no processor", s)
	}
	return keep, nil
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
	c.guard = g.outputs(c.Force)
	if err := c.checkTargets(run); err != nil {
		return err
	}
	if orders, err := st.IsOrdersRun(ctx, run.ID); err != nil || orders {
		if err != nil {
			return err
		}
		return c.orders(ctx, g, st, run)
	}
	start := time.Now()
	var win *events.Window
	var files []string
	switch c.Format {
	case "perfetto":
		out := c.target(run, ".json")
		files = []string{out.Path}
		err = c.guard.WriteFile(ctx, out, func(w io.Writer) error {
			p, err := timeline.NewPerfetto(w, timelineTitle(run), run.Config.Procs())
			if err != nil {
				return err
			}
			win = c.window(p)
			return replayInto(ctx, st, run, win)
		})
	default:
		win, files, err = c.paraver(ctx, st, run)
	}
	if err != nil {
		return err
	}
	g.infof("timeline of run %d (%d spans and messages) written to %s in %s", run.ID, win.Kept,
		strings.Join(files, ", "), time.Since(start).Round(time.Millisecond))
	if win.Over > 0 {
		g.infof("%d more spans and messages left out past --max-mb %d (a browser opens about 50 MB): narrow the timeline with --from, --to or --procs, or raise --max-mb", win.Over, c.MaxMB)
	}
	return nil
}

// out is --out, or the run's default name with ext.
func (c *exportTimelineCmd) out(run *result.Run, ext string) string {
	if c.Out != "" {
		return c.Out
	}
	return defaultReportName(run, ext)
}

// target is the timeline's file: out, with the kind of --format's file
// ext (".json" for perfetto; ".prv", ".pcf", ".row" for paraver).
func (c *exportTimelineCmd) target(run *result.Run, ext string) outfile.Target {
	t := outfile.Target{Path: c.out(run, ext), Kind: kindPerfetto}
	if c.Out != "" {
		t.Flag = "--out"
	}
	if c.Format == "paraver" {
		t.Path, t.Kind = c.out(run, ".prv"), kindParaver(ext)
		if ext != ".prv" { // beside the .prv, as Paraver looks for them
			t.Path, t.Flag = strings.TrimSuffix(t.Path, ".prv")+ext, ""
		}
	}
	return t
}

// targets are the files of the timeline of run: the .json, or the .prv
// with its .pcf and .row.
func (c *exportTimelineCmd) targets(run *result.Run) []outfile.Target {
	if c.Format == "perfetto" {
		return []outfile.Target{c.target(run, ".json")}
	}
	return []outfile.Target{c.target(run, ".prv"), c.target(run, ".pcf"), c.target(run, ".row")}
}

// checkTargets refuses the timeline before its simulation when any of
// its files may not be written.
func (c *exportTimelineCmd) checkTargets(run *result.Run) error {
	for _, t := range c.targets(run) {
		if err := c.guard.Check(t); err != nil {
			return err
		}
	}
	return nil
}

// writeParaverFiles writes the .pcf and the .row of a Paraver timeline
// (targets[1:]) from what writing its .prv put in pcf and row.
func (c *exportTimelineCmd) writeParaverFiles(ctx context.Context, run *result.Run, pcf, row *bytes.Buffer) error {
	targets := c.targets(run)
	for i, b := range []*bytes.Buffer{pcf, row} {
		if err := c.guard.WriteFile(ctx, targets[i+1], func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
			return err
		}
	}
	return nil
}

// fileNames are the paths of targets.
func fileNames(targets []outfile.Target) []string {
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Path
	}
	return names
}

// paraver writes the .prv, then the .pcf and .row beside it.
func (c *exportTimelineCmd) paraver(ctx context.Context, st *store.Store, run *result.Run) (*events.Window, []string, error) {
	var pcf, row bytes.Buffer
	var win *events.Window
	err := c.guard.WriteFile(ctx, c.target(run, ".prv"), func(w io.Writer) error {
		p := timeline.NewParaver(w, &pcf, &row, timeline.ParaverOptions{
			Title: timelineTitle(run), Procs: run.Config.Procs(), TempDir: os.TempDir()})
		win = c.window(p)
		return replayInto(ctx, st, run, win)
	})
	if err != nil {
		return win, nil, err
	}
	if err := c.writeParaverFiles(ctx, run, &pcf, &row); err != nil {
		return win, nil, err
	}
	return win, fileNames(c.targets(run)), nil
}

// replayInto re-simulates run into sink.
func replayInto(ctx context.Context, st *store.Store, run *result.Run, sink events.Sink) error {
	col := events.NewCollector(run.Config.Procs(), sink)
	if err := stage.Replay(ctx, st, run, col); err != nil {
		col.Close()
		return err
	}
	_, err := col.Close()
	return err
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
	switch {
	case run.Kind == result.Measured && sim.Detail.Processes > 0:
		label = "process"
		title = fmt.Sprintf("%s on %d worker processes of %d cores of %s, %s (run %d, measured)", run.Program, sim.Detail.Nodes, sim.Detail.Cores,
			run.Config.Machine, sim.Detail.Scheduler, run.ID)
	case run.Kind == result.Measured:
		label = "worker"
		title = fmt.Sprintf("%s on %d workers of %s, %s (run %d, measured)", run.Program, sim.Detail.Nodes, run.Config.Machine, sim.Detail.Scheduler, run.ID)
	}
	files := fileNames(c.targets(run))
	switch c.Format {
	case "perfetto":
		err = c.guard.WriteFile(ctx, c.target(run, ".json"), func(w io.Writer) error {
			return timeline.WriteOrdersPerfetto(w, title, label, sim.Detail.Nodes, sim.Events, sim.Stretches)
		})
	default:
		var pcf, row bytes.Buffer
		err = c.guard.WriteFile(ctx, c.target(run, ".prv"), func(w io.Writer) error {
			return timeline.WriteOrdersParaver(w, &pcf, &row, title, label, sim.Detail.Nodes, sim.Events, sim.Stretches)
		})
		if err == nil {
			err = c.writeParaverFiles(ctx, run, &pcf, &row)
		}
	}
	if err != nil {
		return err
	}
	g.infof("timeline of run %d (%d orders, %d stretches) written to %s", run.ID, len(sim.Events), len(sim.Stretches), strings.Join(files, ", "))
	return nil
}
