package sweep_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/sweep"
)

// testPlan compiles a small generated Jacobi trace and plans def on an
// 8-processor machine.
func testPlan(t *testing.T, def sweep.Definition) *sweep.Plan {
	t.Helper()
	var buf bytes.Buffer
	if _, err := tracegen.Write(&buf, tracegen.Options{Program: tracegen.Jacobi, N: 32, Iterations: 3, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	r, err := ptr.NewReader(&buf, "gen.ptr")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := sim.Compile(r.Header(), r)
	if err != nil {
		t.Fatal(err)
	}
	m, err := machinefile.Parse(strings.NewReader("cluster = c;\nc = {8 x p};\nc.TStart = 10;\nc.TByte = 0.01;\np = 1.00;\n"), "t.par")
	if err != nil {
		t.Fatal(err)
	}
	p, err := sweep.NewPlan(def, prog, []sweep.Machine{{Name: "t", SHA256: "x", Machine: m}}, sim.Options{TraceFile: "gen.ptr"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConfigsCanonicalOrder: the last parameter varies fastest, indexes
// number the kept configurations, and grids larger than the machine are
// counted as skipped.
func TestConfigsCanonicalOrder(t *testing.T) {
	p := testPlan(t, sweep.Definition{Grids: [][]int{{2}, {16}, {2, 2}}, TStart: []float64{1e-6, 2e-6}})
	if len(p.Configs) != 4 || p.Skipped != 2 {
		t.Fatalf("%d configurations, %d skipped; want 4 and 2 (grid 16 on 8 processors)", len(p.Configs), p.Skipped)
	}
	want := []string{"t 2 cluster tstart=1e-06s", "t 2 cluster tstart=2e-06s", "t 2x2 cluster tstart=1e-06s", "t 2x2 cluster tstart=2e-06s"}
	for i, c := range p.Configs {
		if c.Index != i || p.Describe(c) != want[i] {
			t.Errorf("configuration %d: index %d, %q; want %q", i, c.Index, p.Describe(c), want[i])
		}
	}
	if got, err := sweep.Shard(p.Configs, 1, 3); err != nil || len(got) != 1 || got[0].Index != 1 {
		t.Errorf("shard 1/3: %+v, %v", got, err)
	}
}

func TestNormalizeRejects(t *testing.T) {
	for _, tc := range []struct {
		def  sweep.Definition
		want string
	}{
		{sweep.Definition{Machines: []sweep.MachineRef{{}}}, "no grid"},
		{sweep.Definition{Machines: []sweep.MachineRef{{}}, Grids: [][]int{{2, 0}}}, "every size must be positive"},
		{sweep.Definition{Machines: []sweep.MachineRef{{}}, Grids: [][]int{{2}}, Networks: []string{"torus"}}, "unknown network"},
		{sweep.Definition{Machines: []sweep.MachineRef{{}}, Grids: [][]int{{2}}, Power: []float64{math.NaN()}}, "power NaN"},
		{sweep.Definition{Machines: []sweep.MachineRef{{}}, Grids: [][]int{{2}}, TStart: []float64{-1}}, "tstart -1"},
		{sweep.Definition{Grids: [][]int{{2}}}, "no machine"},
	} {
		if err := tc.def.Normalize(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Normalize(%+v) = %v, want an error with %q", tc.def, err, tc.want)
		}
	}
}

// TestExecuteEqualsSimulate: every emitted run is the configuration's own
// simulation, with the overrides applied (a larger start-up time cannot
// make the run faster).
func TestExecuteEqualsSimulate(t *testing.T) {
	p := testPlan(t, sweep.Definition{Grids: [][]int{{1}, {2}, {4}}, TStart: []float64{1e-6, 1e-3}})
	got := map[int]*result.Run{}
	err := sweep.Execute(context.Background(), p.Configs, 2, p.Simulate, func(c sweep.Config, run *result.Run) error {
		got[c.Index] = run
		return nil
	})
	if err != nil || len(got) != len(p.Configs) {
		t.Fatalf("Execute: %v, %d of %d runs", err, len(got), len(p.Configs))
	}
	for _, c := range p.Configs {
		want, err := p.Simulate(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		g, w := got[c.Index].Intervals[0].Values[result.ExecutionTime], want.Intervals[0].Values[result.ExecutionTime]
		if g != w || got[c.Index].Config.TStart != c.TStart {
			t.Errorf("%s: Execute gave %g (tstart %g), Simulate %g", p.Describe(c), g, got[c.Index].Config.TStart, w)
		}
	}
	for i := 0; i+1 < len(p.Configs); i += 2 {
		fast, slow := got[i].Intervals[0].Values[result.ExecutionTime], got[i+1].Intervals[0].Values[result.ExecutionTime]
		if slow < fast || (p.Configs[i].Procs() > 1 && slow == fast) {
			t.Errorf("%s: tstart 1 ms gives %g s, 1 µs %g s", p.Describe(p.Configs[i]), slow, fast)
		}
	}
}

// TestExecuteStopsOnEmitError: the first error of emit is returned and no
// run is emitted after it.
func TestExecuteStopsOnEmitError(t *testing.T) {
	p := testPlan(t, sweep.Definition{Grids: [][]int{{1}, {2}, {4}, {8}}, Power: []float64{1, 2}})
	stop := errors.New("disk full")
	emitted := 0
	err := sweep.Execute(context.Background(), p.Configs, 2, p.Simulate, func(sweep.Config, *result.Run) error {
		emitted++
		return stop
	})
	if !errors.Is(err, stop) || emitted != 1 {
		t.Errorf("Execute = %v after %d emits; want %v after 1", err, emitted, stop)
	}
}
