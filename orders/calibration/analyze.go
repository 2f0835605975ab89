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
	// Faulted is the share of its runs alone that took page faults
	// (Row.Faults), which its medians leave out where they can.
	Faulted float64
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
	// collection) moves the mean but not the median. With runs pinned to
	// CPUs it is the mean of each CPU's median (CPUs): the cores of a
	// virtual machine need not run a block equally fast, and a run on
	// several workers spreads its blocks over them.
	Median float64
	// Q1 and Q3 are the quartiles of c(α), Min its fastest run.
	Q1, Q3, Min float64
	// CPUs are the median c(α) on each CPU its runs were pinned to, in
	// increasing CPU; one of CPU -1 when they were not pinned.
	CPUs []CPUMedian
	// Bound is how well Median is known: the relative half-width of the
	// 95% confidence interval of the median (MedianBound), the widest of
	// the CPUs'; +Inf when a CPU has too few runs to bound it.
	Bound float64
}

// CPUMedian is the median c(α) of the runs pinned to one CPU.
type CPUMedian struct {
	CPU    int // -1: not pinned
	Runs   int
	Median float64
}

// CPUSpread is how much higher c(α) is on its slowest CPU than on its
// fastest, in proportion: 0 with one CPU.
func (p Point) CPUSpread() float64 {
	if len(p.CPUs) < 2 {
		return 0
	}
	lo, hi := p.CPUs[0].Median, p.CPUs[0].Median
	for _, c := range p.CPUs[1:] {
		lo, hi = min(lo, c.Median), max(hi, c.Median)
	}
	return hi/lo - 1
}

// MedianBound returns the relative half-width of the 95% confidence
// interval of the median of sorted, distribution-free: half the distance
// between the order statistics n/2 ± 0.98√n, over the median; +Inf when
// there are too few values for those order statistics to exist.
func MedianBound(sorted []float64) float64 {
	n := len(sorted)
	half := int(math.Ceil(0.98 * math.Sqrt(float64(n))))
	lo, hi := n/2-half, (n-1)/2+half
	if lo < 0 || hi >= n {
		return math.Inf(1)
	}
	med := quantile(sorted, 0.5)
	return (sorted[hi] - sorted[lo]) / 2 / med
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
	for _, r := range rows {
		if r.Faults > 0 {
			st.Faulted += 1 / float64(len(rows))
		}
	}
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
		p := Point{Alpha: rs[0].Alpha, F: rs[0].F, Runs: len(rs), Mean: m, CV: sd / m,
			Q1: quantile(cs, 0.25), Q3: quantile(cs, 0.75), Min: cs[0]}
		p.CPUs, p.Bound = byCPU(rs)
		for _, c := range p.CPUs {
			p.Median += c.Median / float64(len(p.CPUs))
		}
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b Point) int {
		return cmp.Or(cmp.Compare(a.F, b.F), cmp.Compare(formatAlpha(a.Alpha), formatAlpha(b.Alpha)))
	})
	return ps
}

// byCPU returns the median c of rows on each CPU they were pinned to, in
// increasing CPU, and the widest relative bound of those medians, of the
// runs' constants without their page faults (faultFree).
func byCPU(rows []Row) ([]CPUMedian, float64) {
	on := make(map[int][]Row)
	for _, r := range rows {
		on[r.CPU] = append(on[r.CPU], r)
	}
	out := make([]CPUMedian, 0, len(on))
	bound := 0.0
	for cpu, rs := range on {
		c := faultFree(rs)
		slices.Sort(c)
		out = append(out, CPUMedian{CPU: cpu, Runs: len(c), Median: quantile(c, 0.5)})
		bound = max(bound, MedianBound(c))
	}
	slices.SortFunc(out, func(a, b CPUMedian) int { return cmp.Compare(a.CPU, b.CPU) })
	return out, bound
}

// faultFree returns the constants of the runs without page faults, when
// there are any: a run that faulted paid the system for fresh memory, as
// the runs of a program that has warmed its heap up seldom do (a merge
// of 2,000,000 numbers took 12 µs more per fault, up to 4.6 times its
// time). When every run faulted (a block that allocates more than the
// heap keeps between two collections), each run's constant less its
// faults at the rate the runs show: the Theil–Sen slope of c against the
// faults, the median of the slopes between every two runs, which one run
// slowed for another reason does not move. A slope that would leave a
// run no time of its own is not the faults' (runs whose times follow
// their buffers more than their faults, docs/performance.md, "Where the
// memory lies"): the constants are then the runs' own.
func faultFree(rows []Row) []float64 {
	var clean, all []float64
	for _, r := range rows {
		all = append(all, r.C())
		if r.Faults == 0 {
			clean = append(clean, r.C())
		}
	}
	if len(clean) > 0 {
		return clean
	}
	var slopes []float64
	for i, a := range rows {
		for _, b := range rows[i+1:] {
			if a.Faults != b.Faults {
				slopes = append(slopes, (b.C()-a.C())/float64(b.Faults-a.Faults))
			}
		}
	}
	if len(slopes) == 0 {
		return all
	}
	slices.Sort(slopes)
	slope := quantile(slopes, 0.5)
	if slope <= 0 {
		return all
	}
	free := make([]float64, len(rows))
	for i, r := range rows {
		if free[i] = r.C() - slope*float64(r.Faults); free[i] <= 0 {
			return all
		}
	}
	return free
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
