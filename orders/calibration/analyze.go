package calibration

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Flag marks a block whose constant cannot be trusted.
type Flag uint8

const (
	// Drift: c(α) trends with f(α), so the estimate f has the wrong shape
	// and c̄ holds only near the α it was measured at.
	Drift Flag = 1 << iota
	// Noisy: repetitions of the same α disagree by more than the
	// threshold, so one constant does not describe them.
	Noisy
)

func (f Flag) String() string {
	var names []string
	if f&Drift != 0 {
		names = append(names, "DRIFT")
	}
	if f&Noisy != 0 {
		names = append(names, "NOISY")
	}
	return strings.Join(names, ",")
}

// Thresholds decide the flags.
type Thresholds struct {
	// Slope is how far the log-log slope of T against f may be from 1:
	// a slope b means c ∝ f^(b-1), so 0.05 lets c grow by 41% over a
	// thousandfold range of f.
	Slope float64
	// MinRange is the smallest ratio of the largest to the smallest f
	// over which a slope is fitted at all.
	MinRange float64
	// CV is the largest pooled coefficient of variation of c between
	// repetitions of the same α.
	CV float64
}

// DefaultThresholds are the thresholds docs/orders.md documents.
var DefaultThresholds = Thresholds{Slope: 0.05, MinRange: 4, CV: 0.1}

// Stat summarizes the rows of one block on one machine.
type Stat struct {
	Block, Machine string
	Runs           int
	Mean           float64 // c̄: the mean of c = T/f over every run
	StdDev         float64 // of c over every run (n-1 denominator)
	CV             float64 // StdDev / Mean
	Noise          float64 // pooled coefficient of variation within each α
	Slope          float64 // of log T against log f over the α means; NaN when f varies too little
	Points         []Point // per α, in increasing f, of the runs alone
	Flags          Flag
	// Slowdown is how much slower the block runs with copies of it at
	// once on the machine's cores (rows of Copies > 1), by copies; empty
	// when only runs alone were timed.
	Slowdown []SlowdownPoint
	// Loaded is the share of its runs alone during which the machine
	// was loaded (Row.Wall above LoadedWall times Row.Seconds): its
	// constants may be too high.
	Loaded float64
}

// Point is the runs of one α.
type Point struct {
	Alpha []float64
	F     float64
	Runs  int
	Mean  float64 // mean c(α)
	CV    float64 // of c(α) between its runs; 0 for one run
	// Median is the median c(α), which record mode prices with: a run
	// that the machine slowed (another program, a page fault, a
	// collection) moves the mean but not the median.
	Median float64
	// Q1 and Q3 are the quartiles of c(α), Min its fastest run.
	Q1, Q3, Min float64
}

// Spread is the distance between the quartiles of c(α) over its median:
// how far the machine repeats itself on this α.
func (p Point) Spread() float64 { return (p.Q3 - p.Q1) / p.Median }

// Analyze groups rows by block and machine (sorted by both) and computes
// their constants and flags from the runs alone, and their slowdowns
// from the runs with copies.
func Analyze(rows []Row, th Thresholds) []Stat {
	groups := make(map[[2]string][]Row)
	for _, r := range rows {
		k := [2]string{r.Block, r.Machine}
		groups[k] = append(groups[k], r)
	}
	stats := make([]Stat, 0, len(groups))
	for k, rs := range groups {
		if st, ok := analyzeGroup(k[0], k[1], rs, th); ok {
			stats = append(stats, st)
		}
	}
	slices.SortFunc(stats, func(a, b Stat) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Machine, b.Machine))
	})
	return stats
}

// analyzeGroup analyzes the rows of a block on a machine; ok is false
// when none ran alone, which gives no constant.
func analyzeGroup(block, machine string, all []Row, th Thresholds) (st Stat, ok bool) {
	var rows []Row
	together := map[int][]Row{} // by copies
	for _, r := range all {
		if r.alone() {
			rows = append(rows, r)
		} else {
			together[r.Copies] = append(together[r.Copies], r)
		}
	}
	if len(rows) == 0 {
		return Stat{}, false
	}
	cs := make([]float64, len(rows))
	for i, r := range rows {
		cs[i] = r.C()
	}
	mean, sd := meanStdDev(cs)
	st = Stat{Block: block, Machine: machine, Runs: len(rows), Mean: mean, StdDev: sd, CV: sd / mean}
	st.Points = points(rows)
	st.Noise = pooledCV(st.Points)
	st.Slope = slope(st.Points, th.MinRange)
	if math.Abs(st.Slope-1) > th.Slope { // false for NaN
		st.Flags |= Drift
	}
	if st.Noise > th.CV {
		st.Flags |= Noisy
	}
	st.Slowdown = slowdowns(st.Points, together)
	st.Loaded = loaded(rows)
	return st, true
}

// SlowdownPoint is how much slower a block runs with Copies copies of
// it running at once on as many cores of the machine than alone.
type SlowdownPoint struct {
	Copies int
	S      float64
}

// slowdowns returns the block's slowdown for each number of copies: the
// median over its α of the ratio of the median c with that many copies
// to the median c alone, in increasing copies. An α whose runs with
// copies and alone overlap (the quartiles of either inside the other's)
// counts as not slowed: a block of tens of microseconds varies by half
// from one run to the next on a shared machine, and two copies seemed
// to slow it by 1.4–1.8 when its real runs on two workers were not.
func slowdowns(alone []Point, together map[int][]Row) []SlowdownPoint {
	var out []SlowdownPoint
	for k, rows := range together {
		var ratios []float64
		for _, p := range points(rows) {
			for _, a := range alone {
				if formatAlpha(a.Alpha) != formatAlpha(p.Alpha) {
					continue
				}
				r := 1.0
				if p.Q1 > a.Q3 || p.Q3 < a.Q1 {
					r = p.Median / a.Median
				}
				ratios = append(ratios, r)
			}
		}
		if len(ratios) > 0 {
			slices.Sort(ratios)
			out = append(out, SlowdownPoint{Copies: k, S: quantile(ratios, 0.5)})
		}
	}
	slices.SortFunc(out, func(a, b SlowdownPoint) int { return cmp.Compare(a.Copies, b.Copies) })
	return out
}

// LoadedWall is how much longer than its CPU time a run's wall time may
// be before the run counts as loaded: its thread waited for a core.
// WarnLoaded is the share of a block's runs that may be loaded before
// the reports warn that its constants may be too high.
const (
	LoadedWall = 1.1
	WarnLoaded = 0.2
)

// loaded returns the share of the runs whose wall time exceeds their CPU
// time by more than LoadedWall, among those whose wall time is known.
func loaded(rows []Row) float64 {
	known, slow := 0, 0
	for _, r := range rows {
		if r.Wall > 0 {
			known++
			if r.Wall > LoadedWall*r.Seconds {
				slow++
			}
		}
	}
	if known == 0 {
		return 0
	}
	return float64(slow) / float64(known)
}

// points groups rows by α.
func points(rows []Row) []Point {
	byAlpha := make(map[string][]Row)
	for _, r := range rows {
		k := formatAlpha(r.Alpha)
		byAlpha[k] = append(byAlpha[k], r)
	}
	ps := make([]Point, 0, len(byAlpha))
	for _, rs := range byAlpha {
		cs := make([]float64, len(rs))
		for i, r := range rs {
			cs[i] = r.C()
		}
		m, sd := meanStdDev(cs)
		slices.Sort(cs)
		ps = append(ps, Point{Alpha: rs[0].Alpha, F: rs[0].F, Runs: len(rs), Mean: m, CV: sd / m,
			Median: quantile(cs, 0.5), Q1: quantile(cs, 0.25), Q3: quantile(cs, 0.75), Min: cs[0]})
	}
	slices.SortFunc(ps, func(a, b Point) int {
		return cmp.Or(cmp.Compare(a.F, b.F), cmp.Compare(formatAlpha(a.Alpha), formatAlpha(b.Alpha)))
	})
	return ps
}

// pooledCV is the coefficient of variation within α, pooled over the
// points with repetitions: sqrt(Σ (n_i-1)·CV_i² / Σ (n_i-1)).
func pooledCV(ps []Point) float64 {
	var sum, dof float64
	for _, p := range ps {
		if p.Runs > 1 {
			sum += float64(p.Runs-1) * p.CV * p.CV
			dof += float64(p.Runs - 1)
		}
	}
	if dof == 0 {
		return 0
	}
	return math.Sqrt(sum / dof)
}

// slope fits log(mean T) = a + b·log f by least squares over the points
// (each α weighs the same however often it ran) and returns b, or NaN
// when there are fewer than two points or f spans less than minRange.
func slope(ps []Point, minRange float64) float64 {
	if len(ps) < 2 || ps[len(ps)-1].F < minRange*ps[0].F {
		return math.NaN()
	}
	var sx, sy, sxx, sxy float64
	for _, p := range ps {
		x, y := math.Log(p.F), math.Log(p.Mean*p.F)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(ps))
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// quantile returns the q-quantile of sorted xs, interpolated between
// neighbours.
func quantile(sorted []float64, q float64) float64 {
	x := q * float64(len(sorted)-1)
	i := int(x)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (x-float64(i))*(sorted[i+1]-sorted[i])
}

// meanStdDev returns the mean and the sample standard deviation (0 for
// one value).
func meanStdDev(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}
