package result

import "math"

// Kind says where a run's numbers come from.
type Kind string

const (
	Predicted Kind = "predicted" // simulated from a trace
	Measured  Kind = "measured"  // analysed from an sts file
)

// IntervalType is the type of a program interval.
type IntervalType string

const (
	Main IntervalType = "Main"
	Seq  IntervalType = "Seq"
	Par  IntervalType = "Par"
	User IntervalType = "User"
)

// Values holds one value per characteristic, indexed by Char.
type Values [NumChars]float64

// ProcValues are the values of one processor. Processors with equal
// values may share them: a simulated grid's thousands of processors fall
// into a few classes, and each class's values are kept once. Whoever made
// an interval may change its values; everyone else only reads them.
type ProcValues struct {
	Proc   int // 0-based processor number
	Values *Values
}

// NewProcValues are zero values of processor p, its own.
func NewProcValues(p int) ProcValues { return ProcValues{Proc: p, Values: new(Values)} }

// Interval is one node of a run's interval tree.
type Interval struct {
	ID       int // creation number, 1 = Main
	Parent   int // ID of the parent, 0 for the root
	Level    int // 0 for Main
	Type     IntervalType
	Count    int64 // number of times the interval was entered
	Line     int   // source line
	File     string
	Expr     *int64 // the interval's expression value, nil when none
	Values   Values
	Procs    []ProcValues // per processor, may be empty
	Children []int        // IDs of the children in creation order
}

// Warning is a diagnostic of a run, counted (e.g. per unknown function).
// A doubtful one says that the configuration leaves the model's domain
// (docs/deviations.md, "Doubtful configurations"): its times are the
// model's, as the original Predictor's would be, but not a prediction to
// plan with.
type Warning struct {
	Message  string
	Count    int
	Doubtful bool
}

// Run is the result of one prediction or measurement.
type Run struct {
	ID      int64 // 0 until saved
	Kind    Kind
	TraceID int64 // predicted runs
	StsID   int64 // measured runs
	SweepID int64 // 0 when not part of a sweep
	Program string
	Config  Config
	// Intervals in pre-order (parent before children, children in creation
	// order). Intervals[0] is the root of the tree (Main).
	Intervals []*Interval
	// ReportRoot is the ID of the interval the original's report starts
	// from: the interval current at the end of the trace (docs/model.md §7.1).
	ReportRoot int
	Warnings   []Warning
}

// Interval returns the interval with the given ID, or nil.
// Doubtful reports whether a warning of the run is doubtful.
func (r *Run) Doubtful() bool {
	for _, w := range r.Warnings {
		if w.Doubtful {
			return true
		}
	}
	return false
}

func (r *Run) Interval(id int) *Interval {
	for _, iv := range r.Intervals {
		if iv.ID == id {
			return iv
		}
	}
	return nil
}

// Subtree returns the interval id and its descendants in pre-order.
func (r *Run) Subtree(id int) []*Interval {
	var out []*Interval
	var walk func(int)
	walk = func(id int) {
		iv := r.Interval(id)
		if iv == nil {
			return
		}
		out = append(out, iv)
		for _, c := range iv.Children {
			walk(c)
		}
	}
	walk(id)
	return out
}

// Stat is a comparative characteristic: minimum, maximum and mean over the
// processors, with the processor of the first minimum and the last maximum
// (as the analyzer prints them).
type Stat struct {
	Min, Max, Mean   float64
	MinProc, MaxProc int
}

// Comparatives computes the Stat of every characteristic over the
// interval's processors, in one pass over them; ok is false when the
// interval has no per-processor values. Min is the first processor's
// lowest value, Max the last processor's highest.
func (iv *Interval) Comparatives() (stats [NumChars]Stat, ok bool) {
	if len(iv.Procs) == 0 {
		return stats, false
	}
	var sum Values
	for i := 0; i < len(iv.Procs); {
		x := iv.Procs[i].Values
		j := i + 1
		for j < len(iv.Procs) && iv.Procs[j].Values == x {
			j++
		}
		// Processors i..j-1 share their values: the first of them is the
		// one that may be a new minimum, the last a new maximum. The sum
		// still adds every processor's value, in order.
		first, last := iv.Procs[i].Proc, iv.Procs[j-1].Proc
		for c, v := range x {
			s := &stats[c]
			if i == 0 || v < s.Min {
				s.Min, s.MinProc = v, first
			}
			if i == 0 || v >= s.Max {
				s.Max, s.MaxProc = v, last
			}
		}
		x.AddTo(&sum, j-i)
		i = j
	}
	for c := range stats {
		stats[c].Mean = sum[c] / float64(len(iv.Procs))
	}
	return stats, true
}

// AddTo adds vs to sum times times, one after the other, as a loop over
// that many processors of values vs would, with the same rounding. Zeros
// are left out: adding a zero leaves a sum that starts at +0 unchanged.
func (vs *Values) AddTo(sum *Values, times int) {
	var nonZero [NumChars]uint8
	n := 0
	for c, v := range vs {
		if v != 0 {
			nonZero[n] = uint8(c)
			n++
		}
	}
	for range times {
		for _, c := range nonZero[:n] {
			sum[c] += vs[c]
		}
	}
}

// NonFinite returns a characteristic of the interval, or of one of its
// processors, that is NaN or infinite: the store holds only numbers.
func (iv *Interval) NonFinite() (Char, float64, bool) {
	if c, v, ok := iv.Values.nonFinite(); ok {
		return c, v, true
	}
	var last *Values // processors of a class share their values: checked once
	for p := range iv.Procs {
		if v := iv.Procs[p].Values; v != last {
			if c, x, ok := v.nonFinite(); ok {
				return c, x, true
			}
			last = v
		}
	}
	return 0, 0, false
}

// nonFinite returns the first NaN or infinite value of vs.
func (vs *Values) nonFinite() (Char, float64, bool) {
	// v×0 is ±0 for a finite v and NaN otherwise, so one sum tells
	// whether any value is not finite: the scan below is for the rare
	// values that are not.
	var even, odd float64
	for i := 0; i+1 < len(vs); i += 2 {
		even += vs[i] * 0
		odd += vs[i+1] * 0
	}
	if len(vs)%2 == 1 {
		even += vs[len(vs)-1] * 0
	}
	if even+odd == 0 {
		return 0, 0, false
	}
	for c, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Char(c), v, true
		}
	}
	return 0, 0, false
}
