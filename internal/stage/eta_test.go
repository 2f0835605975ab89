package stage

import (
	"math"
	"testing"
	"time"
)

// TestEstimatorWithinTwice feeds the estimator synthetic sweeps, each a
// run order of configurations with their expected costs and the times
// they really take (unknown to it), and checks the promise: once
// a tenth of the real time has passed, the estimated time left is within
// a factor 2 of the true time left at every finished configuration.
func TestEstimatorWithinTwice(t *testing.T) {
	const orders, calls = 200_000, 50_000
	// nodes is 1024, 512, ..., 1: the largest first, as orders sweeps run.
	var nodes []int
	for n := 1024; n >= 1; n /= 2 {
		nodes = append(nodes, n)
	}
	// procs is 1, 2, ..., 1024: a DVM sweep whose cost grows as it goes.
	procs := make([]int, len(nodes))
	for i, n := range nodes {
		procs[len(nodes)-1-i] = n
	}
	ordersCosts := func() []Cost {
		var cs []Cost
		for _, n := range nodes {
			cs = append(cs, ordersCost(orders, n))
		}
		return cs
	}
	dvmCosts := func() []Cost {
		var cs []Cost
		for _, p := range procs {
			cs = append(cs, dvmCost(calls, p))
		}
		return cs
	}
	// durations gives seconds per configuration of sizes.
	durations := func(sizes []int, f func(n int) float64) []float64 {
		var ds []float64
		for i, n := range sizes {
			// ±10% that no model foresees (sin: varied, repeatable).
			ds = append(ds, f(n)*(1+0.1*math.Sin(float64(3*i+1))))
		}
		return ds
	}
	tests := []struct {
		name  string
		costs []Cost
		secs  []float64
	}{
		{"orders, time ∝ N, largest first", ordersCosts(), durations(nodes, func(n int) float64 { return 0.08 * float64(n) })},
		{"orders, time constant", ordersCosts(), durations(nodes, func(int) float64 { return 15 })},
		{"orders, time of the model's shape, per-node part 5× the prior",
			ordersCosts(), durations(nodes, func(n int) float64 { return 1e-5 * orders * (1 + 5*float64(n)/64) })},
		{"DVM, time ∝ processors, smallest first", dvmCosts(), durations(procs, func(p int) float64 { return 0.3 * float64(p) })},
		{"time ∝ 1/N, largest first, model ∝ 1/N", func() []Cost {
			var cs []Cost
			for _, n := range nodes {
				cs = append(cs, Cost{Scaled: 1 / float64(n)})
			}
			return cs
		}(), durations(nodes, func(n int) float64 { return 30 / float64(n) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var total Cost
			var all float64
			for i, c := range tt.costs {
				total = total.add(c)
				all += tt.secs[i]
			}
			e := newEstimator(total, len(tt.costs), 1)
			var elapsed float64
			checked := 0
			for i, c := range tt.costs {
				elapsed += tt.secs[i]
				e.finished(c, secs(tt.secs[i]))
				trueLeft := all - elapsed
				if elapsed < all/10 || i == len(tt.costs)-1 {
					continue
				}
				got := e.remaining().Seconds()
				if r := got / trueLeft; r < 0.5 || r > 2 {
					t.Errorf("after %d of %d configurations (%.0f%% of the time): %.1fs left estimated, %.1fs true (×%.2f)",
						i+1, len(tt.costs), 100*elapsed/all, got, trueLeft, r)
				}
				checked++
			}
			if checked == 0 {
				t.Fatal("no estimate checked")
			}
			if got := e.remaining(); got != 0 {
				t.Errorf("left %v after the last configuration, want 0", got)
			}
		})
	}
}

// TestEstimatorBeforeAny: nothing finished, nothing to extrapolate from.
func TestEstimatorBeforeAny(t *testing.T) {
	if got := newEstimator(ordersCost(10, 4), 1, 1).remaining(); got != 0 {
		t.Errorf("left %v before any configuration finished, want 0", got)
	}
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
