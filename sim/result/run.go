package result

import (
	"fmt"
	"strconv"
	"strings"
)

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

// ProcValues are the values of one processor.
type ProcValues struct {
	Proc   int // 0-based processor number
	Values Values
}

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
type Warning struct {
	Message string
	Count   int
}

// Config is the machine configuration of a predicted run, or the processor
// grid of a measured one.
type Config struct {
	Machine   string   // machine file name (empty for measured runs)
	MachineID int64    // 0 when not stored
	Grid      []int    // processor grid, e.g. [2 2]
	Network   string   // "cluster", "bus" or "mesh"; "" for measured runs
	TStart    float64  // override of every cluster's start-up time (s); 0 = from the file
	TByte     float64  // override of every cluster's time per byte (s); 0 = from the file
	Power     float64  // override of every processor's power; 0 = from the file
	Options   []string // deviations from the original that are switched on
}

// Procs is the number of processors of the grid.
func (c Config) Procs() int {
	n := 1
	for _, d := range c.Grid {
		n *= d
	}
	return n
}

// GridString formats the grid as the reports do: "2x2".
func GridString(grid []int) string {
	parts := make([]string, len(grid))
	for i, d := range grid {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, "x")
}

// ParseGrid reads a grid such as "2x2", "4" or "2x2x2" (rank 1 to 4).
func ParseGrid(s string) ([]int, error) {
	fields := strings.Split(strings.ToLower(strings.TrimSpace(s)), "x")
	if len(fields) > 4 {
		return nil, fmt.Errorf("grid %q: at most 4 dimensions", s)
	}
	grid := make([]int, len(fields))
	for i, f := range fields {
		d, err := strconv.Atoi(f)
		if err != nil || d < 1 {
			return nil, fmt.Errorf("grid %q: dimension %q is not a positive integer (expected e.g. 2x2)", s, f)
		}
		grid[i] = d
	}
	return grid, nil
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
	// from: the interval current at the end of the trace (MODEL.md §7.1).
	ReportRoot int
	Warnings   []Warning
}

// Interval returns the interval with the given ID, or nil.
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

// Comparative computes the Stat of c over the interval's processors; ok is
// false when the interval has no per-processor values.
func (iv *Interval) Comparative(c Char) (s Stat, ok bool) {
	if len(iv.Procs) == 0 {
		return s, false
	}
	sum := 0.0
	for i, p := range iv.Procs {
		v := p.Values[c]
		sum += v
		if i == 0 || v < s.Min {
			s.Min, s.MinProc = v, p.Proc
		}
		if i == 0 || v >= s.Max {
			s.Max, s.MaxProc = v, p.Proc
		}
	}
	s.Mean = sum / float64(len(iv.Procs))
	return s, true
}
