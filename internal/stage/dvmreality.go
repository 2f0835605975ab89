package stage

import (
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
	Extended bool
	// PowerFree fits the power too: the runs ran on another host than the
	// traces (FitRequest.PowerFree); off, the power stays 1.
	PowerFree bool
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
	b, err := os.ReadFile(filepath.Join(dir, "sysinfo.txt"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "nproc:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
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
		Extended: fmt.Sprintf("%s (host: %d node(s) of %d core(s))", extendedMethod, req.Host.Nodes, req.Host.CoresPerNode)}
	if !req.Extended {
		out.Extended = "not made (--no-extended)"
	}
	for _, name := range traceNames(rounds) {
		rows, notes, err := realityRows(ctx, st, req, name, machineID, runs)
		if err != nil {
			return nil, err
		}
		out.Rows = append(out.Rows, rows...)
		out.Notes = append(out.Notes, notes...)
	}
	if req.Extended {
		lines, notes, err := crossFits(ctx, st, req, machineID, traceNames(rounds), runs)
		if err != nil {
			return nil, err
		}
		out.LeaveOneOut = lines
		out.Notes = append(out.Notes, notes...)
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
// grid any round measured, and makes one row per matched interval.
func realityRows(ctx context.Context, st *store.Store, req RealityRequest, name, machineID string, runs []realityRuns) ([]compare.RealityRow, []string, error) {
	traceIDs, byGrid, all, grids := programRuns(name, runs)
	traceID := traceIDs[0] // the extended column's
	var rows []compare.RealityRow
	var notes []string
	for _, g := range grids {
		req.progress("%s on %s: predicting", name, g)
		grid, err := result.ParseGrid(g)
		if err != nil {
			return nil, nil, err
		}
		var preds []*result.Run
		for _, id := range traceIDs {
			pred, err := storedPredict(ctx, st, id, machineID, grid)
			if err != nil {
				return nil, nil, fmt.Errorf("predict %s on %s: %w", name, g, err)
			}
			preds = append(preds, pred)
		}
		ext := map[string]float64{}
		if req.Extended {
			if ext, err = extendedPrediction(ctx, st, req, traceID, machineID, all, g); err != nil {
				notes = append(notes, fmt.Sprintf("%s on %s: no extended prediction: %v", name, g, err))
			}
		}
		r, err := gridRows(st, name, g, preds, byGrid[g], ext)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, r...)
	}
	return rows, notes, nil
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

// extendedMethod says how extendedPrediction makes the extended column.
const extendedMethod = "the machine fitted by presage fit (internal/stage.Fit) to every measured run of the program but the grid's, the grid predicted on it"

// extendedPrediction is the extended column of one grid: the machine
// fitted to the program's measured runs without that grid's (leave one
// out), and the grid predicted on it, by interval key. The one place the
// extended model is called: swap the fit or the model here.
func extendedPrediction(ctx context.Context, st *store.Store, req RealityRequest, traceID int64, machineID string, measured []int64, grid string) (map[string]float64, error) {
	tmp, err := os.MkdirTemp("", "presage-reality-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	oc, err := Fit(ctx, st, FitRequest{
		Trace: strconv.FormatInt(traceID, 10), Measured: measured, Machine: machineID, Host: req.Host,
		Holdout: []string{grid}, Out: filepath.Join(tmp, fmt.Sprintf("reality-t%d-%s-loo.par", traceID, grid)),
		PowerFree: req.PowerFree,
	})
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, e := range oc.Errors {
		if e.Holdout {
			out[realityKey(e.Depth, e.Interval)] = e.After
		}
	}
	return out, nil
}

// crossFits is the leave-one-out across programs and sizes: each
// program's machine fitted (extended, as the extended column) to all its
// measured runs, and every other program of the same size, and the same
// program's other sizes, predicted on it: one line per pair, "fitted on
// X, predicted Y: error" and Main's error on each grid, against the
// median of the rounds. A size is a program's rank among the sizes of
// its name's program (by Main's measured median on its grids): the
// biggest jac pairs with the biggest sor. A fit or a prediction that
// fails is a note, not an error.
func crossFits(ctx context.Context, st *store.Store, req RealityRequest, machineID string, names []string, runs []realityRuns) (lines, notes []string, err error) {
	type prog struct {
		name, program string
		traceID       int64
		byGrid        map[string][]int64
		all           []int64
		grids         []string
		rank          int
		size          float64 // sum of the grids' median Main, measured
		fitted        *fit.Result
	}
	var progs []*prog
	for _, n := range names {
		p := &prog{name: n}
		p.program, _, _ = strings.Cut(n, "_")
		var traceIDs []int64
		traceIDs, p.byGrid, p.all, p.grids = programRuns(n, runs)
		p.traceID = traceIDs[0]
		for _, g := range p.grids {
			var mains []float64
			for _, id := range p.byGrid[g] {
				if m, err := st.Run(id); err == nil {
					mains = append(mains, mainTime(m))
				}
			}
			p.size += compare.Median(mains)
		}
		progs = append(progs, p)
	}
	for _, p := range progs {
		for _, q := range progs {
			if q.program == p.program && q.size > p.size {
				p.rank++
			}
		}
	}
	tmp, err := os.MkdirTemp("", "presage-reality-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	for _, a := range progs {
		req.progress("%s: fitting on every grid, for the leave-one-out across programs and sizes", a.name)
		oc, err := Fit(ctx, st, FitRequest{Trace: strconv.FormatInt(a.traceID, 10), Measured: a.all, Machine: machineID, Host: req.Host,
			Out: filepath.Join(tmp, fmt.Sprintf("reality-t%d-all.par", a.traceID)), PowerFree: req.PowerFree})
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			notes = append(notes, fmt.Sprintf("leave-one-out: no fit on %s: %v", a.name, err))
			continue
		}
		a.fitted = &oc.Fit
	}
	for _, a := range progs {
		if a.fitted == nil {
			continue
		}
		for _, b := range progs {
			if a == b || (a.program != b.program && a.rank != b.rank) {
				continue
			}
			errs, err := crossPredict(ctx, st, req, machineID, *a.fitted, b.traceID, b.byGrid, b.grids)
			if err != nil {
				if ctx.Err() != nil {
					return nil, nil, ctx.Err()
				}
				notes = append(notes, fmt.Sprintf("leave-one-out: %s not predicted on %s's fit: %v", b.name, a.name, err))
				continue
			}
			how := ""
			if a.fitted.Kept {
				how = " (the fit kept the starting machine)"
			}
			lines = append(lines, fmt.Sprintf("fitted on %s%s, predicted %s: error %s", a.name, how, b.name, strings.Join(errs, ", ")))
		}
	}
	return lines, notes, nil
}

// crossPredict predicts a trace's measured grids on what a fit of another
// trace gives (with the extended model), and writes Main's error against
// the median of each grid's rounds: "1 +3.1%".
func crossPredict(ctx context.Context, st *store.Store, req RealityRequest, machineID string, res fit.Result, traceID int64, byGrid map[string][]int64, grids []string) ([]string, error) {
	f, err := newFitter(ctx, st, FitRequest{Trace: strconv.FormatInt(traceID, 10), Machine: machineID, Host: req.Host,
		Out: "reality-cross.par"})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, g := range grids {
		var mains []float64
		var pred *result.Run
		predicted := math.NaN()
		for _, id := range byGrid[g] {
			m, err := st.Run(id)
			if err != nil {
				return nil, err
			}
			if pred == nil {
				if pred, err = f.predictWith(res, fitRun{run: m, procs: m.Config.Procs()}); err != nil {
					return nil, err
				}
			}
			cmp, err := compare.Compare(m, pred, compare.Options{})
			if err != nil {
				return nil, err
			}
			for _, mt := range cmp.Matches {
				if mt.By == compare.ByMain {
					// Main as the table has it: the measured Main against
					// the predicted program-level loop where the trace has one.
					v, _ := mt.Value(result.ExecutionTime)
					mains = append(mains, v.Measured)
					predicted = v.Predicted
				}
			}
		}
		e := math.NaN()
		if len(mains) > 0 {
			e = predicted/compare.Median(mains) - 1
		}
		out = append(out, fmt.Sprintf("%s %s", g, pctString(e)))
	}
	return out, nil
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
