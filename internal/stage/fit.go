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
	"github.com/presage-dvm/presage/ingest/machinefile"
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
	// PowerFree fits the processors' power: the measured runs ran on
	// another host than the traced run. Off, they ran on the traced host,
	// where one process is the trace itself: the power stays 1.
	PowerFree bool
	// Extended fits the extended model's terms too (fit.RunWork: the run
	// work a real run spends beyond its trace; fit.Contention, where runs
	// put several processes on a node: how much each slows the others'
	// work; fit.Strided, where a run pipelines a loop across its array's
	// contiguous dimension), written to the machine file as its runwork,
	// contention and strided statements; off, the model is the original's.
	// The machine's I/O copy time (iobyte) is kept, not fitted: one
	// program's runs copy the same bytes and cannot tell it from the run
	// work (fit.Params.IOByte).
	Extended bool
	// LeaveOneOut fits again without each fitted grid in turn and
	// predicts the grid left out (fit.Outcome.LeaveOneOut).
	LeaveOneOut bool
	// Output guards Out: what it may replace, and what it must never be
	// (the store, the command's inputs); nil: Out is written through a
	// temporary and replaces only an earlier fitted machine file.
	Output *outfile.Guard
}

// Fitted are the characteristics the fit matches, per matched interval:
// the execution time, what a prediction is for. Not the communication and
// synchronization the statistics measure: they hold what the model
// leaves out (docs/compare.md, "Where the time goes": 0.08 s of
// communication measured where 0.004 s is predicted), and fitting them
// drove the in-node time per byte to its bound while Main got worse.
var Fitted = []result.Char{result.ExecutionTime}

// fitRun is a measured run with what the fit needs of it.
type fitRun struct {
	run     *result.Run
	procs   int
	holdout bool
}

// fitter simulates a compiled trace for a fit: on the request's machine
// (before) and on the host with a fit's parameters (after).
type fitter struct {
	ctx                 context.Context
	ct                  *CompiledTrace
	base                *machine.Machine
	host                fit.Host
	name                string // the fitted machine's
	opts                sim.Options
	maxEvals            int
	powerFree, extended bool // the request's: which parameters are free
}

func newFitter(ctx context.Context, st *store.Store, req FitRequest) (*fitter, error) {
	ct, err := CompileTrace(ctx, st, req.Trace, nil)
	if err != nil {
		return nil, err
	}
	base, _, err := st.Machine(req.Machine)
	if err != nil {
		return nil, err
	}
	opts := sim.Options{TraceFile: filepath.Base(ct.Info.Path)}
	f := &fitter{ctx: ctx, ct: ct, base: base, host: req.Host, name: machinefile.Name(ingest.MachineName(req.Out)),
		opts: opts, maxEvals: req.MaxEvals, powerFree: req.PowerFree, extended: req.Extended}
	if f.maxEvals == 0 {
		f.maxEvals = 3000
	}
	return f, nil
}

func (f *fitter) simulate(m *machine.Machine, grid []int) (*result.Run, error) {
	if err := f.ctx.Err(); err != nil {
		return nil, err
	}
	run, err := sim.Simulate(f.ct.Program, m, result.Config{Grid: grid}, f.opts)
	return run, f.ct.Verdict(f.ctx, err)
}

// before is run r predicted on the request's machine.
func (f *fitter) before(r fitRun) (*result.Run, error) {
	run, err := f.simulate(f.base, r.run.Config.Grid)
	if err != nil {
		return nil, fmt.Errorf("predict %s on %s, grid %s: %w", f.ct.Info.Name, f.base.Name, result.GridString(r.run.Config.Grid), err)
	}
	return run, nil
}

// onHost is run r predicted on the host with parameters p.
func (f *fitter) onHost(p fit.Params, r fitRun) (*result.Run, error) {
	return f.simulate(f.host.Machine(f.name, p, r.procs), r.run.Config.Grid)
}

// residuals are the fit's observations of one run predicted as pred: per
// matched interval, the residual of every Fitted characteristic.
func (f *fitter) residuals(r fitRun, pred *result.Run) ([]float64, error) {
	cmp, err := compare.Compare(r.run, pred, compare.Options{})
	if err != nil {
		return nil, err
	}
	var out []float64
	// Main too: a real run's Main is compared with an -e4 trace's
	// program-level loop (sim/compare), so the traced run's start-up
	// before it, which the statistics never see, is in no residual. A
	// trace without that loop keeps its start-up in Main.
	for _, m := range cmp.Matches {
		for _, ch := range Fitted {
			v, _ := m.Value(ch)
			out = append(out, fit.Residual(v.Predicted, v.Measured))
		}
	}
	return out, nil
}

// fit fits the free parameters to the runs not held out, from start; the
// starting machine is the request's (before, per run), which the fit
// keeps when it does no better on those runs.
func (f *fitter) fit(start fit.Params, free []fit.Param, runs []fitRun, before []*result.Run) (fit.Result, error) {
	var startRes []float64
	for i, r := range runs {
		if r.holdout {
			continue
		}
		v, err := f.residuals(r, before[i])
		if err != nil {
			return fit.Result{}, err
		}
		startRes = append(startRes, v...)
	}
	residuals := func(p fit.Params) ([]float64, error) {
		var out []float64
		for _, r := range runs {
			if r.holdout {
				continue
			}
			pred, err := f.onHost(p, r)
			if err != nil {
				return nil, err
			}
			v, err := f.residuals(r, pred)
			if err != nil {
				return nil, err
			}
			out = append(out, v...)
		}
		return out, nil
	}
	res, err := fit.Fit(start, free, residuals, f.maxEvals, startRes)
	if err != nil {
		return res, fmt.Errorf("fit %s: %w", f.ct.Info.Name, err)
	}
	return res, nil
}

// after is run r predicted after fit res: on the host with its
// parameters, or the starting machine's prediction when it kept it.
func (f *fitter) after(res fit.Result, r fitRun, before *result.Run) (*result.Run, error) {
	if res.Kept {
		return before, nil
	}
	return f.onHost(res.Params, r)
}

// Fit fits the machine parameters of the model to the measured runs
// of a traced program (sim/fit), stores the fitted machine through
// a machine file written at req.Out, and predicts every run before and
// after the fit. On the traced host (req.PowerFree off) the power stays
// 1; a parameter no fitted run depends on stays at req.Machine's value;
// a fit that does not make the fitted runs' error smaller than
// req.Machine's keeps req.Machine's predictions (fit.Result.Kept).
func Fit(ctx context.Context, st *store.Store, req FitRequest) (*fit.Outcome, error) {
	if err := req.Host.Check(); err != nil {
		return nil, err
	}
	f, err := newFitter(ctx, st, req)
	if err != nil {
		return nil, err
	}
	runs, err := loadMeasured(st, f.ct.Info.Name, req)
	if err != nil {
		return nil, err
	}
	c := &fit.Outcome{Program: f.ct.Info.Name, Host: req.Host, Start: fit.FromMachine(f.base), PowerFree: req.PowerFree}
	if !req.PowerFree {
		c.Start.Power = 1
	}
	c.Free = f.freeParams(runs)
	before := make([]*result.Run, len(runs))
	for i, r := range runs {
		if before[i], err = f.before(r); err != nil {
			return nil, err
		}
	}
	if c.Fit, err = f.fit(c.Start, c.Free, runs, before); err != nil {
		return nil, err
	}
	for i, r := range runs {
		after, err := f.after(c.Fit, r, before[i])
		if err != nil {
			return nil, err
		}
		errs, err := intervalErrors(r, before[i], after, req.Host)
		if err != nil {
			return nil, err
		}
		c.Errors = append(c.Errors, errs...)
	}
	if req.LeaveOneOut {
		if c.LeaveOneOut, err = f.leaveOneOut(c.Start, runs, before); err != nil {
			return nil, err
		}
	}
	if err := storeFit(ctx, st, c, req, runs); err != nil {
		return nil, err
	}
	return c, nil
}

// leaveOneOut fits without each fitted grid in turn (the held-out grids
// stay out) and predicts the grid left out: its runs' Main. One fitted
// grid has no leave-one-out.
func (f *fitter) leaveOneOut(start fit.Params, runs []fitRun, before []*result.Run) ([]fit.LeaveOneOut, error) {
	var grids []string
	for _, r := range runs {
		if g := result.GridString(r.run.Config.Grid); !r.holdout && !slices.Contains(grids, g) {
			grids = append(grids, g)
		}
	}
	if len(grids) < 2 {
		return nil, nil
	}
	var out []fit.LeaveOneOut
	for _, g := range grids {
		without := slices.Clone(runs)
		for i := range without {
			without[i].holdout = without[i].holdout || result.GridString(without[i].run.Config.Grid) == g
		}
		res, err := f.fit(start, f.freeParams(without), without, before)
		if err != nil {
			return nil, fmt.Errorf("leave-one-out without %s: %w", g, err)
		}
		l := fit.LeaveOneOut{Grid: g, Fit: res}
		for i, r := range without {
			if result.GridString(r.run.Config.Grid) != g {
				continue
			}
			after, err := f.after(res, r, before[i])
			if err != nil {
				return nil, err
			}
			errs, err := intervalErrors(r, before[i], after, f.host)
			if err != nil {
				return nil, err
			}
			for _, e := range errs {
				if e.Depth == 0 {
					l.Errors = append(l.Errors, e)
				}
			}
		}
		out = append(out, l)
	}
	return out, nil
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

// freeParams are the parameters the fitted runs can tell (fit.Free).
func (f *fitter) freeParams(runs []fitRun) []fit.Param {
	var procs []int
	for _, r := range runs {
		if !r.holdout {
			procs = append(procs, r.procs)
		}
	}
	return fit.Free(f.host, procs, f.powerFree, f.extended)
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
		m := req.Host.FileMachine(machinefile.Name(ingest.MachineName(req.Out)), c.Fit.Params, slots)
		return machinefile.Write(w, m, append(fitComments(c, req), "network: "+req.Host.Network))
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
		fmt.Sprintf("Residuals (log of predicted/measured of %d fitted intervals' Execution_time): RMS %.4g (the starting machine's %.4g) after %d simulations.",
			len(c.Fit.Residuals)/len(Fitted), c.Fit.RMS, c.Fit.StartRMS, c.Fit.Evals),
		"The oversubscription latency has no place in a machine file: a prediction on this file alone models processes that do not outnumber cores.",
	}
	if !c.PowerFree {
		lines = append(lines, "The runs ran on the traced host: the power stays 1 (one process is the trace itself).")
	}
	if len(c.Fit.Unused) > 0 {
		lines = append(lines, "No fitted run depends on "+paramList(c.Fit.Unused)+": kept at "+req.Machine+"'s value.")
	}
	if c.Fit.Kept {
		lines = append(lines, fmt.Sprintf("Kept the starting machine %s: the fit did not make the fitted runs' error smaller (RMS %.4g, starting machine's %.4g).",
			req.Machine, c.Fit.RMS, c.Fit.StartRMS))
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

func paramList(ps []fit.Param) string {
	names := make([]string, len(ps))
	for i, q := range ps {
		names[i] = q.String()
	}
	return strings.Join(names, ", ")
}
