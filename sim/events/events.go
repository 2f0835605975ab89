// Package events owns the vocabulary of what processors do over simulated
// time, shared by the engine that reports it and the exports that draw it:
// the states a processor is in (State), the processors a charge falls on
// (Procs), the messages the network model times (Message), and the
// Recorder the engine reports them to. Collector turns a recording into
// spans of whole nanoseconds for a Sink (a timeline format); Sampler
// makes the run report's per-processor picture (Sample, stored with the
// run) at a cost per charge that does not grow with the grid; Tee records
// to both. It imports the model only.
package events

import (
	"iter"

	"github.com/presage-dvm/presage/sim/result"
)

// State is what a processor does during a charged stretch of its clock
// (docs/timeline.md).
type State uint8

const (
	// Computing is user or run-time CPU time (CPU_time_usr, CPU_time_sys)
	// that is not Redundant.
	Computing State = iota + 1
	// InputOutput is I/O time, charged to processor 0 only.
	InputOutput
	// Communicating is the wait for a transfer to finish: a shadow
	// exchange, a remote access, a redistribution or an I/O transfer.
	Communicating
	// Collective is the wait for a reduction to finish.
	Collective
	// Waiting is a synchronisation wait (MPSSynchronize): the processor
	// waits for the latest processor of its VM before a collective
	// operation starts.
	Waiting
	// Redundant is CPU time that several processors spend on the same
	// work: sequential code every processor of the VM repeats
	// (RegularTime), a loop's block executed by several processors, a
	// loop's run-time share. Of n processors repeating it, (n−1)/n is
	// insufficient parallelism: the lost time the picture must show.
	Redundant
	// NumStates bounds the states (1..NumStates−1).
	NumStates
)

var stateNames = [NumStates]string{"", "Computing", "I/O", "Communicating", "Collective", "Waiting", "Redundant"}

func (s State) String() string {
	if s == 0 || s >= NumStates {
		return "State(?)"
	}
	return stateNames[s]
}

// Procs names the root processors a charge falls on: all of them, or the
// members of one processor class. It is valid only during the Recorder
// call that receives it.
type Procs struct {
	all     bool
	n       int   // root processors when all
	members []int // or these
	// or the processors p of one class of the engine's: classOf[p] ==
	// class; version changes whenever classOf does.
	classOf []int32
	class   int32
	version ClassVersion
}

// ClassVersion identifies a state of the engine's processor classes: it
// changes whenever a processor changes class or a class is made.
type ClassVersion struct{ Moves, Classes int }

// AllProcs names every one of n root processors.
func AllProcs(n int) Procs { return Procs{all: true, n: n} }

// Members names the given processors, in increasing order; the slice is
// the caller's and must not change during the call that receives it.
func Members(procs []int) Procs { return Procs{members: procs} }

// Class names the processors of class c, classOf giving every
// processor's class; classOf is the caller's and must not change during
// the call that receives it, and version must change whenever classOf
// does. A StatesOnly recorder gets classes this way: Len and Each take a
// pass over every processor, but a recorder that keeps what it computes
// per class until the version changes pays nothing per processor.
func Class(classOf []int32, c int32, version ClassVersion) Procs {
	return Procs{classOf: classOf, class: c, version: version}
}

// All reports whether the charge falls on every root processor.
func (ps Procs) All() bool { return ps.all }

// Len is the number of processors.
func (ps Procs) Len() int {
	switch {
	case ps.all:
		return ps.n
	case ps.classOf != nil:
		n := 0
		for _, c := range ps.classOf {
			if c == ps.class {
				n++
			}
		}
		return n
	}
	return len(ps.members)
}

// Each yields the processors in increasing order.
func (ps Procs) Each() iter.Seq[int] {
	return func(yield func(int) bool) {
		switch {
		case ps.all:
			for p := range ps.n {
				if !yield(p) {
					return
				}
			}
		case ps.classOf != nil:
			for p, c := range ps.classOf {
				if c == ps.class && !yield(p) {
					return
				}
			}
		default:
			for _, p := range ps.members {
				if !yield(p) {
					return
				}
			}
		}
	}
}

// Message is one message the network model timed: sent by From when its
// clock was Send, arrived at To at Arrive (seconds).
type Message struct {
	From, To     int
	Bytes        int64
	Send, Arrive float64
	Op           result.OpClass // the operation that sent it
}

// Recorder receives the events of a simulation (sim/engine calls it) as
// they happen. Charges of one processor arrive in the order of its clock;
// charges of different processors do not arrive in time order.
type Recorder interface {
	// State reports that the processors spent [start, start+dur) in state
	// s (dur > 0, seconds).
	State(s State, who Procs, start, dur float64)
	// Message reports one message.
	Message(m Message)
}

// StatesOnly is a Recorder that ignores messages and keeps time per
// column (Sampler): the engine then keeps its fast paths, which time a
// batch of messages by its end without timing each message, reports the
// states alone, names classes by their index (Class), and sums the charges
// that fall within one column of the recorder's itself (a Tally per class
// and one for every processor), telling the recorder of a charge only when
// it leaves the column: a few operations per charge, no call.
type StatesOnly interface {
	Recorder
	// Window is the column instant t (seconds) falls in, [lo, hi), lo ==
	// hi when t is beyond the recorder's columns: the charges a Tally
	// opened on it may sum.
	Window(t float64) (lo, hi float64)
	// Tallied gives the recorder the time t holds, spent by the processors
	// who (every processor, or a Class: the engine gives a class's tally
	// before the class splits, so the class is the one charged), and
	// empties t.
	Tallied(t *Tally, who Procs)
}

// Tally is the time in each state that some processors spent within one
// column [Lo, Hi) of a StatesOnly recorder's, summed as the engine charges
// it. Its sums are unrounded seconds: the recorder rounds them once, when
// it is given them (Tallied).
type Tally struct {
	On bool
	// Lo and Hi bound the column; Hi ≤ Lo when the tally is not on (Open,
	// the zero Tally), so that a charge that starts at Lo or later and
	// ends by Hi falls within an open tally's column: the engine tests
	// no more.
	Lo, Hi float64
	T      [NumStates]float64
	// End is the end of the last charge summed, 0 for none: the charges
	// of one tally are of the same processors, one after the other.
	End float64
}

// Add adds a charge of dur seconds from start in state s when it falls
// within the column, and reports whether it did: small enough to be
// inlined into the engine's charges.
func (t *Tally) Add(s State, start, dur float64) bool {
	if end := start + dur; t.On && start >= t.Lo && end <= t.Hi {
		t.T[s] += dur
		t.End = end
		return true
	}
	return false
}

// Add2 is Add of two charges one after the other, d1 in state s1 from
// start, then d2 in state s2 (s2 is 0 when d2 is 0): a call's own share of
// CPU time and the share other processors repeat.
func (t *Tally) Add2(s1 State, d1 float64, s2 State, d2 float64, start float64) bool {
	if end := start + d1 + d2; t.On && start >= t.Lo && end <= t.Hi {
		t.T[s1] += d1
		t.T[s2] += d2
		t.End = end
		return true
	}
	return false
}

// AddSums adds the time in each state of charges that fall within the
// column, the last of them ending at end: the caller knows they do.
func (t *Tally) AddSums(sums *[NumStates]float64, end float64) {
	for s := Computing; s < NumStates; s++ {
		t.T[s] += sums[s]
	}
	if end > t.End {
		t.End = end
	}
}

// Open makes t sum the charges within [lo, hi); none when lo == hi. t
// must be empty.
func (t *Tally) Open(lo, hi float64) { t.On, t.Lo, t.Hi = hi > lo, lo, hi }
