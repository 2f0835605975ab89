package calibration

import (
	"math"
	"strings"
	"testing"
)

// TestMedianBound: the 95% interval of the median from the order
// statistics n/2 ± 0.98√n; unbounded with too few values.
func TestMedianBound(t *testing.T) {
	ten := []float64{0.9, 0.95, 0.98, 0.99, 1, 1, 1.01, 1.02, 1.05, 1.1}
	// n = 10: half = ⌈0.98·√10⌉ = 4, order statistics 1 and 8 (0.95 and
	// 1.05), median 1: half-width 0.05.
	if got := MedianBound(ten); math.Abs(got-0.05) > 1e-12 {
		t.Errorf("bound of ten runs %v, want 0.05", got)
	}
	if got := MedianBound(ten[:3]); !math.IsInf(got, 1) {
		t.Errorf("bound of three runs %v, want +Inf (too few)", got)
	}
}

// pinnedRows returns reps runs of block at α n (f = n) on each CPU, c
// on CPU i given by c(i, rep).
func pinnedRows(block string, n float64, cpus, reps int, c func(cpu, rep int) float64) []Row {
	var rows []Row
	for rep := range reps {
		for cpu := range cpus {
			rows = append(rows, Row{Block: block, Alpha: []float64{n}, F: n, Seconds: c(cpu, rep) * n,
				Machine: "m", Rep: rep*cpus + cpu, Copies: 1, CPU: cpu})
		}
	}
	return rows
}

// TestMedianOfCPUs: a block 40% slower on CPU 1 is priced at the mean of
// the CPUs' medians, however many runs each CPU has, and not at the
// overall median, which would fall on either CPU's side by a run.
func TestMedianOfCPUs(t *testing.T) {
	rows := pinnedRows("gemm", 64, 2, 10, func(cpu, rep int) float64 { return (1 + 0.4*float64(cpu)) * (1 + 0.001*float64(rep)) })
	rows = append(rows, pinnedRows("gemm", 64, 1, 3, func(_, rep int) float64 { return 1.004 })[:1]...) // one more on CPU 0
	rows[len(rows)-1].Rep = 99
	st := Analyze(rows, DefaultThresholds)
	p := st[0].Points[0]
	if len(p.CPUs) != 2 || p.CPUs[0].CPU != 0 || p.CPUs[1].CPU != 1 || p.CPUs[0].Runs != 11 {
		t.Fatalf("CPUs %+v, want CPU 0 of 11 runs and CPU 1", p.CPUs)
	}
	want := (p.CPUs[0].Median + p.CPUs[1].Median) / 2
	if p.Median != want || math.Abs(p.Median-1.2045) > 0.001 {
		t.Errorf("median %v, want the mean of the CPUs' %v (about 1.2045)", p.Median, want)
	}
	if math.Abs(p.CPUSpread()-0.4) > 0.01 {
		t.Errorf("CPU spread %v, want 0.4", p.CPUSpread())
	}
	if !(p.Bound < 0.01) {
		t.Errorf("bound %v, want the CPUs' runs within 1%%", p.Bound)
	}
}

// TestMedianLeavesFaultsOut: the runs that took page faults are left out
// of a CPU's median when it has runs without; with none, each counts less
// its faults at the rate the runs show.
func TestMedianLeavesFaultsOut(t *testing.T) {
	rows := pinnedRows("merge", 1000, 1, 9, func(_, rep int) float64 { return 1 + 3*float64(rep%3/2) }) // 1, 1, 4, …
	for i := range rows {
		if rows[i].Seconds > 2000 {
			rows[i].Faults = 4096
		}
	}
	st := Analyze(rows, DefaultThresholds)[0]
	if p := st.Points[0]; p.Median != 1 || p.CPUs[0].Runs != 6 || math.Abs(st.Faulted-1.0/3) > 1e-12 {
		t.Errorf("median %v of %d runs, %.2f faulted; want 1 of the 6 runs without faults, a third faulted", p.Median, p.CPUs[0].Runs, st.Faulted)
	}
	// Every run faulted, c = 2 + 0.01 per fault, one run slowed by
	// something else: priced at 2, the runs less their faults.
	rows = pinnedRows("merge", 1000, 1, 9, func(_, rep int) float64 { return 2 + 0.01*float64(10*rep+10) })
	for i := range rows {
		rows[i].Faults = 10*i + 10
	}
	rows[4].Seconds *= 3
	if p := Analyze(rows, DefaultThresholds)[0].Points[0]; math.Abs(p.Median-2) > 1e-9 || p.CPUs[0].Runs != 9 {
		t.Errorf("every run faulted: median %v of %d runs, want 2 of all 9 less their faults", p.Median, p.CPUs[0].Runs)
	}
}

// TestAdvise: one line per block not known within the precision (how
// far its runs vary, between which times, the repetitions that would
// bound it), one for a loaded machine, one for CPUs that differ; none
// for a block whose runs vary but whose median is known.
func TestAdvise(t *testing.T) {
	var rows []Row
	// ref: 10 rounds on each of 2 CPUs, steady.
	rows = append(rows, pinnedRows(RefBlock, 1, 2, 10, func(int, int) float64 { return 0.01 })...)
	// steady: 200 runs on each CPU spread evenly over 10%: they vary,
	// but their median is known within 1%.
	rows = append(rows, pinnedRows("steady", 1000, 2, 200, func(_, rep int) float64 { return 1e-6 * (1 + 0.1*float64(rep)/200) })...)
	// wild: 3 runs on each CPU varying ±30%: too few to bound.
	rows = append(rows, pinnedRows("wild", 1000, 2, 3, func(_, rep int) float64 { return 1e-6 * (1 + 0.3*float64(rep%3-1)) })...)
	// noisy: 10 runs on each CPU varying by ±5%: known within 5%.
	rows = append(rows, pinnedRows("noisy", 1000, 2, 10, func(_, rep int) float64 { return 1e-6 * (1 + 0.05*float64(rep%3-1)) })...)
	// cores: 40% slower on CPU 1, steady on each.
	rows = append(rows, pinnedRows("cores", 1000, 2, 20, func(cpu, _ int) float64 { return 1e-6 * (1 + 0.4*float64(cpu)) })...)
	// faulty: every other run faulted, and took twice as long.
	faulty := pinnedRows("faulty", 1000, 2, 20, func(_, rep int) float64 { return 1e-6 * float64(1+rep%2) })
	for i := range faulty {
		faulty[i].Faults = 100 * (i / 2 % 2)
	}
	rows = append(rows, faulty...)
	loaded := pinnedRows("loaded", 1000, 1, 30, func(int, int) float64 { return 1e-6 })
	for i := range loaded {
		loaded[i].Wall = 2 * loaded[i].Seconds
	}
	rows = append(rows, loaded...)
	var lines []string
	for _, a := range Advise(Analyze(rows, DefaultThresholds), DefaultPrecision) {
		lines = append(lines, a.Text)
	}
	want := []string{
		"block cores on m: runs 40% slower on CPU 1 than on CPU 0 at α 1000 (1.4 ms against 1 ms): the machine's cores differ, and the block is priced at their mean",
		"block faulty on m: 50% of its runs took page faults (memory fresh from the system, as a program that has warmed its heap up seldom does): priced without them",
		"block loaded on m: the machine was loaded during 100% of its runs (their wall time above 1.1× their CPU time): calibrate again on a quiet machine",
		"block noisy on m: c varies 10% between runs at α 1000 (950 µs–1.05 ms), its median known within ±5.0%: calibrate with -orders.reps 63 on a quiet machine",
		"block wild on m: c varies 45% between runs at α 1000 (775 µs–1.22 ms), its median known from too few runs to bound it: calibrate with -orders.reps 20 on a quiet machine",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("advice\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestSuggestReps: the interval narrows as 1/√n, so a median known
// within twice the precision after 5 repetitions needs 20.
func TestSuggestReps(t *testing.T) {
	for _, tc := range []struct {
		reps        int
		bound, prec float64
		want        int
	}{
		{5, 0.04, 0.02, 20},
		{5, 0.021, 0.02, 6},
		{5, math.Inf(1), 0.02, 10},
		{0, 0.04, 0.02, 20},
		{10, 0.3, 0.02, MaxSuggestedReps},
	} {
		if got := suggestReps(tc.reps, tc.bound, tc.prec); got != tc.want {
			t.Errorf("suggestReps(%d, %v, %v) = %d, want %d", tc.reps, tc.bound, tc.prec, got, tc.want)
		}
	}
}

// TestAdviseProbe: a probe whose runs moved (half of them 2.5 times
// slower, as the host's state changed) gets one line saying the
// machine's own speed varied, none asking for repetitions; a steady probe
// gets none.
func TestAdviseProbe(t *testing.T) {
	moved := pinnedRows(ProbeBlock, 1e6, 2, 10, func(_, rep int) float64 { return 3.4e-10 * (1 + 1.5*float64(rep/5)) })
	steady := pinnedRows(ProbeBlock, 1e6, 2, 10, func(_, rep int) float64 { return 3.4e-10 * (1 + 0.001*float64(rep)) })
	for _, tt := range []struct {
		name  string
		rows  []Row
		lines int
	}{{"moved", moved, 1}, {"steady", steady, 0}} {
		got := Advise(Analyze(tt.rows, DefaultThresholds), DefaultPrecision)
		if len(got) != tt.lines {
			t.Errorf("%s probe: %d lines %v, want %d", tt.name, len(got), got, tt.lines)
			continue
		}
		for _, a := range got {
			if !strings.Contains(a.Text, "the machine's own speed varied") || strings.Contains(a.Text, "-orders.reps") {
				t.Errorf("%s probe: %q, want the machine's own speed and no repetitions", tt.name, a.Text)
			}
		}
	}
}
