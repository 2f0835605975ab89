package sweep

import (
	"errors"
	"slices"
	"testing"
)

// TestSmallestForProbes runs the search on run-time tables (times[n-1]
// is the run time on n nodes) and checks the answer, how it was found,
// and the sizes probed where they say something (a bisection's log₂,
// the largest size first).
func TestSmallestForProbes(t *testing.T) {
	falling := []float64{24, 12, 8, 6, 5, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2} // 24/n rounded up
	for _, tc := range []struct {
		name     string
		times    []float64
		lo, hi   int
		deadline float64
		want     int
		scanned  bool
		probes   []int // nil: not checked
	}{
		{"monotone, inside", falling, 1, 16, 4.5, 6, false, []int{16, 1, 8, 4, 6, 5}},
		{"monotone, the smallest", falling, 1, 16, 30, 1, false, []int{16, 1}},
		{"monotone, exactly the smallest's time", falling, 1, 16, 24, 1, false, nil},
		{"monotone, the largest", falling, 1, 16, 2.5, 12, false, nil},
		{"monotone, only the largest", falling, 3, 12, 2, 12, false, nil},
		{"monotone, none", falling, 1, 16, 1, 0, false, []int{16, 1}},
		{"one size, met", falling, 4, 4, 6, 4, false, []int{4}},
		{"one size, not met", falling, 4, 4, 5, 0, false, []int{4}},
		{"range above 1", falling, 5, 11, 3.5, 8, false, nil},
		// Transfers make 2 to 4 nodes slower than 1.
		{"not monotone", []float64{24, 31, 31, 31, 23, 23, 23, 23}, 1, 8, 23.5, 5, true, []int{8, 1, 4, 6, 5, 2, 3}},
		{"not monotone, none", []float64{24, 31, 31, 31}, 1, 4, 23.5, 0, true, []int{4, 1, 2, 3}},
		{"not monotone, the smallest meets", []float64{24, 31, 31, 31}, 1, 4, 24, 1, false, []int{4, 1}},
		// The probes see 4 nodes slower than 1: the bisection's 8 is not
		// trusted, and the scan finds 2.
		{"anomaly seen", []float64{10, 4, 3, 12, 9, 9, 9, 4}, 1, 8, 4.5, 2, true, []int{8, 1, 4, 6, 7, 2}},
		// The same answer either way, but the probes are not monotone.
		{"anomaly seen, same answer", []float64{10, 4, 9, 5}, 1, 4, 5, 2, true, []int{4, 1, 2}},
		// An anomaly the probes cannot see: the answer is the bisection's.
		{"anomaly unseen", []float64{10, 4, 9, 9, 9, 9, 9, 5}, 1, 8, 5, 8, false, []int{8, 1, 4, 6, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := map[int]int{}
			got, err := SmallestFor(tc.lo, tc.hi, tc.deadline, func(n int) (float64, error) {
				asked[n]++
				return tc.times[n-1], nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.Size != tc.want || got.Scanned != tc.scanned {
				t.Errorf("%d nodes (scanned %v), want %d (scanned %v); probes %v", got.Size, got.Scanned, tc.want, tc.scanned, got.Probes)
			}
			if tc.want > 0 && got.Time != tc.times[tc.want-1] {
				t.Errorf("time %g, want %g", got.Time, tc.times[tc.want-1])
			}
			if tc.probes != nil && !slices.Equal(got.Probes, tc.probes) {
				t.Errorf("probes %v, want %v", got.Probes, tc.probes)
			}
			for n, k := range asked {
				if k != 1 || n < tc.lo || n > tc.hi {
					t.Errorf("size %d asked %d times (range %d..%d)", n, k, tc.lo, tc.hi)
				}
			}
			if len(asked) != len(got.Probes) {
				t.Errorf("%d sizes asked, %d probes listed", len(asked), len(got.Probes))
			}
		})
	}
}

// TestSmallestForBisects: on monotone run times the search asks about
// log₂ of the range, not the range.
func TestSmallestForBisects(t *testing.T) {
	for deadline := 1.0; deadline <= 1024; deadline *= 2 {
		got, err := SmallestFor(1, 1024, 1024/deadline, func(n int) (float64, error) { return 1024 / float64(n), nil })
		if err != nil {
			t.Fatal(err)
		}
		if got.Size != int(deadline) || got.Scanned || len(got.Probes) > 12 {
			t.Errorf("deadline %g: %d nodes, scanned %v, %d probes", 1024/deadline, got.Size, got.Scanned, len(got.Probes))
		}
	}
}

func TestSmallestForErrors(t *testing.T) {
	one := func(int) (float64, error) { return 1, nil }
	failed := errors.New("simulation failed")
	for _, tc := range []struct {
		name     string
		lo, hi   int
		deadline float64
		runTime  func(int) (float64, error)
		want     error // nil: any error
	}{
		{"lo 0", 0, 4, 1, one, nil},
		{"hi below lo", 4, 3, 1, one, nil},
		{"negative deadline", 1, 4, -1, one, nil},
		{"run time fails", 1, 4, 1, func(int) (float64, error) { return 0, failed }, failed},
	} {
		_, err := SmallestFor(tc.lo, tc.hi, tc.deadline, tc.runTime)
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}
