package sweepreport

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/exports/htmltest"
	"github.com/presage-dvm/presage/ingest/storetest"
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
	db      *sqlx.DB
	sweepID int64
	runs    []*result.Run
}

// newSweep builds a store with one sweep of 3 series x 6 processor counts
// (plus the slower 2x8 grid of the bus series) and a run outside the sweep.
func newSweep(t *testing.T) *sweepFixture {
	t.Helper()
	db := storetest.Open(t)
	now := time.Now().UTC().Format(time.RFC3339)
	res, err := db.Exec(`INSERT INTO traces(name, path, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES ('jac', 'jac.ptr', 'abc', 100, 10, 1, '', 1, 'jac.fdv', ?)`, now)
	if err != nil {
		t.Fatal(err)
	}
	traceID, _ := res.LastInsertId()
	res, err = db.Exec(`INSERT INTO sweeps(trace_id, command, created_at, kind, def_hash, definition, configs, skipped)
		VALUES (?, 'presage sweep jac --grids 1..32 --network bus,cluster,mesh', ?, 'sweep', 'h1', '{}', 20, 1)`, traceID, now)
	if err != nil {
		t.Fatal(err)
	}
	f := &sweepFixture{db: db}
	f.sweepID, _ = res.LastInsertId()
	for _, s := range fixtureSeries {
		for _, g := range fixtureGrids {
			f.save(t, traceID, f.sweepID, s.network, s.tstart, g, modelTime(product(g), s.comm))
		}
		if s.network == "bus" {
			f.save(t, traceID, f.sweepID, s.network, s.tstart, []int{2, 8}, slowerGrid*modelTime(16, s.comm))
		}
	}
	f.save(t, traceID, 0, "bus", 0, []int{64}, 0.01) // not in the sweep: must not show
	return f
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
func (f *sweepFixture) save(t *testing.T, traceID, sweepID int64, network string, tstart float64, grid []int, exec float64) {
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
		Intervals: ivs, ReportRoot: 1}
	storetest.Save(t, f.db, run)
	if sweepID != 0 {
		f.runs = append(f.runs, run)
	}
}

// render writes the fixture's report.
func (f *sweepFixture) render(t *testing.T, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f.db, f.sweepID, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
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
