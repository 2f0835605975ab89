package ordercompare

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// Pair is one quantity on both sides.
type Pair struct {
	Measured, Predicted float64
	AbsErr              float64 // Predicted − Measured
	RelErr              float64 // AbsErr / Measured; NaN when Measured is 0
}

func pair(meas, pred float64) Pair {
	p := Pair{Measured: meas, Predicted: pred, AbsErr: pred - meas, RelErr: math.NaN()}
	if meas != 0 {
		p.RelErr = p.AbsErr / meas
	}
	return p
}

// Side describes one of the two runs.
type Side struct {
	RunID     int64
	Kind      result.Kind
	Program   string
	Scheduler string
	Migrate   bool
	Nodes     int // workers of a real run
	Makespan  float64
	Orders    int // orders with per-order rows
}

// Match is an order of each side at the same place of the tree.
type Match struct {
	Measured, Predicted stored.OrderEvent
	// Start and End are seconds from each run's start; Duration is end −
	// start, waits included; Work the running time, waits excluded.
	Start, End, Duration, Work Pair
}

// Unmatched is an order without a counterpart whose parent has one (or
// main): the root of a subtree of unmatched orders.
type Unmatched struct {
	Order   stored.OrderEvent
	Subtree int // orders in its subtree, itself included
	Reason  string
}

// Proc compares the orders of one procedure, from the runs' stored sums
// (every order, whatever per-order rows were kept).
type Proc struct {
	Name                string
	Measured, Predicted stored.OrderProc // zero on a side without it
	Matched             int              // of its orders matched, by the measured side's procedure
	Orders              Pair
	MeanDuration        Pair
	SDDuration          Pair // the durations' standard deviation
	Work                Pair // running time of all its orders
}

// Summary sums the comparison up.
type Summary struct {
	Matched            int
	UnmatchedMeasured  int // orders with per-order rows and no counterpart
	UnmatchedPredicted int
	// DurationMAPE is the mean of |RelErr| of the matched orders'
	// durations, over those with a measured duration (a fraction); NaN
	// when there is none.
	DurationMAPE  float64
	DurationCount int
}

// Comparison is the result of Compare.
type Comparison struct {
	Measured, Predicted Side
	Makespan            Pair
	// Orders are the matched orders in the order the measured run started
	// them.
	Orders []Match
	// UnmatchedMeasured and UnmatchedPredicted are the roots of the
	// unmatched subtrees, in order of their order numbers.
	UnmatchedMeasured, UnmatchedPredicted []Unmatched
	// Procs by name: the procedures of either side.
	Procs    []Proc
	Summary  Summary
	Warnings []string
}

// Compare matches the orders of two orders runs by their place in the
// tree of orders and compares them, their procedures and their makespans.
// What cannot be compared (a side without per-order rows, rows stored
// before the tree was, per-procedure sums missing) is left out with a
// warning.
func Compare(measured, predicted *stored.OrderSimulation) (*Comparison, error) {
	if measured == nil || predicted == nil || measured.Run == nil || predicted.Run == nil {
		return nil, errors.New("compare orders: a run is missing")
	}
	c := &Comparison{Measured: side(measured), Predicted: side(predicted),
		Makespan: pair(measured.Detail.Makespan, predicted.Detail.Makespan)}
	c.Warnings = warnings(c.Measured, c.Predicted)
	mt, merr := newTree(measured.Events)
	pt, perr := newTree(predicted.Events)
	for _, e := range []struct {
		s   Side
		err error
	}{{c.Measured, merr}, {c.Predicted, perr}} {
		if e.err != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("run %d: %v: its orders are not compared one by one", e.s.RunID, e.err))
		}
	}
	matchedByProc := map[string]int{}
	if merr == nil && perr == nil {
		c.match(mt, pt)
		for _, m := range c.Orders {
			matchedByProc[m.Measured.Proc]++
		}
	}
	c.Procs = procs(measured, predicted, matchedByProc)
	for _, s := range []struct {
		sim  *stored.OrderSimulation
		side Side
	}{{measured, c.Measured}, {predicted, c.Predicted}} {
		if len(s.sim.Procs) == 0 {
			c.Warnings = append(c.Warnings, fmt.Sprintf("run %d has no per-procedure sums (stored before schema 13): its procedures count nothing", s.side.RunID))
		}
	}
	c.Summary = summarize(c)
	return c, nil
}

func side(s *stored.OrderSimulation) Side {
	return Side{RunID: s.Run.ID, Kind: s.Run.Kind, Program: s.Run.Program, Scheduler: s.Detail.Scheduler, Migrate: s.Detail.Migrate,
		Nodes: s.Detail.Nodes, Makespan: s.Detail.Makespan, Orders: len(s.Events)}
}

// warnings notes what makes the comparison doubtful without preventing
// it (sim/compare notes different node counts).
func warnings(m, p Side) []string {
	var ws []string
	if m.Program != p.Program {
		ws = append(ws, fmt.Sprintf("programs differ: measured %q, predicted %q (compared anyway)", m.Program, p.Program))
	}
	if m.Scheduler != p.Scheduler || m.Migrate != p.Migrate {
		ws = append(ws, fmt.Sprintf("placement rules differ: measured %s, predicted %s (compared anyway)", rule(m), rule(p)))
	}
	return ws
}

// rule names a side's scheduler, with migration when on.
func rule(s Side) string {
	if s.Migrate {
		return s.Scheduler + " with migration"
	}
	return s.Scheduler
}

// match walks the two trees from main, pairing the children of matched
// orders place by place.
func (c *Comparison) match(mt, pt *tree) {
	type job struct{ m, p int }
	queue := []job{{mt.main, pt.main}}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		me, pe := mt.ev[j.m], pt.ev[j.p]
		if me.Proc != pe.Proc {
			c.UnmatchedMeasured = append(c.UnmatchedMeasured,
				mt.unmatched(j.m, fmt.Sprintf("runs %s where the predicted order %d runs %s", me.Proc, pe.Order, pe.Proc)))
			c.UnmatchedPredicted = append(c.UnmatchedPredicted,
				pt.unmatched(j.p, fmt.Sprintf("runs %s where the measured order %d runs %s", pe.Proc, me.Order, me.Proc)))
			continue
		}
		c.Orders = append(c.Orders, newMatch(me, pe))
		mk, pk := mt.kids[me.Order], pt.kids[pe.Order]
		// Both lists by place: merge them.
		for a, b := 0, 0; a < len(mk) || b < len(pk); {
			switch {
			case b == len(pk) || a < len(mk) && mt.ev[mk[a]].Child < pt.ev[pk[b]].Child:
				c.UnmatchedMeasured = append(c.UnmatchedMeasured, mt.unmatched(mk[a],
					fmt.Sprintf("its counterpart's parent, the predicted order %d, made no child %d", pe.Order, mt.ev[mk[a]].Child)))
				a++
			case a == len(mk) || pt.ev[pk[b]].Child < mt.ev[mk[a]].Child:
				c.UnmatchedPredicted = append(c.UnmatchedPredicted, pt.unmatched(pk[b],
					fmt.Sprintf("its counterpart's parent, the measured order %d, made no child %d", me.Order, pt.ev[pk[b]].Child)))
				b++
			default:
				queue = append(queue, job{mk[a], pk[b]})
				a++
				b++
			}
		}
	}
	slices.SortFunc(c.Orders, func(a, b Match) int {
		return cmp.Or(cmp.Compare(a.Measured.Start, b.Measured.Start), cmp.Compare(a.Measured.Order, b.Measured.Order))
	})
	byOrder := func(a, b Unmatched) int { return cmp.Compare(a.Order.Order, b.Order.Order) }
	slices.SortFunc(c.UnmatchedMeasured, byOrder)
	slices.SortFunc(c.UnmatchedPredicted, byOrder)
}

func newMatch(m, p stored.OrderEvent) Match {
	return Match{Measured: m, Predicted: p,
		Start: pair(m.Start, p.Start), End: pair(m.End, p.End),
		Duration: pair(m.End-m.Start, p.End-p.Start), Work: pair(m.End-m.Start-m.Wait, p.End-p.Start-p.Wait)}
}

// procs compares the stored per-procedure sums.
func procs(measured, predicted *stored.OrderSimulation, matched map[string]int) []Proc {
	byName := map[string]*Proc{}
	var out []*Proc
	get := func(name string) *Proc {
		if p := byName[name]; p != nil {
			return p
		}
		p := &Proc{Name: name, Matched: matched[name]}
		byName[name] = p
		out = append(out, p)
		return p
	}
	for _, p := range measured.Procs {
		get(p.Proc).Measured = p
	}
	for _, p := range predicted.Procs {
		get(p.Proc).Predicted = p
	}
	res := make([]Proc, len(out))
	for i, p := range out {
		m, q := p.Measured, p.Predicted
		p.Orders = pair(float64(m.Orders), float64(q.Orders))
		p.MeanDuration = pair(m.MeanDuration, q.MeanDuration)
		p.SDDuration = pair(m.SDDuration, q.SDDuration)
		p.Work = pair(m.Work, q.Work)
		res[i] = *p
	}
	slices.SortFunc(res, func(a, b Proc) int { return cmp.Compare(a.Name, b.Name) })
	return res
}

func summarize(c *Comparison) Summary {
	s := Summary{Matched: len(c.Orders), DurationMAPE: math.NaN()}
	for _, u := range c.UnmatchedMeasured {
		s.UnmatchedMeasured += u.Subtree
	}
	for _, u := range c.UnmatchedPredicted {
		s.UnmatchedPredicted += u.Subtree
	}
	sum := 0.0
	for _, m := range c.Orders {
		if r := m.Duration.RelErr; !math.IsNaN(r) && !math.IsInf(r, 0) {
			sum += math.Abs(r)
			s.DurationCount++
		}
	}
	if s.DurationCount > 0 {
		s.DurationMAPE = sum / float64(s.DurationCount)
	}
	return s
}

// Worst returns the n matched orders whose durations differ most (by
// |predicted − measured|), the largest first; ties in the measured run's
// order.
func (c *Comparison) Worst(n int) []Match {
	n = min(max(n, 0), len(c.Orders))
	out := slices.Clone(c.Orders)
	slices.SortStableFunc(out, func(a, b Match) int {
		return cmp.Compare(math.Abs(b.Duration.AbsErr), math.Abs(a.Duration.AbsErr))
	})
	return out[:n:n]
}
