package sweep

import (
	"fmt"
	"math"
	"slices"
)

// Smallest is the answer of SmallestFor.
type Smallest struct {
	Size int     // the smallest size meeting the deadline; 0 when none of the range does
	Time float64 // the run time on Size
	// Scanned is set when the run times probed were not monotone, so that
	// the bisection could not be trusted and every size of the range was
	// tried from the smallest; otherwise the answer is the bisection's.
	Scanned bool
	Probes  []int // the sizes whose run times were asked, in that order
}

// SmallestFor returns the smallest size n in lo..hi (node or processor
// counts) with runTime(n) ≤ deadline. Run times usually shrink as the
// size grows, and then a bisection finds the answer in about log₂(hi−lo)
// probes; but more nodes can be slower (Graham's anomalies, transfers to
// nodes that were not needed), and a bisection over such sizes may miss
// the answer. So SmallestFor probes both ends and bisects, then checks
// that the run times it probed never grow with the size; when one does, it
// scans lo..hi instead. The check sees only the probes: an anomaly between
// them stays invisible, which is why the answer lists them.
//
// runTime is asked once per size; it may simulate, or read a stored run.
func SmallestFor(lo, hi int, deadline float64, runTime func(n int) (float64, error)) (Smallest, error) {
	if lo < 1 || hi < lo {
		return Smallest{}, fmt.Errorf("sizes %d..%d (expected 1 ≤ lo ≤ hi)", lo, hi)
	}
	if !(deadline >= 0) || math.IsInf(deadline, 0) {
		return Smallest{}, fmt.Errorf("deadline %v (expected a finite number ≥ 0)", deadline)
	}
	var ans Smallest
	times := map[int]float64{}
	meets := func(n int) (bool, error) {
		t, ok := times[n]
		if !ok {
			var err error
			if t, err = runTime(n); err != nil {
				return false, err
			}
			times[n] = t
			ans.Probes = append(ans.Probes, n)
		}
		return t <= deadline, nil
	}
	found := func(n int) (Smallest, error) {
		ans.Size, ans.Time = n, times[n]
		return ans, nil
	}
	// The largest first: a run that leaves nodes unused may settle
	// smaller sizes (ordersim.Sizes).
	hiOK, err := meets(hi)
	if err != nil {
		return Smallest{}, err
	}
	loOK, err := meets(lo)
	if err != nil {
		return Smallest{}, err
	}
	if loOK {
		return found(lo) // nothing is smaller, however the times run
	}
	n := 0 // none when hi fails too and the times are monotone
	if hiOK {
		below := lo // fails; hi meets
		for n = hi; n-below > 1; {
			mid := below + (n-below)/2
			ok, err := meets(mid)
			if err != nil {
				return Smallest{}, err
			}
			if ok {
				n = mid
			} else {
				below = mid
			}
		}
	}
	if monotone(times) {
		if n == 0 {
			return ans, nil
		}
		return found(n)
	}
	ans.Scanned = true
	for n := lo; n <= hi; n++ {
		ok, err := meets(n)
		if err != nil {
			return Smallest{}, err
		}
		if ok {
			return found(n)
		}
	}
	return ans, nil
}

// monotone reports whether the run times never grow with the size (to a
// relative 1e-12: rounding is no anomaly).
func monotone(times map[int]float64) bool {
	sizes := make([]int, 0, len(times))
	for n := range times {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	prev := math.Inf(1)
	for _, n := range sizes {
		if times[n] > prev*(1+1e-12) {
			return false
		}
		prev = times[n]
	}
	return true
}
