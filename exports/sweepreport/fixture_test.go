package sweepreport

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// fixtureProgram is the program name of the fixture's runs; it holds markup
// that must come out escaped.
const fixtureProgram = `jac<script>alert("x")</script>`

// fixtureSeries are the three series of the fixture sweep: per network, the
// communication cost per processor of its time model.
var fixtureSeries = []struct {
	network string
	tstart  float64
	comm    float64
}{
	{"bus", 0, 0.05},
	{"cluster", 20e-6, 0.01},
	{"mesh", 0, 0.002},
}

// fixtureGrids are the grids of every series: 6 processor counts from 1 to
// 32. The bus series also has 2x8 next to 4x4, slower by slowerGrid.
var fixtureGrids = [][]int{{1}, {2}, {2, 2}, {2, 4}, {4, 4}, {4, 8}}

const slowerGrid = 1.5

// modelTime is the fixture's execution time on p processors: 10 s of
// perfectly parallel work plus comm seconds per processor.
func modelTime(p int, comm float64) float64 { return 10/float64(p) + comm*float64(p) }

// sweepFixture is a stored sweep and what was stored.
type sweepFixture struct {
	st      *store.Store
	traceID int64
	sweepID int64
	runs    []*result.Run
	outside int64 // the run outside the sweep
}

// newSweep builds a store with one sweep of 3 series x 6 processor counts
// (plus the slower 2x8 grid of the bus series) and a run outside the sweep.
func newSweep(t *testing.T) *sweepFixture {
	t.Helper()
	f := &sweepFixture{st: storetest.Open(t)}
	info, err := fixture.SaveTrace(context.Background(), f.st, "jac", fixture.Calls(10, rand.New(rand.NewSource(1))))
	if err != nil {
		t.Fatal(err)
	}
	f.traceID = info.ID
	f.sweepID = f.newSweep(t, stored.Sweep{Command: "presage sweep jac --grids 1..32 --network bus,cluster,mesh",
		Hash: "h1", Configs: 20, Skipped: 1})
	traceID := f.traceID
	for _, s := range fixtureSeries {
		for _, g := range fixtureGrids {
			f.save(t, traceID, f.sweepID, s.network, s.tstart, g, modelTime(product(g), s.comm))
		}
		if s.network == "bus" {
			f.save(t, traceID, f.sweepID, s.network, s.tstart, []int{2, 8}, slowerGrid*modelTime(16, s.comm))
		}
	}
	f.outside = f.save(t, traceID, 0, "bus", 0, []int{64}, 0.01) // not in the sweep: must not show
	return f
}

// newSweep stores a sweep of the fixture's trace.
func (f *sweepFixture) newSweep(t *testing.T, sw stored.Sweep) int64 {
	t.Helper()
	sw.TraceID, sw.Kind, sw.Definition = f.traceID, "sweep", "{}"
	id, err := f.st.EnsureSweep(context.Background(), sw)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func itoa(n int) string { return strconv.Itoa(n) }

func product(g []int) int {
	n := 1
	for _, d := range g {
		n *= d
	}
	return n
}

// save stores one run whose tree is Main 1 > (Seq 2 > Par 3, User 4) with
// values that follow the model's identities.
func (f *sweepFixture) save(t *testing.T, traceID, sweepID int64, network string, tstart float64, grid []int, exec float64, warnings ...result.Warning) int64 {
	t.Helper()
	p := float64(product(grid))
	ivs := []*result.Interval{
		{ID: 1, Level: 0, Type: result.Main, Count: 1, Line: 1, File: "jac.fdv", Children: []int{2, 4}},
		{ID: 2, Parent: 1, Level: 1, Type: result.Seq, Count: 1, Line: 12, File: "jac.fdv", Children: []int{3}},
		{ID: 3, Parent: 2, Level: 2, Type: result.Par, Count: 50, Line: 14, File: "jac.fdv"},
		{ID: 4, Parent: 1, Level: 1, Type: result.User, Count: 1, Line: 30, File: "jac.fdv"},
	}
	for i, iv := range ivs {
		share := []float64{1, 0.8, 0.6, 0.2}[i]
		v := &iv.Values
		v[result.ExecutionTime] = exec * share
		v[result.TotalTime] = v[result.ExecutionTime] * p
		v[result.ProductiveTime] = 10 * share
		v[result.LostTime] = v[result.TotalTime] - v[result.ProductiveTime]
		v[result.Efficiency] = v[result.ProductiveTime] / v[result.TotalTime]
		v[result.InsuffParallelism] = v[result.LostTime] * 0.2
		v[result.Communication] = v[result.LostTime] * 0.5
		v[result.Idle] = v[result.LostTime] * 0.3
		v[result.LoadImbalance] = v[result.LostTime] * 0.4
		v[result.Synchronization] = v[result.LostTime] * 0.1
	}
	run := &result.Run{Kind: result.Predicted, TraceID: traceID, SweepID: sweepID, Program: fixtureProgram,
		Config:    result.Config{Machine: "Predictor", Grid: grid, Network: network, TStart: tstart},
		Intervals: ivs, ReportRoot: 1, Warnings: warnings}
	storetest.Save(t, f.st, run)
	if sweepID != 0 {
		f.runs = append(f.runs, run)
	}
	return run.ID
}

// render writes the fixture's report.
func (f *sweepFixture) render(t *testing.T, opt Options) []byte {
	t.Helper()
	in := f.load(t, opt)
	var b bytes.Buffer
	if err := Write(&b, in, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// load reads the report's input of the fixture's sweep.
func (f *sweepFixture) load(t *testing.T, opt Options) *Input {
	t.Helper()
	in, err := Load(context.Background(), f.st, f.sweepID, opt)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// points parses a polyline's points attribute.
func points(t *testing.T, pl *htmltest.Node) [][2]float64 {
	t.Helper()
	var out [][2]float64
	for _, f := range strings.Fields(pl.Attr["points"]) {
		var x, y float64
		if _, err := fmt.Sscanf(f, "%g,%g", &x, &y); err != nil {
			t.Fatalf("polyline point %q: %v", f, err)
		}
		out = append(out, [2]float64{x, y})
	}
	return out
}
