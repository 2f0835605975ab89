package calibration

import (
	"fmt"
	"math"
)

// DefaultPrecision is the relative half-width of the 95% confidence
// interval within which calibrate mode knows each block's median when
// it stops (Point.Bound), unless told another (-orders.precision).
const DefaultPrecision = 0.02

// WarnFaulted is the share of a block's runs that may take page faults
// before the reports say so.
const WarnFaulted = 0.1

// WarnCPUs is how much higher a block's c may be on one CPU than on
// another before the reports say that the machine's cores differ.
const WarnCPUs = 0.1

// Advice is what the reports say of one block on one machine that the
// calibration did not pin down: what, by how much, and what to do.
type Advice struct {
	Block, Machine string
	Text           string // one line, "block X on M: …"
}

func (a Advice) String() string { return a.Text }

// Advise returns the advice on stats, in their order: a line for each
// block whose median c at some α is not known within precision (the
// widest such α: how far its runs vary, between which times, and the
// repetitions that would bound it), whose runs the machine was loaded
// during, or whose c differs between the CPUs its runs were pinned to.
// A block whose runs vary but whose median is known gets none: that is
// what the repetitions are for. A block most of whose runs took page
// faults gets a line too.
func Advise(stats []Stat, precision float64) []Advice {
	reps := roundsPerCPU(stats)
	var out []Advice
	add := func(st Stat, format string, args ...any) {
		out = append(out, Advice{Block: st.Block, Machine: st.Machine,
			Text: fmt.Sprintf("block %s on %s: ", st.Block, st.Machine) + fmt.Sprintf(format, args...)})
	}
	for _, st := range stats {
		if st.Block == ProbeBlock {
			// More repetitions or a quieter machine do not steady the
			// host: one line says what the probe saw, none of the rest.
			if p, ok := loosest(st.Points); ok && (p.Spread() > WarnProbe || p.CPUSpread() > WarnCPUs) {
				add(st, "the machine's own speed varied during the calibration: the probe's c varies %.0f%% between runs (%s–%s per multiply-add) and %.0f%% between CPUs; every block's price moves with it: compare the probe's c between calibrations of this machine (presage query --name calibration_probes), which price the blocks alike only where it agrees",
					100*p.Spread(), formatSeconds(p.Q1), formatSeconds(p.Q3), 100*p.CPUSpread())
			}
			continue
		}
		if p, ok := loosest(st.Points); ok && !(p.Bound <= precision) {
			add(st, "c varies %.0f%% between runs%s (%s–%s), its median known %s: calibrate with -orders.reps %d on a quiet machine",
				100*p.Spread(), at(p), formatSeconds(p.Q1*p.F), formatSeconds(p.Q3*p.F), known(p.Bound), suggestReps(reps[st.Machine], p.Bound, precision))
		}
		if st.Loaded > WarnLoaded {
			add(st, "the machine was loaded during %.0f%% of its runs (their wall time above %.1f× their CPU time): calibrate again on a quiet machine",
				100*st.Loaded, LoadedWall)
		}
		if st.Faulted > WarnFaulted {
			add(st, "%.0f%% of its runs took page faults (memory fresh from the system, as a program that has warmed its heap up seldom does): priced without them",
				100*st.Faulted)
		}
		if p, ok := widestCPUs(st.Points); ok && p.CPUSpread() > WarnCPUs {
			lo, hi := p.CPUs[0], p.CPUs[0]
			for _, c := range p.CPUs {
				if c.Median < lo.Median {
					lo = c
				}
				if c.Median > hi.Median {
					hi = c
				}
			}
			add(st, "runs %.0f%% slower on CPU %d than on CPU %d%s (%s against %s): the machine's cores differ, and the block is priced at their mean",
				100*p.CPUSpread(), hi.CPU, lo.CPU, at(p), formatSeconds(hi.Median*p.F), formatSeconds(lo.Median*p.F))
		}
	}
	return out
}

// loosest returns the point whose median is known least well.
func loosest(ps []Point) (Point, bool) {
	if len(ps) == 0 {
		return Point{}, false
	}
	worst := ps[0]
	for _, p := range ps[1:] {
		if p.Bound > worst.Bound {
			worst = p
		}
	}
	return worst, true
}

// widestCPUs returns the point whose CPUs differ most.
func widestCPUs(ps []Point) (Point, bool) {
	if len(ps) == 0 {
		return Point{}, false
	}
	worst := ps[0]
	for _, p := range ps[1:] {
		if p.CPUSpread() > worst.CPUSpread() {
			worst = p
		}
	}
	return worst, true
}

// roundsPerCPU returns, by machine, how many rounds of the tests the
// calibration ran on each CPU: the runs of the reference block, timed
// once a round, over its CPUs.
func roundsPerCPU(stats []Stat) map[string]int {
	out := map[string]int{}
	for _, st := range stats {
		if st.Block != RefBlock || len(st.Points) == 0 {
			continue
		}
		p := st.Points[0]
		out[st.Machine] = max(1, p.Runs/max(1, len(p.CPUs)))
	}
	return out
}

// RefBlock is the block under which calibrate mode times the reference
// algorithm, once per round of the tests (orders.RefBlock).
const RefBlock = "ref"

// ProbeBlock is the block under which calibrate mode times the probe,
// once per round of the tests beside the reference (orders.ProbeBlock):
// products of small matrices, bound by the core's multiply-adds and its
// first cache where the reference is bound by the latency of square
// roots. On a virtual machine the host's other work slows the first
// kind and not the second (docs/orders-sim.md, "the host's drift"), so
// the probe's c is the machine's state during the calibration: two
// calibrations of one machine price the blocks alike only where their
// probes agree.
const ProbeBlock = "orders.probe"

// WarnProbe is how far the probe's runs may vary within a calibration
// before the reports say that the machine's speed moved.
const WarnProbe = 0.1

// MaxSuggestedReps is the most repetitions the advice asks for: a block
// that would need more varies too much for repetitions to pin it down,
// and needs a quieter machine first.
const MaxSuggestedReps = 100

// suggestReps returns the repetitions that would bound a median known
// within bound after reps of them to precision, at most
// MaxSuggestedReps: the interval narrows as 1/√n. Unknown reps (0) count
// as the default 5; an unbounded median (too few runs) asks for twice as
// many.
func suggestReps(reps int, bound, precision float64) int {
	if reps <= 0 {
		reps = 5
	}
	if math.IsInf(bound, 1) {
		return min(2*reps, MaxSuggestedReps)
	}
	r := bound / precision
	return min(max(reps+1, int(math.Ceil(float64(reps)*r*r))), MaxSuggestedReps)
}

// at names a point's α, "" when the block has none.
func at(p Point) string {
	if len(p.Alpha) == 0 {
		return ""
	}
	return " at α " + formatAlpha(p.Alpha)
}

// known says how well a median is known.
func known(bound float64) string {
	if math.IsInf(bound, 1) {
		return "from too few runs to bound it"
	}
	return fmt.Sprintf("within ±%.1f%%", 100*bound)
}

// formatSeconds writes a time in the unit that suits it.
func formatSeconds(s float64) string {
	switch a := math.Abs(s); {
	case a >= 1:
		return fmt.Sprintf("%.3g s", s)
	case a >= 1e-3:
		return fmt.Sprintf("%.3g ms", 1e3*s)
	case a >= 1e-6:
		return fmt.Sprintf("%.3g µs", 1e6*s)
	}
	return fmt.Sprintf("%.3g ns", 1e9*s)
}

// Bound is the widest Point.Bound of the block: how well its loosest
// median is known (+Inf when some α has too few runs to bound it).
func (s Stat) Bound() float64 {
	b := 0.0
	for _, p := range s.Points {
		b = max(b, p.Bound)
	}
	return b
}

// Spread is the widest Point.Spread of the block: how far its runs vary.
func (s Stat) Spread() float64 {
	sp := 0.0
	for _, p := range s.Points {
		sp = max(sp, p.Spread())
	}
	return sp
}

// CPUSpread is the widest Point.CPUSpread of the block: how much slower
// its slowest CPU runs it than its fastest.
func (s Stat) CPUSpread() float64 {
	sp := 0.0
	for _, p := range s.Points {
		sp = max(sp, p.CPUSpread())
	}
	return sp
}
