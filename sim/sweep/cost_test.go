package sweep

import (
	"math"
	"testing"
)

// TestCostPicks checks the cost questions on run-time tables: the fastest
// size within a budget, the cheapest meeting a deadline, their ties and
// the answers when nothing qualifies.
func TestCostPicks(t *testing.T) {
	// 24/n rounded up: 6 nodes cost 24, 5 and 7 cost 25 and 28.
	falling := map[int]float64{1: 24, 2: 12, 4: 6, 5: 5, 6: 4, 7: 4, 8: 3, 16: 2}
	// Transfers make 2 to 4 nodes slower than 1; from 5 on, 23 s.
	anomaly := map[int]float64{1: 24, 2: 31, 4: 31, 5: 23, 6: 23, 8: 23}
	for _, tc := range []struct {
		name     string
		times    map[int]float64
		fastest  bool    // FastestWithin, else CheapestFor
		limit    float64 // budget or deadline
		want     int
		wantCost float64
	}{
		{"fastest within, the largest that fits", falling, true, 24, 8, 24},
		{"fastest within, all fit", falling, true, 32, 16, 32},
		{"fastest within, only the smallest", map[int]float64{1: 10, 2: 6, 4: 4}, true, 10, 1, 10},
		{"fastest within, none", falling, true, 23.9, 0, 0},
		{"fastest within, equal times: fewer nodes", anomaly, true, 200, 5, 115},
		{"fastest within, not monotone", anomaly, true, 100, 1, 24},
		// 5 nodes meet 5.5 s first, at 25 node-seconds; 6 and 8 cost 24,
		// and 8 are faster.
		{"cheapest for, not the smallest meeting it", falling, false, 5.5, 8, 24},
		{"cheapest for, the smallest meeting it", falling, false, 3.5, 8, 24},
		{"cheapest for, the smallest meeting it, alone", falling, false, 2, 16, 32},
		{"cheapest for, equal costs: the faster", map[int]float64{1: 24, 2: 12, 3: 9}, false, 30, 2, 24},
		{"cheapest for, none", falling, false, 1, 0, 0},
		{"cheapest for, not monotone", anomaly, false, 30, 1, 24},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got Pick
			var err error
			if tc.fastest {
				got, err = FastestWithin(tc.times, tc.limit)
			} else {
				got, err = CheapestFor(tc.times, tc.limit)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Size != tc.want || got.Cost != tc.wantCost {
				t.Errorf("%d nodes costing %g, want %d costing %g", got.Size, got.Cost, tc.want, tc.wantCost)
			}
			if tc.want > 0 && got.Time != tc.times[tc.want] {
				t.Errorf("time %g, want %g", got.Time, tc.times[tc.want])
			}
			least := math.Inf(1)
			for n, t := range tc.times {
				least = min(least, NodeSeconds(n, t))
			}
			if got.Scanned != len(tc.times) || got.Least != least {
				t.Errorf("scanned %d sizes, least cost %g; want %d, %g", got.Scanned, got.Least, len(tc.times), least)
			}
		})
	}
}

// TestCostPicksRejects checks the errors: a budget or deadline that is no
// finite bound, a run time or size that makes no cost.
func TestCostPicksRejects(t *testing.T) {
	ok := map[int]float64{1: 2}
	for _, tc := range []struct {
		name string
		run  func() (Pick, error)
	}{
		{"budget 0", func() (Pick, error) { return FastestWithin(ok, 0) }},
		{"budget +Inf", func() (Pick, error) { return FastestWithin(ok, math.Inf(1)) }},
		{"budget NaN", func() (Pick, error) { return FastestWithin(ok, math.NaN()) }},
		{"deadline < 0", func() (Pick, error) { return CheapestFor(ok, -1) }},
		{"deadline +Inf", func() (Pick, error) { return CheapestFor(ok, math.Inf(1)) }},
		{"size 0", func() (Pick, error) { return CheapestFor(map[int]float64{0: 1}, 1) }},
		{"time NaN", func() (Pick, error) { return FastestWithin(map[int]float64{2: math.NaN()}, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p, err := tc.run(); err == nil {
				t.Errorf("no error: %+v", p)
			}
		})
	}
	if p, err := CheapestFor(nil, 1); err != nil || p.Size != 0 || p.Scanned != 0 || !math.IsInf(p.Least, 1) {
		t.Errorf("no sizes: %+v, %v", p, err)
	}
}
