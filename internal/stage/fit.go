package stage

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/outfile"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/fit"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// FitRequest names a stored trace, the measured runs of its program
// and the host they ran on.
type FitRequest struct {
	Trace    string   // trace name or id
	Measured []int64  // measured run ids; none: every measured run of the trace's program
	Machine  string   // the machine the parameters start from and the prediction before the fit uses
	Host     fit.Host // the machine the measurements ran on
	Holdout  []string // grids ("2x2") held out of the fit and predicted
	Out      string   // the machine file to write; its base name (without .par) names the machine
	MaxEvals int      // bound on the simulations of the fit (0: 3000)
	// Output guards Out: what it may replace, and what it must never be
	// (the store, the command's inputs); nil: Out is written through a
	// temporary and replaces only an earlier fitted machine file.
	Output *outfile.Guard
}

// Fitted are the characteristics the fit matches, per matched interval.
var Fitted = []result.Char{result.ExecutionTime, result.Communication, result.Synchronization}

// fitRun is a measured run with what the fit needs of it.
type fitRun struct {
	run     *result.Run
	procs   int
	holdout bool
}

// Fit fits the machine parameters of the model to the measured runs
// of a traced program (sim/fit), stores the fitted machine through
// a machine file written at req.Out, and predicts every run before and
// after the fit.
func Fit(ctx context.Context, st *store.Store, req FitRequest) (*fit.Outcome, error) {
	if err := req.Host.Check(); err != nil {
		return nil, err
	}
	ct, err := CompileTrace(ctx, st, req.Trace, nil)
	if err != nil {
		return nil, err
	}
	base, _, err := st.Machine(req.Machine)
	if err != nil {
		return nil, err
	}
	runs, err := loadMeasured(st, ct.Info.Name, req)
	if err != nil {
		return nil, err
	}
	sim1 := func(m *machine.Machine, grid []int) (*result.Run, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return sim.Simulate(ct.Program, m, result.Config{Grid: grid}, sim.Options{TraceFile: filepath.Base(ct.Info.Path)})
	}
	name := fit.ParName(ingest.MachineName(req.Out))
	onHost := func(p fit.Params, r fitRun) (*result.Run, error) {
		return sim1(req.Host.Machine(name, p, r.procs), r.run.Config.Grid)
	}
	c := &fit.Outcome{Program: ct.Info.Name, Host: req.Host, Start: fit.FromMachine(base)}
	c.Free = freeParams(req.Host, runs)
	residuals := func(p fit.Params) ([]float64, error) {
		var out []float64
		for _, r := range runs {
			if r.holdout {
				continue
			}
			pred, err := onHost(p, r)
			if err != nil {
				return nil, err
			}
			cmp, err := compare.Compare(r.run, pred, compare.Options{})
			if err != nil {
				return nil, err
			}
			for _, m := range cmp.Matches {
				if m.By == compare.ByMain && cmp.Predicted.ProgramLoop != nil {
					// The trace's Main holds, besides the program-level
					// loop, the traced run's start-up (the time before
					// bsloop_), which the statistics never see: no machine
					// parameter explains it, so Main is not fitted.
					continue
				}
				for _, ch := range Fitted {
					v, _ := m.Value(ch)
					out = append(out, fit.Residual(v.Predicted, v.Measured))
				}
			}
		}
		return out, nil
	}
	maxEvals := req.MaxEvals
	if maxEvals == 0 {
		maxEvals = 3000
	}
	if c.Fit, err = fit.Fit(c.Start, c.Free, residuals, maxEvals); err != nil {
		return nil, fmt.Errorf("fit %s: %w", ct.Info.Name, err)
	}
	for _, r := range runs {
		before, err := sim1(base, r.run.Config.Grid)
		if err != nil {
			return nil, fmt.Errorf("predict %s on %s, grid %s: %w", ct.Info.Name, req.Machine, result.GridString(r.run.Config.Grid), err)
		}
		after, err := onHost(c.Fit.Params, r)
		if err != nil {
			return nil, err
		}
		errs, err := intervalErrors(r, before, after, req.Host)
		if err != nil {
			return nil, err
		}
		c.Errors = append(c.Errors, errs...)
	}
	if err := storeFit(ctx, st, c, req, runs); err != nil {
		return nil, err
	}
	return c, nil
}

// loadMeasured loads the measured runs of the request (or of program)
// and marks the held-out ones; every held-out grid must be one of them.
func loadMeasured(st *store.Store, program string, req FitRequest) ([]fitRun, error) {
	ids := req.Measured
	if len(ids) == 0 {
		var err error
		if ids, err = st.MeasuredRuns(program); err != nil {
			return nil, err
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("fit %s: no measured run of the program in the store (ingest its statistics: presage ingest sts %s.GRID.sts.gz+)", program, program)
	}
	var runs []fitRun
	seen := map[string]bool{}
	fitted := 0
	for _, id := range ids {
		run, err := st.Run(id)
		if err != nil {
			return nil, err
		}
		if run.Kind != result.Measured {
			return nil, fmt.Errorf("run %d is %s, expected a measured run", id, run.Kind)
		}
		g := result.GridString(run.Config.Grid)
		r := fitRun{run: run, procs: run.Config.Procs(), holdout: holds(req.Holdout, run.Config.Grid)}
		seen[g] = seen[g] || r.holdout
		if !r.holdout {
			fitted++
		}
		runs = append(runs, r)
	}
	for _, h := range req.Holdout {
		grid, err := result.ParseGrid(h)
		if err != nil {
			return nil, fmt.Errorf("--holdout: %w", err)
		}
		if !slices.ContainsFunc(runs, func(r fitRun) bool { return r.holdout && sameGrid(r.run.Config.Grid, grid) }) {
			return nil, fmt.Errorf("--holdout %s: no measured run of %s on that grid", h, program)
		}
	}
	if fitted == 0 {
		return nil, fmt.Errorf("fit %s: every measured run is held out: nothing to fit", program)
	}
	return runs, nil
}

// holds reports whether grid is among the held-out grids; a grid equals
// another with trailing sizes of 1 (the analyzer writes "1x1x1x1" for 1).
func holds(holdout []string, grid []int) bool {
	for _, h := range holdout {
		if g, err := result.ParseGrid(h); err == nil && sameGrid(g, grid) {
			return true
		}
	}
	return false
}

func sameGrid(a, b []int) bool {
	trim := func(g []int) []int {
		for len(g) > 1 && g[len(g)-1] == 1 {
			g = g[:len(g)-1]
		}
		return g
	}
	return slices.Equal(trim(a), trim(b))
}

// freeParams are the parameters the fitted runs can tell: power and the
// node's messages always, the messages between nodes when a run spans
// nodes, the oversubscription latency when a run oversubscribes.
func freeParams(h fit.Host, runs []fitRun) []fit.Param {
	free := []fit.Param{fit.Power, fit.TStartNode, fit.TByteNode}
	spans, over := false, false
	for _, r := range runs {
		if r.holdout {
			continue
		}
		spans = spans || h.Nodes > 1 && r.procs > 1 && h.ProcsPerNode(r.procs) < r.procs
		over = over || h.Oversubscribed(r.procs)
	}
	if spans {
		free = append(free, fit.TStartNodes, fit.TByteNodes)
	}
	if over {
		free = append(free, fit.Oversub)
	}
	return free
}

// intervalErrors compares a measured run with its predictions before and
// after the fit, interval by interval (the execution time).
func intervalErrors(r fitRun, before, after *result.Run, h fit.Host) ([]fit.IntervalError, error) {
	cb, err := compare.Compare(r.run, before, compare.Options{})
	if err != nil {
		return nil, err
	}
	ca, err := compare.Compare(r.run, after, compare.Options{})
	if err != nil {
		return nil, err
	}
	afterOf := map[int]float64{}
	for _, m := range ca.Matches {
		v, _ := m.Value(result.ExecutionTime)
		afterOf[m.Measured.ID] = v.Predicted
	}
	var out []fit.IntervalError
	for _, m := range cb.Matches {
		v, _ := m.Value(result.ExecutionTime)
		a, ok := afterOf[m.Measured.ID]
		if !ok {
			a = math.NaN()
		}
		out = append(out, fit.IntervalError{
			RunID: r.run.ID, Grid: result.GridString(r.run.Config.Grid), Procs: r.procs, Holdout: r.holdout,
			Oversubscribed: h.Oversubscribed(r.procs), Interval: m.Measured.String(), Depth: m.Measured.Depth,
			Measured: v.Measured, Before: v.Predicted, After: a,
		})
	}
	return out, nil
}

// storeFit writes the fitted machine file, with the fit in its comments, and
// ingests it as a machine.
func storeFit(ctx context.Context, st *store.Store, c *fit.Outcome, req FitRequest, runs []fitRun) error {
	slots := req.Host.CoresPerNode
	for _, r := range runs {
		slots = max(slots, req.Host.ProcsPerNode(r.procs))
	}
	guard := req.Output
	if guard == nil {
		guard = &outfile.Guard{}
	}
	if err := guard.WriteFile(ctx, FittedMachine(req.Out), func(w io.Writer) error {
		return fit.WritePar(w, fit.ParName(ingest.MachineName(req.Out)), req.Host, c.Fit.Params, slots, fitComments(c, req))
	}); err != nil {
		return err
	}
	c.Path = req.Out
	m, err := ingest.Machine(ctx, st, req.Out)
	c.Machine, c.MachineID = m.Name, m.ID
	return err
}

// fittedMark starts every machine file Fit writes: what tells an
// earlier fitted machine file, which a new fit replaces, from a machine
// file of the user's, which it does not.
const fittedMark = "// Machine fitted by presage fit"

// FittedMachine is the machine file Fit writes at path, as an output:
// it replaces an earlier fitted machine file (its first line is
// fittedMark's), never another file unless forced.
func FittedMachine(path string) outfile.Target {
	return outfile.Target{Path: path, Flag: "--out", Kind: outfile.Kind{Name: "a fitted machine file",
		Is: func(_ string, head []byte) bool { return strings.HasPrefix(string(head), fittedMark) }}}
}

// fitComments are the machine file's header: what was fitted to what, the
// parameters and the residuals.
func fitComments(c *fit.Outcome, req FitRequest) []string {
	lines := []string{
		fmt.Sprintf("Machine fitted by presage fit to measured runs of %s (trace %s), starting from %s.", c.Program, req.Trace, req.Machine),
		fmt.Sprintf("Host: %d node(s) of %d core(s), network %s.", c.Host.Nodes, c.Host.CoresPerNode, c.Host.Network),
		"Fitted: " + c.Fit.Params.String() + ".",
		fmt.Sprintf("Residuals (log of predicted/measured over %d values of %d fitted intervals' Execution_time, Communication, Synchronization): RMS %.4g after %d simulations.",
			len(c.Fit.Residuals), len(c.Fit.Residuals)/len(Fitted), c.Fit.RMS, c.Fit.Evals),
		"The oversubscription latency has no place in a machine file: a prediction on this file alone models processes that do not outnumber cores.",
	}
	for _, e := range c.Errors {
		if e.Depth == 0 {
			role := "fitted"
			if e.Holdout {
				role = "held out"
			}
			lines = append(lines, fmt.Sprintf("Run %d (%s, %s): Main measured %.6g s, predicted %.6g s before, %.6g s after.", e.RunID, e.Grid, role, e.Measured, e.Before, e.After))
		}
	}
	return lines
}
