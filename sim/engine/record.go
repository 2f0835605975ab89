package engine

import (
	"iter"

	"github.com/presage-dvm/presage/sim/result"
)

// Recording. The engine keeps no events: it charges durations to clocks.
// A Recorder, when one is given (Options.Recorder), is told of every
// charge that advances a clock — which processors, from when, for how long
// and in what state — and of every message the network model times. It
// only reads the engine's state, so a recorded simulation gives the same
// numbers, bit for bit, as an unrecorded one; without a recorder the cost
// is one nil test per charge.

// State is what a processor does during a charged stretch of its clock
// (docs/timeline.md).
type State uint8

const (
	// Computing is user or run-time CPU time (CPU_time_usr, CPU_time_sys),
	// redundant sequential execution included.
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
	// NumStates bounds the states (1..NumStates−1).
	NumStates
)

var stateNames = [NumStates]string{"", "Computing", "I/O", "Communicating", "Collective", "Waiting"}

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
	members []int // otherwise
}

// All reports whether the charge falls on every root processor.
func (ps Procs) All() bool { return ps.all }

// Len is the number of processors.
func (ps Procs) Len() int {
	if ps.all {
		return ps.n
	}
	return len(ps.members)
}

// Each yields the processors in increasing order.
func (ps Procs) Each() iter.Seq[int] {
	return func(yield func(int) bool) {
		if !ps.all {
			for _, p := range ps.members {
				if !yield(p) {
					return
				}
			}
			return
		}
		for p := range ps.n {
			if !yield(p) {
				return
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

// Recorder receives the events of a simulation as they happen. Charges
// of one processor arrive in the order of its clock; charges of different
// processors do not arrive in time order.
type Recorder interface {
	// State reports that the processors spent [start, start+dur) in state
	// s (dur > 0, seconds).
	State(s State, who Procs, start, dur float64)
	// Message reports one message.
	Message(m Message)
}

// recorder holds what recording needs besides the Recorder: the member
// lists of the classes, rebuilt when the classes changed.
type recorder struct {
	r       Recorder
	syncing bool // inside MPSSynchronize: waits are Waiting
	moves   int  // classes.moves when members was built
	members [][]int
}

// stateOf is the state a clock-advancing charge of kind k puts a
// processor in.
func (e *Engine) stateOf(k Kind) State {
	switch {
	case k == KUsr || k == KSys:
		return Computing
	case k == KIOTime:
		return InputOutput
	case e.rec.syncing:
		return Waiting
	case k == KWaitReduct:
		return Collective
	}
	return Communicating
}

// recordClass reports a charge of kind k on class c, before the charge
// is applied to the class's clock.
func (e *Engine) recordClass(k Kind, c int32, d float64) {
	if d <= 0 {
		return
	}
	e.rec.r.State(e.stateOf(k), e.classProcs(c), e.classClock(c), d)
}

// recordAll reports a charge of kind k on every root processor, before
// the common clock advances: once when every clock is the common one,
// else once per class, from the class's own clock.
func (e *Engine) recordAll(k Kind, d float64) {
	if d <= 0 {
		return
	}
	s := e.stateOf(k)
	if !e.skewed || e.classes.count() == 1 {
		e.rec.r.State(s, Procs{all: true, n: e.L}, e.classClock(0), d)
		return
	}
	for c := range int32(e.classes.count()) {
		e.rec.r.State(s, e.classProcs(c), e.classClock(c), d)
	}
}

// classProcs returns the members of class c.
func (e *Engine) classProcs(c int32) Procs {
	if e.classes.count() == 1 {
		return Procs{all: true, n: e.L}
	}
	rec := e.rec
	if rec.members == nil || rec.moves != e.classes.moves || len(rec.members) != e.classes.count() {
		rec.members = make([][]int, e.classes.count())
		for p, cl := range e.classes.of {
			rec.members[cl] = append(rec.members[cl], p)
		}
		rec.moves = e.classes.moves
	}
	return Procs{members: rec.members[c]}
}

// recordBatch reports the messages of a batch send when recording:
// from[i] to to[i], bytes[i] issued at at[i], arrived at end[i].
func (e *Engine) recordBatch(op result.OpClass, from, to []int, bytes []int64, at, end []float64) {
	if e.rec == nil {
		return
	}
	for i := range from {
		e.rec.r.Message(Message{From: from[i], To: to[i], Bytes: bytes[i], Send: at[i], Arrive: end[i], Op: op})
	}
}

// recordMessage reports one message when recording.
func (e *Engine) recordMessage(op result.OpClass, from, to int, bytes int64, at, end float64) {
	if e.rec != nil {
		e.rec.r.Message(Message{From: from, To: to, Bytes: bytes, Send: at, Arrive: end, Op: op})
	}
}

// opOfCall is the operation class of the current call's messages.
func (e *Engine) opOfCall() result.OpClass {
	switch e.op.p.site.kind {
	case fnRealn:
		return result.OpRedistribution
	case fnArrcpy, fnAarrcp, fnCrtrbl, fnCrtrbp, fnLoadrb, fnWaitrb:
		return result.OpRemote
	case fnStrtrd, fnWaitrd:
		return result.OpReduction
	case fnSrmem, fnBiof, fnEiof, fnIOCall:
		return result.OpIO
	}
	return result.OpShadow
}
