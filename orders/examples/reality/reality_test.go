package reality

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/examples/programs"
)

// TestPredictionsMatchReality runs the reality check on every example at
// two sizes (Program.Medium and Size), with every placement of the
// runtime (each scheduler, pinned and migrating), on 1, 2 and every power
// of two up to the machine's cores (PRESAGE_REALITY_WORKERS, a
// comma-separated list, overrides them), and judges the figures by
// realityRule (Judge): the median prediction within Bound (10%) of the
// best measured makespan on 1 and 2 workers, a fixed bound that the
// machine's noise does not widen; the known gaps within their own stated
// bounds; and at least three quarters of the figures counted. It logs the
// table and the verdict's summary line, "within 10%: N of M figures".
//
// Each figure is the median of three independent checks, each with its own
// calibration: on a virtual machine the same run varies from one run to
// the next (memory and cores shared with the neighbours), which a single
// check cannot tell from an error of the model, while an error of the
// model moves all three. A check in which the machine did not give the
// runs their cores (Figure.Capacity below 90% of the workers) does not
// count, and a figure counts only with two of its three checks.
//
// It times real runs, so it runs only when asked, alone on the machine:
// PRESAGE_REALITY=1 go test -run TestPredictionsMatchReality ./orders/examples/reality
// (PRESAGE_REALITY=report logs the figures beyond their bounds instead of
// failing on them; too few figures counted still fails the test)
// (CI does, before the other tests, which share the cores; so does
// `just reality`).
func TestPredictionsMatchReality(t *testing.T) {
	if os.Getenv("PRESAGE_REALITY") == "" {
		t.Skip("times real runs: run it alone with PRESAGE_REALITY=1 (CI does, in its own step)")
	}
	if raceEnabled {
		t.Skip("the race detector distorts the timings")
	}
	workers := DefaultWorkers()
	if list := os.Getenv("PRESAGE_REALITY_WORKERS"); list != "" {
		var err error
		if workers, err = ParseCounts(list); err != nil {
			t.Fatalf("PRESAGE_REALITY_WORKERS: %v", err)
		}
	}
	const checks = 3
	var all [][]Figure // per figure, the checks of it that counted
	for _, p := range programs.All() {
		for _, size := range []int{p.Medium, p.Size} {
			var byFigure [][]Figure
			for range checks {
				figs, err := Check(p, size, workers, Placements(), Options{Runs: 3})
				if err != nil {
					t.Fatal(err)
				}
				byFigure = slices.Grow(byFigure, len(figs))[:len(figs)]
				for i, f := range figs {
					if f.Capacity >= 0.9*float64(f.Workers) {
						byFigure[i] = append(byFigure[i], f)
					} else {
						t.Logf("%v: not counted, the machine gave fewer cores", f)
					}
				}
			}
			all = append(all, byFigure...)
		}
	}
	v := Judge(all, realityRule(len(all), checks))
	var table strings.Builder
	WriteTable(&table, v.Medians)
	t.Logf("median errors of %d checks:\n%s", checks, table.String())
	for _, n := range v.Notes {
		t.Log(n)
	}
	// PRESAGE_REALITY=report (CI's step, while issue 44's calibration
	// does not hold on its machine) logs the figures beyond their bound
	// (Bound, or a known gap's) and fails only when too few figures
	// counted. Any other value fails on every figure beyond its bound.
	failures := v.Failures
	if os.Getenv("PRESAGE_REALITY") == "report" {
		for _, m := range v.Misses {
			t.Log("beyond the bound: " + m)
		}
		failures = v.Hard()
	}
	for _, f := range failures {
		t.Error(f)
	}
	t.Log(v.Summary(Bound))
}

// realityRule is the rule TestPredictionsMatchReality judges its figures
// by, expected figures of checks independent checks each: Bound on 1 and
// 2 workers, a figure counted with a majority of its checks, and three
// quarters of the figures counted.
func realityRule(expected, checks int) Rule {
	return Rule{Bound: Bound, BoundedWorkers: 2, MinChecks: checks/2 + 1,
		MinCounted: (3*expected + 3) / 4, Gaps: knownGaps}
}

// knownGaps are the programs and sizes checked against their own stated
// bounds rather than Bound, with the reason: a gap of the model,
// documented in docs/orders-sim.md, that keeps the issue of these
// predictions open.
var knownGaps = map[string]Gap{
	"cholesky-fine n=1024": {
		Reason: "5,984 orders made up front: a run on one worker spends a third of its time in the runtime (waking goroutines across threads, the collector scanning thousands of parked stacks), several times the per-order cost timed with few orders alive (predicted 7-40% too fast on one worker)",
		Bound:  0.40,
	},
}

func TestMedian(t *testing.T) {
	figs := []Figure{{Measured: 1, Predicted: 1.3}, {Measured: 1, Predicted: 0.5}, {Measured: 1, Predicted: 1.1}, {Measured: 1, Predicted: 0.95}}
	if got := Median(figs); got.Predicted != 0.95 {
		t.Errorf("median of errors +30%%, -50%%, +10%%, -5%%: %+.0f%%, want -5%% (the lower middle)", 100*got.Error())
	}
	if got := Median(figs[:3]); got.Predicted != 1.1 {
		t.Errorf("median of errors +30%%, -50%%, +10%%: %+.0f%%, want +10%%", 100*got.Error())
	}
}

// TestBestConstants: per block, the mean over α of each α's fastest run.
func TestBestConstants(t *testing.T) {
	rows := []calibration.Row{
		{Block: "mul", Alpha: []float64{64}, F: 100, Seconds: 2, Rep: 0},
		{Block: "mul", Alpha: []float64{64}, F: 100, Seconds: 1, Rep: 1}, // c = 0.01
		{Block: "mul", Alpha: []float64{128}, F: 1000, Seconds: 30, Rep: 0},
		{Block: "mul", Alpha: []float64{128}, F: 1000, Seconds: 50, Rep: 1}, // best c = 0.03
		{Block: "add", Alpha: []float64{8}, F: 8, Seconds: 4, Rep: 0},
	}
	got := BestConstants(calibration.Analyze(rows, calibration.DefaultThresholds))
	want := calibration.Constants{"mul": {Curve: calibration.Curve{{F: 100, C: 0.01}, {F: 1000, C: 0.03}}}, "add": {Curve: calibration.Curve{{F: 8, C: 0.5}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("constants %v, want %v", got, want)
	}
}
