package stage

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/fit"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// runWorkProbe is the run work hostFitter.findLengthening simulates with
// to find the intervals it lengthens: any positive value does (the
// lengthening is exact), one far above rounding and far below any
// interval's time.
const runWorkProbe = 1e-3

// ioByteProbe is the I/O copy time hostFitter.findLengthening simulates
// with to find how much it lengthens each interval: 1 ns a byte, of the
// order real runs take (docs/compare.md), so that where the lengthening
// is not one for one (the I/O processor was behind another) the slope is
// the one near the fitted value.
const ioByteProbe = 1e-9

// contentionProbe is the node contention hostFitter.findLengthening
// simulates with to find how much it lengthens each interval: 10% a busy
// neighbour, of the order a node's cores slow each other (docs/compare.md),
// so that the slope is the one near the fitted value.
const contentionProbe = 0.1

// stridedProbe is the strided iteration time hostFitter.findLengthening
// simulates with to find how much it lengthens each interval: 1 ns an
// iteration, of the order sor's 1x2 runs take (docs/compare.md).
const stridedProbe = 1e-9

// hostUnit is one program, size and grid of the DVM reality check for the
// extended model's host fit: the trace that stands for the program's
// rounds and the grid's measured runs.
type hostUnit struct {
	name     string // the trace's name (program_size)
	grid     string
	procs    int
	ct       *CompiledTrace   // the trace the fit predicts: the rounds' median (medianTrace)
	rounds   []*CompiledTrace // every round's trace, which the extended column predicts
	measured []*result.Run
	// open are the matched intervals (realityKey) the run work lengthens:
	// those open at the trace's end.
	open map[string]bool
	// ioBytes is how much the I/O copy time lengthens each matched
	// interval (realityKey), seconds per second-per-byte
	// (fit.Observation.IOBytes).
	ioBytes map[string]float64
	// contended is how much the node contention lengthens each matched
	// interval (realityKey), seconds per unit of contention
	// (fit.Observation.Contended).
	contended map[string]float64
	// strided is how much the strided iteration time lengthens each
	// matched interval (realityKey), seconds per second-per-iteration
	// (fit.Observation.Strided).
	strided map[string]float64
	// memo holds the observations of each in-node start-up time predicted:
	// the host fit's grid is the same for every fit. The fits run side by
	// side (fitAll); memoMu guards it.
	memoMu sync.Mutex
	memo   map[float64][]fit.Observation
}

// hostFitter fits the extended model's host parameters (fit.FitHost) to
// units of the reality check and predicts units on them. The parameters
// other than the in-node start-up time, the run work, the I/O copy time,
// the node contention and the strided iteration time are the starting
// machine's; the power is 1 (the traces were recorded on the host); the
// fresh page time is the host's, measured, not fitted.
// ioByte is the I/O copy time a fit keeps where its runs cannot tell it
// from the run work (runs of one size): the request's, else the starting
// machine's iobyte statement, else 0.
type hostFitter struct {
	ctx    context.Context
	host   fit.Host
	start  fit.Params
	ioByte float64
}

// newHostFitter starts from machine base on host; ioByte, when positive,
// is the I/O copy time fits of one size keep instead of base's; freshPage
// is the host's fresh page time.
func newHostFitter(ctx context.Context, host fit.Host, base *machine.Machine, ioByte, freshPage float64) *hostFitter {
	p := fit.FromMachine(base)
	if ioByte <= 0 {
		ioByte = p.IOByte
	}
	p.Power, p.RunWork, p.IOByte, p.Contention, p.Strided, p.FreshPage = 1, 0, 0, 0, 0, freshPage
	return &hostFitter{ctx: ctx, host: host, start: p, ioByte: ioByte}
}

// newHostUnit makes the unit of trace ct (of the rounds' traces) on grid,
// measured by runs.
func (h *hostFitter) newHostUnit(name, grid string, ct *CompiledTrace, rounds []*CompiledTrace, runs []*result.Run) (*hostUnit, error) {
	u := &hostUnit{name: name, grid: grid, procs: runs[0].Config.Procs(), ct: ct, rounds: rounds, measured: runs,
		memo: map[float64][]fit.Observation{}}
	if err := h.findLengthening(u); err != nil {
		return nil, err
	}
	return u, nil
}

// fitted are the starting parameters with the in-node start-up time, the
// run work, the I/O copy time, the node contention and the strided
// iteration time of hf.
func (h *hostFitter) fitted(hf fit.HostFit) fit.Params {
	p := h.start
	p.TStart[1], p.RunWork, p.IOByte, p.Contention, p.Strided = hf.TStartNode, hf.RunWork, hf.IOByte, hf.Contention, hf.Strided
	return p
}

// simulate predicts unit u's fitted trace with parameters p.
func (h *hostFitter) simulate(u *hostUnit, p fit.Params) (*result.Run, error) {
	return h.simulateTrace(u, u.ct, p)
}

// simulateTrace predicts trace ct on unit u's grid with parameters p.
func (h *hostFitter) simulateTrace(u *hostUnit, ct *CompiledTrace, p fit.Params) (*result.Run, error) {
	if err := h.ctx.Err(); err != nil {
		return nil, err
	}
	m := h.host.Machine("host", p, u.procs)
	run, err := sim.Simulate(ct.Program, m, result.Config{Grid: u.measured[0].Config.Grid},
		sim.Options{TraceFile: filepath.Base(ct.Info.Path)})
	return run, ct.Verdict(h.ctx, err)
}

// findLengthening finds the intervals of u the run work lengthens and how much
// the I/O copy time, the node contention and the strided iteration time
// lengthen each, from five predictions: with none of them, with
// runWorkProbe, with ioByteProbe, with contentionProbe and with
// stridedProbe.
func (h *hostFitter) findLengthening(u *hostUnit) error {
	t0 := h.start.TStart[1]
	var times [5]map[string]float64
	probes := []fit.Params{h.start, h.fitted(fit.HostFit{TStartNode: t0, RunWork: runWorkProbe}),
		h.fitted(fit.HostFit{TStartNode: t0, IOByte: ioByteProbe}), h.fitted(fit.HostFit{TStartNode: t0, Contention: contentionProbe}),
		h.fitted(fit.HostFit{TStartNode: t0, Strided: stridedProbe})}
	for i, p := range probes {
		pred, err := h.simulate(u, p)
		if err != nil {
			return err
		}
		if times[i], err = matchTimes(u.measured[0], pred); err != nil {
			return err
		}
	}
	u.open, u.ioBytes, u.contended, u.strided = map[string]bool{}, map[string]float64{}, map[string]float64{}, map[string]float64{}
	for k, t := range times[0] {
		u.open[k] = math.Abs(times[1][k]-t-runWorkProbe) < runWorkProbe/1e3
		// Below a nanosecond the difference is the float32 rounding of
		// the clocks the original's model keeps (sim/engine's cost.go),
		// not a copy.
		if d := times[2][k] - t; d > 1e-9 {
			u.ioBytes[k] = d / ioByteProbe
		}
		if d := times[3][k] - t; d > 1e-9 {
			u.contended[k] = d / contentionProbe
		}
		if d := times[4][k] - t; d > 1e-9 {
			u.strided[k] = d / stridedProbe
		}
	}
	return nil
}

// matchTimes are the predicted execution times of the intervals of pred
// matched with measured, by realityKey.
func matchTimes(measured, pred *result.Run) (map[string]float64, error) {
	cmp, err := compare.Compare(measured, pred, compare.Options{})
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, m := range cmp.Matches {
		v, _ := m.Value(result.ExecutionTime)
		out[realityKey(m.Measured.Depth, m.Measured.String())] = v.Predicted
	}
	return out, nil
}

// observations are unit u's observations at in-node start-up time tstart
// without run work: every matched interval, measured as the median of the
// rounds' times, the figure the check holds a prediction to, with the
// rounds' spread (fit.Observation.Spread). Every round
// counted alone let one grid's slow rounds weigh as many observations
// (sor's 1x2, whose rounds spread by a quarter, docs/compare.md).
func (h *hostFitter) observations(u *hostUnit, tstart float64) ([]fit.Observation, error) {
	u.memoMu.Lock()
	defer u.memoMu.Unlock()
	if obs, ok := u.memo[tstart]; ok {
		return obs, nil
	}
	pred, err := h.simulate(u, h.fitted(fit.HostFit{TStartNode: tstart}))
	if err != nil {
		return nil, err
	}
	var keys []string
	predicted, measured := map[string]float64{}, map[string][]float64{}
	for _, m := range u.measured {
		cmp, err := compare.Compare(m, pred, compare.Options{})
		if err != nil {
			return nil, err
		}
		for _, mt := range cmp.Matches {
			v, _ := mt.Value(result.ExecutionTime)
			k := realityKey(mt.Measured.Depth, mt.Measured.String())
			if _, ok := measured[k]; !ok {
				keys = append(keys, k)
			}
			predicted[k] = v.Predicted
			measured[k] = append(measured[k], v.Measured)
		}
	}
	obs := make([]fit.Observation, 0, len(keys))
	for _, k := range keys {
		obs = append(obs, fit.Observation{Predicted: predicted[k], Measured: compare.Median(measured[k]),
			Open: u.open[k], IOBytes: u.ioBytes[k], Contended: u.contended[k], Strided: u.strided[k],
			Spread: logSpread(measured[k])})
	}
	u.memo[tstart] = obs
	return obs, nil
}

// logSpread is the logarithm of the slowest of times over the fastest: 0
// for one time, or where the fastest is not positive.
func logSpread(times []float64) float64 {
	if lo := slices.Min(times); lo > 0 {
		return math.Log(slices.Max(times) / lo)
	}
	return 0
}

// fit fits the host parameters to units.
func (h *hostFitter) fit(units []*hostUnit) (fit.HostFit, error) {
	if len(units) == 0 {
		return fit.HostFit{}, fmt.Errorf("no run to fit the host parameters to")
	}
	return fit.FitHost(func(tstart float64) ([]fit.Observation, error) {
		var all []fit.Observation
		for _, u := range units {
			obs, err := h.observations(u, tstart)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", u.name, u.grid, err)
			}
			all = append(all, obs...)
		}
		return all, nil
	}, h.start.TStart[1], h.ioByte)
}

// fitAll fits the host parameters to each set of units, the fits side by
// side on the process's cores: each is a search of its own over the
// observations, which take a few simulations and then seconds of
// arithmetic.
func (h *hostFitter) fitAll(sets [][]*hostUnit) ([]fit.HostFit, error) {
	fits := make([]fit.HostFit, len(sets))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, units := range sets {
		g.Go(func() (err error) {
			fits[i], err = h.fit(units)
			return err
		})
	}
	return fits, g.Wait()
}

// predict is unit u's fitted trace predicted on the host parameters hf.
func (h *hostFitter) predict(u *hostUnit, hf fit.HostFit) (*result.Run, error) {
	return h.simulate(u, h.fitted(hf))
}

// extended is unit u's extended column: every round's trace predicted on
// the host parameters hf, each matched interval's median (by realityKey),
// as the original-compatible column takes the median of the rounds'
// predictions.
func (h *hostFitter) extended(u *hostUnit, hf fit.HostFit) (map[string]float64, error) {
	all := map[string][]float64{}
	for _, ct := range u.rounds {
		pred, err := h.simulateTrace(u, ct, h.fitted(hf))
		if err != nil {
			return nil, err
		}
		times, err := matchTimes(u.measured[0], pred)
		if err != nil {
			return nil, err
		}
		for k, t := range times {
			all[k] = append(all[k], t)
		}
	}
	out := map[string]float64{}
	for k, ts := range all {
		out[k] = compare.Median(ts)
	}
	return out, nil
}

// without are the units but u.
func without(units []*hostUnit, u *hostUnit) []*hostUnit {
	return slices.DeleteFunc(slices.Clone(units), func(v *hostUnit) bool { return v == u })
}

// hostUnits makes the reality check's units: for each program and size,
// on every measured grid, every round's trace, and the one whose
// original-compatible prediction is the median of the rounds' (median: a
// trace made on a busy machine runs slow) for the fit.
func hostUnits(h *hostFitter, st *store.Store, names []string, runs []realityRuns, median func(name string) int64) ([]*hostUnit, error) {
	var units []*hostUnit
	for _, name := range names {
		traceIDs, byGrid, _, grids := programRuns(name, runs)
		fitted := median(name)
		var ct *CompiledTrace
		var rounds []*CompiledTrace
		for _, id := range traceIDs {
			c, err := CompileTrace(h.ctx, st, fmt.Sprint(id), nil)
			if err != nil {
				return nil, err
			}
			rounds = append(rounds, c)
			if id == fitted {
				ct = c
			}
		}
		for _, g := range grids {
			var measured []*result.Run
			for _, id := range byGrid[g] {
				m, err := st.Run(id)
				if err != nil {
					return nil, err
				}
				measured = append(measured, m)
			}
			u, err := h.newHostUnit(name, g, ct, rounds, measured)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", name, g, err)
			}
			units = append(units, u)
		}
	}
	return units, nil
}
