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
	Points         []Point // per α, in increasing f
	Flags          Flag
}

// Point is the runs of one α.
type Point struct {
	Alpha []float64
	F     float64
	Runs  int
	Mean  float64 // mean c(α)
	CV    float64 // of c(α) between its runs; 0 for one run
}

// Analyze groups rows by block and machine (sorted by both) and computes
// their constants and flags.
func Analyze(rows []Row, th Thresholds) []Stat {
	groups := make(map[[2]string][]Row)
	for _, r := range rows {
		k := [2]string{r.Block, r.Machine}
		groups[k] = append(groups[k], r)
	}
	stats := make([]Stat, 0, len(groups))
	for k, rs := range groups {
		stats = append(stats, analyzeGroup(k[0], k[1], rs, th))
	}
	slices.SortFunc(stats, func(a, b Stat) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Machine, b.Machine))
	})
	return stats
}

func analyzeGroup(block, machine string, rows []Row, th Thresholds) Stat {
	cs := make([]float64, len(rows))
	for i, r := range rows {
		cs[i] = r.C()
	}
	mean, sd := meanStdDev(cs)
	st := Stat{Block: block, Machine: machine, Runs: len(rows), Mean: mean, StdDev: sd, CV: sd / mean}
	st.Points = points(rows)
	st.Noise = pooledCV(st.Points)
	st.Slope = slope(st.Points, th.MinRange)
	if math.Abs(st.Slope-1) > th.Slope { // false for NaN
		st.Flags |= Drift
	}
	if st.Noise > th.CV {
		st.Flags |= Noisy
	}
	return st
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
		ps = append(ps, Point{Alpha: rs[0].Alpha, F: rs[0].F, Runs: len(rs), Mean: m, CV: sd / m})
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
