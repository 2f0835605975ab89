package stage

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/predhtml"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/fit"
	"github.com/presage-dvm/presage/sim/result"
)

// RealityRequest is a DVM reality check: rounds of real runs in devdvm's
// layout (../shared/tools/devdvm/README.md), each folder one round:
// NAME.ptr[.gz] (the one-process trace), NAME.GRID.sts.gz+ (the statistics
// of each run), extra/pred/NAME.GRID.html and extra/pa/NAME.GRID.txt (the
// original Predictor's and analyzer's reports on them).
type RealityRequest struct {
	Dirs    []string
	Machine string   // the machine file of the original-compatible prediction
	Host    fit.Host // the machine the runs ran on, for the extended column's fit
	// Extended makes the extended column (a fit per run) and the
	// leave-one-out across programs and sizes; off, the column is NaN.
	// The traces must have been recorded on the host of the runs, as
	// devdvm records them: the power stays 1.
	Extended bool
	// IOByte is the I/O copy time, seconds per byte, the fits of runs of
	// one size (the leave-one-out across sizes) keep, fitting the run work
	// beside it: they cannot tell the two apart (fit.SplitGiven). Price it
	// on other runs (a check of two sizes); 0: the machine's iobyte
	// statement, or none, and those fits fit the I/O copy time alone
	// (fit.SplitToBytes).
	IOByte float64
	// FreshPage is the fresh page time, seconds per page, of the host the
	// runs ran on (internal/hostprobe measures it), which the extended
	// model prices and does not fit; 0 leaves the term out.
	FreshPage float64
	// Analyzer compares Presage's analyzer report of a stored measured run
	// with the original's report file: the renderers are the command's,
	// not this package's. Nil: the analyzer reports are not checked.
	Analyzer func(ctx context.Context, runID int64, original string) ([]string, error)
	// Progress, when set, hears what the check is doing.
	Progress func(format string, args ...any)
}

// realityRound is one folder of the check, its files by trace name and grid.
type realityRound struct {
	dir    string
	traces map[string]string            // NAME -> trace file
	sts    map[string]map[string]string // NAME -> GRID -> statistics file
	pred   map[string]map[string]string // NAME -> GRID -> original Predictor report
	pa     map[string]map[string]string // NAME -> GRID -> original analyzer report
}

// realityRuns are what the check stored of one round.
type realityRuns struct {
	traceID  map[string]int64            // NAME -> stored trace
	measured map[string]map[string]int64 // NAME -> GRID -> measured run
}

// DefaultRealityMachine is the machine file a devdvm folder ships, if any
// (Predictor.par or par/Predictor.par): devdvm runs the original Predictor
// on its own Predictor.par, which the check must predict on too.
func DefaultRealityMachine(dir string) string {
	for _, p := range []string{"Predictor.par", filepath.Join("par", "Predictor.par")} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			return filepath.Join(dir, p)
		}
	}
	return ""
}

// RealityCores is the number of cores devdvm's sysinfo.txt says the runs
// had ("nproc: N"), 0 when it does not say.
func RealityCores(dir string) int {
	return readHostThreads(dir).cores
}

// DVMReality ingests every round's trace and statistics, predicts each
// trace on each measured grid (original-compatible, and with parameters
// fitted without that run), holds Presage's reports against the
// original's, and returns the table. A report that differs is in
// Reality.Mismatches, not an error: the caller decides.
func DVMReality(ctx context.Context, st *store.Store, req RealityRequest) (*compare.Reality, error) {
	rounds, err := scanRounds(req.Dirs)
	if err != nil {
		return nil, err
	}
	m, err := ingest.Machine(ctx, st, req.Machine)
	if err != nil {
		return nil, fmt.Errorf("--machine %s: %w", req.Machine, err)
	}
	machineID := strconv.FormatInt(m.ID, 10)
	runs := make([]realityRuns, len(rounds))
	for i, r := range rounds {
		if runs[i], err = ingestRound(ctx, st, r, req.progress); err != nil {
			return nil, err
		}
	}
	out := &compare.Reality{Rounds: req.Dirs, Machine: req.Machine,
		Extended: fmt.Sprintf("%s (host: %d node(s) of %d core(s), fresh page time %.3g µs)", extendedMethod, req.Host.Nodes, req.Host.CoresPerNode, req.FreshPage*1e6)}
	if note := threadsNote(rounds); note != "" {
		out.Notes = append(out.Notes, note)
	}
	if !req.Extended {
		out.Extended = "not made (--no-extended)"
	}
	names := traceNames(rounds)
	var ext map[string]map[string]map[string]float64
	var h *hostFitter
	var units []*hostUnit
	if req.Extended {
		base, _, err := st.Machine(machineID)
		if err != nil {
			return nil, err
		}
		h = newHostFitter(ctx, req.Host, base, req.IOByte, req.FreshPage)
		median := func(name string) int64 { return medianTrace(ctx, st, machineID, name, runs) }
		if units, err = hostUnits(h, st, names, runs, median); err != nil {
			return nil, err
		}
		req.progress("the extended model: fitting without each of %d runs", len(units))
		var notes []string
		if ext, notes, err = extendedRows(h, units); err != nil {
			return nil, err
		}
		out.Notes = append(out.Notes, notes...)
	}
	for _, name := range names {
		rows, err := realityRows(ctx, st, req, name, machineID, runs, ext[name])
		if err != nil {
			return nil, err
		}
		out.Rows = append(out.Rows, rows...)
	}
	if req.Extended {
		req.progress("the extended model: leave-one-out across programs and sizes")
		if out.LeaveOneOut, err = crossFits(h, units); err != nil {
			return nil, err
		}
	}
	for i, r := range rounds {
		checks, err := checkReports(ctx, st, req, r, runs[i], machineID)
		if err != nil {
			return nil, err
		}
		out.Reports = append(out.Reports, checks...)
	}
	return out, nil
}

func (req RealityRequest) progress(format string, args ...any) {
	if req.Progress != nil {
		req.Progress(format, args...)
	}
}

// scanRounds reads the layout of every folder; a folder without a trace
// or without statistics is not a devdvm round.
func scanRounds(dirs []string) ([]realityRound, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("reality: no folder given: expected devdvm output folders (run.sh OUT)")
	}
	var rounds []realityRound
	for _, d := range dirs {
		r, err := scanRound(d)
		if err != nil {
			return nil, err
		}
		rounds = append(rounds, r)
	}
	return rounds, nil
}

// scanRound lists one folder's traces, statistics and original reports.
func scanRound(dir string) (realityRound, error) {
	r := realityRound{dir: dir, traces: map[string]string{}, sts: map[string]map[string]string{},
		pred: map[string]map[string]string{}, pa: map[string]map[string]string{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return r, fmt.Errorf("reality: %w", err)
	}
	for _, e := range ents {
		n, p := e.Name(), filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
		case strings.HasSuffix(n, ".ptr.gz") || strings.HasSuffix(n, ".ptr"):
			r.traces[ingest.TraceName(p)] = p
		case strings.HasSuffix(n, ".sts.gz+"):
			addByGrid(r.sts, ingest.StsName(p), p)
		}
	}
	for sub, m := range map[string]map[string]map[string]string{"pred": r.pred, "pa": r.pa} {
		ents, _ := os.ReadDir(filepath.Join(dir, "extra", sub))
		for _, e := range ents {
			n := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".html"), ".txt")
			if n != e.Name() {
				addByGrid(m, n, filepath.Join(dir, "extra", sub, e.Name()))
			}
		}
	}
	if len(r.traces) == 0 || len(r.sts) == 0 {
		return r, fmt.Errorf("reality: %s has %d traces (NAME.ptr.gz) and statistics of %d programs (NAME.GRID.sts.gz+): expected a devdvm output folder with both", dir, len(r.traces), len(r.sts))
	}
	return r, nil
}

// addByGrid files path under NAME and GRID of "NAME.GRID".
func addByGrid(m map[string]map[string]string, nameGrid, path string) {
	i := strings.LastIndex(nameGrid, ".")
	if i < 0 {
		return
	}
	name, grid := nameGrid[:i], trimGrid(nameGrid[i+1:])
	if m[name] == nil {
		m[name] = map[string]string{}
	}
	m[name][grid] = path
}

// trimGrid writes a grid of ones as 1: the analyzer's 1x1x1x1 is the
// one-process run of grid 1; other grids stay as named (2x1 is not 2).
func trimGrid(g string) string {
	if strings.Trim(g, "1x") == "" && g != "" {
		return "1"
	}
	return g
}

// ingestRound stores one round's traces and statistics (an ingest of a
// file already stored writes nothing and gives the stored one).
func ingestRound(ctx context.Context, st *store.Store, r realityRound, progress func(string, ...any)) (realityRuns, error) {
	out := realityRuns{traceID: map[string]int64{}, measured: map[string]map[string]int64{}}
	for name, path := range r.traces {
		info, err := ingest.Trace(ctx, st, path, nil)
		if err != nil {
			return out, fmt.Errorf("%s: %w", path, err)
		}
		out.traceID[name] = info.ID
	}
	for name, grids := range r.sts {
		out.measured[name] = map[string]int64{}
		for grid, path := range grids {
			info, err := ingest.Sts(ctx, st, path)
			if err != nil {
				return out, fmt.Errorf("%s: %w", path, err)
			}
			out.measured[name][grid] = info.RunID
		}
	}
	progress("%s: %d traces, statistics of %d programs stored", r.dir, len(r.traces), len(r.sts))
	return out, nil
}

// traceNames are the programs of every round with a trace and statistics, sorted.
func traceNames(rounds []realityRound) []string {
	seen := map[string]bool{}
	for _, r := range rounds {
		for n := range r.traces {
			if r.sts[n] != nil {
				seen[n] = true
			}
		}
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// gridOrder sorts grids by processes, then as strings: 1, 1x2, 2x1, 2x2.
func gridOrder(grids []string) {
	procs := func(g string) int {
		p, _ := result.ParseGrid(g)
		n := 1
		for _, d := range p {
			n *= d
		}
		return n
	}
	sort.Slice(grids, func(i, j int) bool {
		if a, b := procs(grids[i]), procs(grids[j]); a != b {
			return a < b
		}
		return grids[i] < grids[j]
	})
}

// realityRows predicts the trace of every round that has name on every
// grid any round measured, and makes one row per matched interval, with
// the extended column ext (by grid and realityKey; nil: not made).
func realityRows(ctx context.Context, st *store.Store, req RealityRequest, name, machineID string, runs []realityRuns, ext map[string]map[string]float64) ([]compare.RealityRow, error) {
	traceIDs, byGrid, _, grids := programRuns(name, runs)
	var rows []compare.RealityRow
	for _, g := range grids {
		req.progress("%s on %s: predicting", name, g)
		preds, err := roundPredictions(ctx, st, machineID, traceIDs, g)
		if err != nil {
			return nil, fmt.Errorf("predict %s on %s: %w", name, g, err)
		}
		r, err := gridRows(st, name, g, preds, byGrid[g], ext[g])
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// roundPredictions are the original-compatible predictions of each
// round's trace on grid.
func roundPredictions(ctx context.Context, st *store.Store, machineID string, traceIDs []int64, grid string) ([]*result.Run, error) {
	g, err := result.ParseGrid(grid)
	if err != nil {
		return nil, err
	}
	var preds []*result.Run
	for _, id := range traceIDs {
		pred, err := storedPredict(ctx, st, id, machineID, g)
		if err != nil {
			return nil, err
		}
		preds = append(preds, pred)
	}
	return preds, nil
}

// medianTrace is the round's trace of name whose original-compatible
// prediction of the measured Main on its first grid (the fewest
// processors; the program-level loop of an -e4 trace, matched as compare
// matches it, not the predicted Main, which holds the traced run's
// start-up) is the median of the rounds' (the lower one of an even
// count): the trace that stands for the rounds in the extended model's
// fit. The first round's trace when the predictions fail (realityRows
// then says why).
func medianTrace(ctx context.Context, st *store.Store, machineID, name string, runs []realityRuns) int64 {
	traceIDs, byGrid, _, grids := programRuns(name, runs)
	preds, err := roundPredictions(ctx, st, machineID, traceIDs, grids[0])
	if err != nil {
		return traceIDs[0]
	}
	measured, err := st.Run(byGrid[grids[0]][0])
	if err != nil {
		return traceIDs[0]
	}
	mains := make([]float64, len(preds))
	for i, p := range preds {
		mains[i] = matchedMain(measured, p)
	}
	order := make([]int, len(preds))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(mains[a], mains[b]) })
	return traceIDs[order[(len(order)-1)/2]]
}

// matchedMain is pred's time of the interval matched with measured's Main
// (NaN when none).
func matchedMain(measured, pred *result.Run) float64 {
	cmp, err := compare.Compare(measured, pred, compare.Options{})
	if err != nil {
		return math.NaN()
	}
	for _, mt := range cmp.Matches {
		if mt.By == compare.ByMain {
			v, _ := mt.Value(result.ExecutionTime)
			return v.Predicted
		}
	}
	return math.NaN()
}

// programRuns are a program's traces (each round's that has it, a file of
// several rounds once), its measured runs by grid, all of them, and its
// grids in order.
func programRuns(name string, runs []realityRuns) (traceIDs []int64, byGrid map[string][]int64, all []int64, grids []string) {
	byGrid = map[string][]int64{}
	for _, r := range runs {
		if id := r.traceID[name]; id != 0 && !slices.Contains(traceIDs, id) {
			traceIDs = append(traceIDs, id)
		}
		for g, id := range r.measured[name] {
			byGrid[g] = append(byGrid[g], id)
			if !slices.Contains(all, id) { // rounds of one file: the fit weighs it once
				all = append(all, id)
			}
		}
	}
	for g := range byGrid {
		grids = append(grids, g)
	}
	gridOrder(grids)
	return traceIDs, byGrid, all, grids
}

// gridRows matches every measured round of one grid with the prediction
// of every round's trace, interval by interval, in the first prediction's
// pre-order (Main first): a row holds each measured round and each
// prediction once.
func gridRows(st *store.Store, name, grid string, preds []*result.Run, measured []int64, ext map[string]float64) ([]compare.RealityRow, error) {
	var rows []compare.RealityRow
	at := map[string]int{}
	for n, id := range measured {
		m, err := st.Run(id)
		if err != nil {
			return nil, err
		}
		for p, pred := range preds {
			if n > 0 && p > 0 {
				break // each prediction is taken once, with the first measured round
			}
			cmp, err := compare.Compare(m, pred, compare.Options{})
			if err != nil {
				return nil, fmt.Errorf("%s on %s: run %d against run %d: %w", name, grid, id, pred.ID, err)
			}
			for _, mt := range cmp.Matches {
				v, _ := mt.Value(result.ExecutionTime)
				k := realityKey(mt.Measured.Depth, mt.Measured.String())
				i, ok := at[k]
				if !ok {
					i, at[k] = len(rows), len(rows)
					rows = append(rows, newRealityRow(name, grid, mt, ext, k))
				}
				if p == 0 {
					rows[i].Measured = append(rows[i].Measured, v.Measured)
				}
				if n == 0 {
					rows[i].Predictions = append(rows[i].Predictions, v.Predicted)
					rows[i].Predicted = compare.Median(rows[i].Predictions)
				}
			}
		}
	}
	return rows, nil
}

// realityKey names an interval of a run the same way for the measured
// rounds and the fit's report (fit.IntervalError.Interval and Depth).
func realityKey(depth int, interval string) string { return fmt.Sprintf("%d %s", depth, interval) }

func newRealityRow(name, grid string, mt compare.Match, ext map[string]float64, key string) compare.RealityRow {
	program, size, _ := strings.Cut(name, "_")
	label := mt.Measured.String()
	if mt.By == compare.ByMain {
		label = "Main"
	}
	e, ok := ext[key]
	if !ok {
		e = math.NaN()
	}
	return compare.RealityRow{Trace: name, Program: program, Size: size, Grid: grid, Interval: label,
		Depth: mt.Measured.Depth, Extended: e}
}

// storedPredict is the original-compatible prediction of a stored trace on
// a grid: the stored one when there is one (the check is idempotent), else
// predicted and stored.
func storedPredict(ctx context.Context, st *store.Store, traceID int64, machineID string, grid []int) (*result.Run, error) {
	req := PredictRequest{Trace: strconv.FormatInt(traceID, 10), Machine: machineID, Config: result.Config{Grid: grid}}
	if run, err := StoredPrediction(ctx, st, req); err != nil || run != nil {
		return run, err
	}
	return PredictOne(ctx, st, req)
}

// extendedMethod says how the extended column is made.
const extendedMethod = "the extended model (an in-node message start-up time, a run work per process, an I/O copy time per byte, a node contention and a strided iteration time, docs/compare.md) fitted (sim/fit.FitHost) to every other program, size and grid of the check, the row's run left out, with the host's fresh page time"

// extendedRows fits the extended model's host parameters without each
// unit in turn and predicts the unit left out: the extended column, by
// trace name, grid and realityKey, and a note per unit with what its fit
// found.
func extendedRows(h *hostFitter, units []*hostUnit) (map[string]map[string]map[string]float64, []string, error) {
	out := map[string]map[string]map[string]float64{}
	var notes []string
	sets := make([][]*hostUnit, len(units))
	for i, u := range units {
		sets[i] = without(units, u)
	}
	fits, err := h.fitAll(sets)
	if err != nil {
		return nil, nil, err
	}
	for i, u := range units {
		hf := fits[i]
		times, err := h.extended(u, hf)
		if err != nil {
			return nil, nil, fmt.Errorf("%s on %s: %w", u.name, u.grid, err)
		}
		if out[u.name] == nil {
			out[u.name] = map[string]map[string]float64{}
		}
		out[u.name][u.grid] = times
		notes = append(notes, fmt.Sprintf("extended: %s on %s fitted without it: %s (RMS of the log residuals %.3f, the original-compatible model's %.3f)",
			u.name, u.grid, hostParams(hf), hf.RMS, hf.RMSStart))
	}
	if len(fits) > 1 {
		notes = append(notes, "extended: "+hostSpread(fits))
	}
	return out, notes, nil
}

// hostSpread says how far the parameters of the fits without one run
// spread, each from its least to its largest value, in the machine
// files' units: how much one run moves what the others tell.
func hostSpread(fits []fit.HostFit) string {
	span := func(v func(fit.HostFit) float64, unit float64) string {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range fits {
			lo, hi = math.Min(lo, v(f)*unit), math.Max(hi, v(f)*unit)
		}
		return fmt.Sprintf("%.3g–%.3g", lo, hi)
	}
	return fmt.Sprintf("the %d fits without one run spread over in-node TStart %s µs, run work %s ms, I/O copy time %s ns/B, contention %s%%, strided iteration time %s ns", len(fits),
		span(func(f fit.HostFit) float64 { return f.TStartNode }, 1e6),
		span(func(f fit.HostFit) float64 { return f.RunWork }, 1e3),
		span(func(f fit.HostFit) float64 { return f.IOByte }, 1e9),
		span(func(f fit.HostFit) float64 { return f.Contention }, 100),
		span(func(f fit.HostFit) float64 { return f.Strided }, 1e9))
}

// hostParams says what a host fit found, in the machine files' units, and
// how it divided the time outside the trace between the run work and the
// I/O copy time (fit.IOSplit).
func hostParams(hf fit.HostFit) string {
	return fmt.Sprintf("in-node TStart %.3g µs, run work %.3g ms, I/O copy time %.3g ns/B (%s), contention %.3g%%, strided iteration time %.3g ns",
		hf.TStartNode*1e6, hf.RunWork*1e3, hf.IOByte*1e9, hf.Split, hf.Contention*100, hf.Strided*1e9)
}

// crossFits is the leave-one-out across programs and sizes: the extended
// model's host parameters fitted to every run of one program (every
// size), the other programs predicted on them, and fitted to every run of
// one size (every program), the other sizes predicted: one line per
// predicted program and size, with Main's error on each grid against the
// median of its rounds. A size is a program's rank among its sizes by
// measured Main (the biggest jac pairs with the biggest sor).
func crossFits(h *hostFitter, units []*hostUnit) ([]string, error) {
	rank := sizeRanks(units)
	groups := []struct {
		label string
		in    func(u *hostUnit) string // the unit's group
	}{
		{"program", func(u *hostUnit) string { p, _, _ := strings.Cut(u.name, "_"); return p }},
		{"size rank", func(u *hostUnit) string { return fmt.Sprintf("%d", rank[u.name]) }},
	}
	// Every group of every kind, fitted on its own runs: the fits run
	// side by side, the lines come in this order.
	type cross struct {
		label             string
		fitted, predicted []*hostUnit
		fittedNames       []string
	}
	var crosses []cross
	for _, g := range groups {
		var keys []string
		for _, u := range units {
			if k := g.in(u); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		if len(keys) < 2 {
			continue
		}
		for _, k := range keys {
			c := cross{label: g.label}
			for _, u := range units {
				if g.in(u) == k {
					c.fitted = append(c.fitted, u)
					if !slices.Contains(c.fittedNames, u.name) {
						c.fittedNames = append(c.fittedNames, u.name)
					}
				} else {
					c.predicted = append(c.predicted, u)
				}
			}
			crosses = append(crosses, c)
		}
	}
	sets := make([][]*hostUnit, len(crosses))
	for i, c := range crosses {
		sets[i] = c.fitted
	}
	fits, err := h.fitAll(sets)
	if err != nil {
		return nil, err
	}
	var lines []string
	for i, c := range crosses {
		hf := fits[i]
		errs := map[string][]string{}
		var order []string
		for _, u := range c.predicted {
			pred, err := h.predict(u, hf)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", u.name, u.grid, err)
			}
			if _, ok := errs[u.name]; !ok {
				order = append(order, u.name)
			}
			errs[u.name] = append(errs[u.name], fmt.Sprintf("%s %s", u.grid, pctString(mainError(u, pred))))
		}
		for _, name := range order {
			lines = append(lines, fmt.Sprintf("fitted on %s (%s: %s), predicted %s: error %s",
				strings.Join(c.fittedNames, ", "), c.label, hostParams(hf), name, strings.Join(errs[name], ", ")))
		}
	}
	return lines, nil
}

// sizeRanks ranks each trace among its program's traces by the sum of its
// grids' median measured Main, the biggest 0.
func sizeRanks(units []*hostUnit) map[string]int {
	size := map[string]float64{}
	for _, u := range units {
		var mains []float64
		for _, m := range u.measured {
			mains = append(mains, mainTime(m))
		}
		size[u.name] += compare.Median(mains)
	}
	rank := map[string]int{}
	for a := range size {
		pa, _, _ := strings.Cut(a, "_")
		for b := range size {
			if pb, _, _ := strings.Cut(b, "_"); pa == pb && size[b] > size[a] {
				rank[a]++
			}
		}
	}
	return rank
}

// mainError is the error of pred's Main against the median of u's
// measured Main, as the table has it: the measured Main against the
// predicted program-level loop where the trace has one.
func mainError(u *hostUnit, pred *result.Run) float64 {
	var mains []float64
	for _, m := range u.measured {
		mains = append(mains, mainTime(m))
	}
	return matchedMain(u.measured[0], pred)/compare.Median(mains) - 1
}

// mainTime is the execution time of a measured run's Main (its first interval).
func mainTime(r *result.Run) float64 {
	if len(r.Intervals) == 0 {
		return math.NaN()
	}
	return r.Intervals[0].Values[result.ExecutionTime]
}

func pctString(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", 100*v)
}

// checkReports holds Presage's reports of one round against the
// original's: the Predictor's on the round's trace, the analyzer's on the
// round's statistics.
func checkReports(ctx context.Context, st *store.Store, req RealityRequest, r realityRound, runs realityRuns, machineID string) ([]compare.ReportCheck, error) {
	var out []compare.ReportCheck
	for _, name := range sortedKeys(r.pred) {
		for _, g := range sortedKeys(r.pred[name]) {
			c, err := checkPredictor(ctx, st, r.pred[name][g], runs.traceID[name], machineID, g)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	if req.Analyzer == nil {
		return out, nil
	}
	for _, name := range sortedKeys(r.pa) {
		for _, g := range sortedKeys(r.pa[name]) {
			path := r.pa[name][g]
			id, ok := runs.measured[name][g]
			if !ok {
				return nil, fmt.Errorf("%s: no statistics %s.%s.sts.gz+ in %s: expected the run the report was made from", path, name, g, r.dir)
			}
			diffs, err := req.Analyzer(ctx, id, path)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			out = append(out, compare.ReportCheck{Kind: "analyzer", Original: path, Against: fmt.Sprintf("measured run %d", id), Diffs: diffs})
		}
	}
	return out, nil
}

// checkPredictor predicts the round's trace on the report's grid and
// compares every value the original's report prints.
func checkPredictor(ctx context.Context, st *store.Store, path string, traceID int64, machineID, grid string) (compare.ReportCheck, error) {
	c := compare.ReportCheck{Kind: "predictor", Original: path}
	if traceID == 0 {
		return c, fmt.Errorf("%s: no trace of its program in the folder: expected NAME.ptr.gz beside extra/", path)
	}
	g, err := result.ParseGrid(grid)
	if err != nil {
		return c, fmt.Errorf("%s: grid %q: %w", path, grid, err)
	}
	ours, err := storedPredict(ctx, st, traceID, machineID, g)
	if err != nil {
		return c, fmt.Errorf("%s: predict: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer f.Close()
	orig, err := predhtml.Read(f, path)
	if err != nil {
		return c, err
	}
	c.Against = fmt.Sprintf("predicted run %d (trace %d on %s)", ours.ID, traceID, grid)
	c.Diffs, c.Rounding = compare.OriginalReport(ours, orig, reportChars())
	return c, nil
}

// reportChars are the values an original Predictor report prints: the main
// table and the table of operation classes.
func reportChars() []result.Char {
	chars := slices.Clone(predhtml.Chars[:])
	for cl := result.OpIO; cl < result.NumOpClasses; cl++ {
		for col := result.OpCount; col <= result.OpOverlap; col++ {
			chars = append(chars, result.OpChar(cl, col))
		}
	}
	return chars
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
