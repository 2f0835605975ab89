package reality

import (
	"fmt"
	"math"
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
// comma-separated list, overrides them): the median prediction must be
// within 25% of the best measured makespan on one worker, and within 40%
// on more, where the workers share memory and the cores with whatever
// else runs, plus the spread of the measured runs. It logs the table, and
// how many figures are within 10%, the goal.
//
// Each figure is the median of three independent checks, each with its own
// calibration: on a virtual machine the same run varies by up to 40% from
// one run to the next (memory shared with the neighbours), which a single
// check cannot tell from an error of the model, while an error of the
// model moves all three. And no prediction can be checked more closely
// than the machine repeats itself: the bound widens by the median spread
// of the runs (Figure.Spread). A check in which the machine did not give
// the runs their cores (Figure.Capacity below 90% of the workers) does
// not count. The figures of a known gap of the model (knownGaps) are
// logged, not bounded.
//
// It times real runs, so it runs only when asked, alone on the machine:
// PRESAGE_REALITY=1 go test -run TestPredictionsMatchReality ./orders/examples/reality
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
	var medians []Figure
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
			for _, figs := range byFigure {
				if len(figs) > 0 {
					medians = append(medians, checkMedian(t, figs))
				}
			}
		}
	}
	var table strings.Builder
	WriteTable(&table, medians)
	within := 0
	for _, f := range medians {
		if math.Abs(f.Error()) <= 0.1 {
			within++
		}
	}
	t.Logf("median errors of %d checks:\n%s%d of %d figures within 10%%", checks, table.String(), within, len(medians))
}

// knownGaps are the programs and sizes whose figures the check logs but
// does not bound, with the reason: a gap of the model, documented in
// docs/orders-sim.md, that keeps the issue of these predictions open.
var knownGaps = map[string]string{
	"cholesky-fine n=1024": "5,984 orders made up front: a run on one worker spends a third of its time in the runtime (waking goroutines across threads, the collector scanning thousands of parked stacks), several times the per-order cost timed with few orders alive (predicted 7-40% too fast on one worker)",
}

// checkMedian returns the figure of median error among figs, the same
// figure of independent checks, after checking it against its bound:
// widened by the median spread of the measured runs and of the
// calibration's, as no prediction can be checked more closely than the
// machine repeats itself.
func checkMedian(t *testing.T, figs []Figure) Figure {
	t.Helper()
	m := Median(figs)
	runs := make([]float64, len(figs))
	cals := make([]float64, len(figs))
	for i, f := range figs {
		runs[i], cals[i] = f.Spread, f.Calibrated.Spread
	}
	slices.Sort(runs)
	slices.Sort(cals)
	bound := 0.25
	if m.Workers > 1 {
		bound = 0.40
	}
	allowed := bound + runs[(len(runs)-1)/2] + cals[(len(cals)-1)/2]
	if math.Abs(m.Error()) <= allowed {
		return m
	}
	if gap, ok := knownGaps[fmt.Sprintf("%s n=%d", m.Program, m.Size)]; ok {
		t.Logf("median %v: off by more than %.0f%%, a known gap of the model: %s", m, 100*allowed, gap)
		return m
	}
	for _, f := range figs {
		t.Log(f)
	}
	t.Errorf("median %v: off by more than %.0f%%", m, 100*allowed)
	return m
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
