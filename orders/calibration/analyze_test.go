package calibration

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// timed returns rows of block on machine for matrix sizes n (f = n³),
// reps repetitions each, the seconds given by t(f, rep).
func timed(block string, sizes []float64, reps int, t func(f float64, rep int) float64) []Row {
	var rows []Row
	for _, n := range sizes {
		f := n * n * n
		for rep := range reps {
			rows = append(rows, Row{Block: block, Alpha: []float64{n}, F: f, Seconds: t(f, rep), Machine: "m1", Rep: rep})
		}
	}
	return rows
}

var sizes = []float64{64, 128, 256, 512, 1024}

func TestExactConstant(t *testing.T) {
	// c = 1, 2, 3 at every size: c̄ = 2, standard deviation 1.
	rows := timed("mm", sizes, 3, func(f float64, rep int) float64 { return float64(rep+1) * f })
	st := Analyze(rows, DefaultThresholds)
	if len(st) != 1 {
		t.Fatalf("%d stats, want 1", len(st))
	}
	s := st[0]
	if s.Block != "mm" || s.Machine != "m1" || s.Runs != 15 || s.Mean != 2 || math.Abs(s.StdDev-math.Sqrt(10.0/14)) > 1e-12 {
		t.Errorf("got %+v, want 15 runs, mean 2, sd sqrt(10/14)", s)
	}
	if len(s.Points) != 5 || s.Points[0].Alpha[0] != 64 || s.Points[2].Mean != 2 || s.Points[2].CV != 0.5 {
		t.Errorf("points %+v: want 5 in increasing f, each of mean 2 and CV 0.5", s.Points)
	}
	if math.Abs(s.Noise-0.5) > 1e-12 || s.Slope != 1 && math.Abs(s.Slope-1) > 1e-12 {
		t.Errorf("noise %v slope %v, want 0.5 and 1", s.Noise, s.Slope)
	}
}

func TestFlags(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	jitter := func(rel float64) func(float64, int) float64 {
		return func(f float64, _ int) float64 { return 2e-9 * f * (1 + rel*(2*rng.Float64()-1)) }
	}
	var rows []Row
	// good: 1% noise; noisy: 40%; drifting: T grows as f^1.1 (a cache
	// effect the estimate n³ misses); few: one size only, no slope.
	rows = append(rows, timed("good", sizes, 5, jitter(0.01))...)
	rows = append(rows, timed("noisy", sizes, 5, jitter(0.4))...)
	rows = append(rows, timed("drift", sizes, 5, func(f float64, _ int) float64 { return 1e-9 * math.Pow(f, 1.1) })...)
	rows = append(rows, timed("few", []float64{100}, 3, jitter(0.01))...)
	want := map[string]Flag{"good": 0, "noisy": Noisy, "drift": Drift, "few": 0}
	for _, s := range Analyze(rows, DefaultThresholds) {
		if s.Flags != want[s.Block] {
			t.Errorf("%s: flags %q (slope %.3f, noise %.3f), want %q", s.Block, s.Flags, s.Slope, s.Noise, want[s.Block])
		}
		if s.Block == "drift" && math.Abs(s.Slope-1.1) > 1e-9 {
			t.Errorf("drift: slope %v, want 1.1", s.Slope)
		}
		if s.Block == "few" && !math.IsNaN(s.Slope) {
			t.Errorf("few: slope %v from one size, want NaN", s.Slope)
		}
	}
}

func TestConstants(t *testing.T) {
	rows := append(timed("mm", sizes, 2, func(f float64, _ int) float64 { return 0.5 * f }),
		Row{Block: "mm", Alpha: []float64{64}, F: 262144, Seconds: 1, Machine: "m2"})
	c := ConstantsOf(Analyze(rows, DefaultThresholds), "m1")
	if s, ok := c.Price("mm", 1000); !ok || s != 500 {
		t.Errorf("Price(mm, 1000) = %v, %v; want 500, true", s, ok)
	}
	if _, ok := c.Price("fft", 10); ok {
		t.Error("an uncalibrated block has a price")
	}
}

func TestFlagString(t *testing.T) {
	if s := (Drift | Noisy).String(); s != "DRIFT,NOISY" {
		t.Errorf("got %q", s)
	}
}

// TestCurve: a block's price reads c at its f: each α's median, linear in
// log f between two calibrated α, the nearest one's outside them.
func TestCurve(t *testing.T) {
	// c = 4 at f = 100 (runs 4, 4, 40: a slow run moves the mean, not
	// the median), c = 1 at f = 10,000.
	rows := []Row{
		{Block: "b", Alpha: []float64{1}, F: 100, Seconds: 400, Machine: "m", Rep: 0},
		{Block: "b", Alpha: []float64{1}, F: 100, Seconds: 400, Machine: "m", Rep: 1},
		{Block: "b", Alpha: []float64{1}, F: 100, Seconds: 4000, Machine: "m", Rep: 2},
		{Block: "b", Alpha: []float64{2}, F: 10000, Seconds: 10000, Machine: "m", Rep: 0},
	}
	c := ConstantsOf(Analyze(rows, DefaultThresholds), "m")
	for _, tc := range []struct{ f, c float64 }{
		{10, 4}, {100, 4}, {1000, 2.5}, {10000, 1}, {1e6, 1},
	} {
		if s, _ := c.Price("b", tc.f); math.Abs(s-tc.c*tc.f) > 1e-9*s {
			t.Errorf("Price(b, %v) = %v, want c %v: %v", tc.f, s, tc.c, tc.c*tc.f)
		}
	}
	if got := Flat(3).Curve.At(12345); got != 3 {
		t.Errorf("a flat curve at 12345: %v", got)
	}
}

// TestSlowdownAndLoad: runs with copies give the slowdown, by copies,
// and leave the constants to the runs alone; runs whose wall time
// exceeds their CPU time count as loaded.
func TestSlowdownAndLoad(t *testing.T) {
	var rows []Row
	for rep := range 4 {
		for _, n := range []float64{10, 20} {
			f := n * n * n
			wall := 1.0 * f
			if rep == 0 {
				wall = 2 * f // waited for a core
			}
			rows = append(rows,
				Row{Block: "mm", Alpha: []float64{n}, F: f, Seconds: f, Machine: "m", Rep: rep, Copies: 1, Wall: wall},
				Row{Block: "mm", Alpha: []float64{n}, F: f, Seconds: 1.25 * f, Machine: "m", Rep: rep, Copies: 2},
				Row{Block: "mm", Alpha: []float64{n}, F: f, Seconds: 2 * f, Machine: "m", Rep: rep, Copies: 4})
		}
	}
	st := Analyze(rows, DefaultThresholds)
	if len(st) != 1 {
		t.Fatalf("%d stats, want 1", len(st))
	}
	s := st[0]
	if s.Runs != 8 || s.Mean != 1 {
		t.Errorf("%d runs of mean c %v; want the 8 alone, c 1", s.Runs, s.Mean)
	}
	want := []SlowdownPoint{{2, 1.25}, {4, 2}}
	if !reflect.DeepEqual(s.Slowdown, want) {
		t.Errorf("slowdown %v, want %v", s.Slowdown, want)
	}
	if s.Loaded != 0.25 {
		t.Errorf("loaded %v, want 0.25 (2 runs of 8)", s.Loaded)
	}
	p := ConstantsOf(st, "m")["mm"]
	for _, tc := range []struct {
		k int
		s float64
	}{{0, 1}, {1, 1}, {2, 1.25}, {3, 1.625}, {4, 2}, {16, 2}} {
		if got := p.SlowdownAt(tc.k); got != tc.s {
			t.Errorf("slowdown at %d copies: %v, want %v", tc.k, got, tc.s)
		}
	}
	if got := Flat(1).SlowdownAt(8); got != 1 {
		t.Errorf("no copies timed: slowdown %v at 8, want 1", got)
	}
	copiesOnly := []Row{{Block: "x", F: 1, Seconds: 1, Machine: "m", Copies: 2}}
	if st := Analyze(copiesOnly, DefaultThresholds); len(st) != 0 {
		t.Errorf("a block never timed alone: %+v, want no constant", st)
	}
}

// TestFaultFree: a block's constants leave out the runs that took page
// faults where some did not, take the faults' cost out at the rate the
// runs show where all did, and stay the runs' own where that rate would
// leave a run no time of its own.
func TestFaultFree(t *testing.T) {
	run := func(seconds float64, faults int) Row {
		return Row{Block: "merge", F: 1, Seconds: seconds, Faults: faults}
	}
	for _, tc := range []struct {
		name string
		rows []Row
		want []float64
	}{
		{"clean runs kept, faulted ones left out", []Row{run(1, 0), run(3, 100), run(1.2, 0)}, []float64{1, 1.2}},
		{"every run faulted: 0.01 s a fault taken out", []Row{run(2, 100), run(3, 200), run(4, 300)}, []float64{1, 1, 1}},
		{"one fault count: nothing to tell the rate by", []Row{run(2, 100), run(3, 100)}, []float64{2, 3}},
		// The slopes −0.04, 0.02 and 0.08 s a fault (median 0.02) would
		// leave the first run 2 − 2 = 0 s: the faults do not explain the
		// times.
		{"a rate that leaves a run no time: the runs' own", []Row{run(2, 100), run(4, 200), run(6, 150)}, []float64{2, 4, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := faultFree(tc.rows)
			if len(got) != len(tc.want) {
				t.Fatalf("%v, want %v", got, tc.want)
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-9 {
					t.Fatalf("%v, want %v", got, tc.want)
				}
			}
		})
	}
}
