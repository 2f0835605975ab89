package engine

import (
	"math"

	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// Recording. The engine keeps no events: it charges durations to clocks.
// An events.Recorder, when one is given (Options.Recorder), is told of every
// charge that advances a clock — which processors, from when, for how long
// and in what state — and of every message the network model times. It
// only reads the engine's state, so a recorded simulation gives the same
// numbers, bit for bit, as an unrecorded one; without a recorder the cost
// is one nil test per charge.

// recorder holds what recording needs besides the Recorder: for a
// recorder of messages, the member lists of the classes, rebuilt when the
// classes changed; for a StatesOnly one, the charge on every processor
// not reported yet.
type recorder struct {
	r        events.Recorder
	messages bool              // the recorder wants every message (not events.StatesOnly)
	states   events.StatesOnly // r when it is one
	syncing  bool              // inside MPSSynchronize: waits are events.Waiting
	// repeated is the share of the CPU time charged that is repeated work
	// (markRepeated), 0 for none.
	repeated float64
	moves    int // classes.moves when members was built
	members  [][]int
	// all is a charge on every processor not reported yet: a StatesOnly
	// recorder gets consecutive charges of one state as one.
	all struct {
		on         bool
		s          events.State
		start, end float64
	}
}

// recordsMessages reports whether every message must be timed and
// reported one by one: the batch fast paths time only a batch's end.
func (e *Engine) recordsMessages() bool { return e.rec != nil && e.rec.messages }

// stateOf is the state a clock-advancing charge of kind k puts a
// processor in.
func (e *Engine) stateOf(k Kind) events.State {
	switch {
	case k == KUsr || k == KSys:
		return events.Computing
	case k == KIOTime:
		return events.InputOutput
	case e.rec.syncing:
		return events.Waiting
	case k == KWaitReduct:
		return events.Collective
	}
	return events.Communicating
}

// markRepeated says that a share f of the CPU time charged from now on is
// work another processor does too: of n processors repeating it, f =
// (n−1)/n is insufficient parallelism. 0 ends it.
func (e *Engine) markRepeated(f float64) {
	if e.rec != nil {
		e.rec.repeated = f
	}
}

// The split of a charge into the states it is shown in (recordClass,
// recordAll): CPU time of which a share f is repeated work is Computing
// for d·(1−f), then Redundant for the rest (the insufficient parallelism
// the model counts); any other charge is one state.

// recordClass reports a charge of kind k on class c, before the charge
// is applied to the class's clock.
func (e *Engine) recordClass(k Kind, c int32, d float64) {
	if d <= 0 {
		return
	}
	e.flushAll()
	s, clk := e.stateOf(k), e.classClock(c)
	if f := e.rec.repeated; f > 0 && s == events.Computing {
		own := d * (1 - f)
		who := e.classProcs(c)
		if own > 0 {
			e.rec.r.State(events.Computing, who, clk, own)
		}
		if d-own > 0 {
			e.rec.r.State(events.Redundant, who, clk+own, d-own)
		}
		return
	}
	e.rec.r.State(s, e.classProcs(c), clk, d)
}

// recordAll reports a charge of kind k on every root processor, before
// the common clock advances.
func (e *Engine) recordAll(k Kind, d float64) {
	if d <= 0 {
		return
	}
	s := e.stateOf(k)
	if f := e.rec.repeated; f > 0 && s == events.Computing {
		own := d * (1 - f)
		if own > 0 {
			e.recordAllState(events.Computing, 0, own)
		}
		if d-own > 0 {
			e.recordAllState(events.Redundant, own, d-own)
		}
		return
	}
	e.recordAllState(s, 0, d)
}

// recordAllState reports d in state s on every root processor from offset
// at of their clocks: once when every clock is the common one, else once
// per class, from the class's own clock.
func (e *Engine) recordAllState(s events.State, at, d float64) {
	if !e.skewed || e.classes.count() == 1 {
		start := e.classClock(0) + at
		if e.rec.messages {
			e.rec.r.State(s, events.AllProcs(e.L), start, d)
			return
		}
		a := &e.rec.all
		if a.on && a.s == s && math.Abs(start-a.end) <= events.JoinGap {
			a.end = start + d
			return
		}
		e.flushAll()
		a.on, a.s, a.start, a.end = true, s, start, start+d
		return
	}
	e.flushAll()
	if !e.rec.messages {
		e.rec.states.StatesOfClasses(s, e.classes.of, e.classVersion(), e.clkU+at, e.clk[:e.classes.count()], d)
		return
	}
	for c := range int32(e.classes.count()) {
		e.rec.r.State(s, e.classProcs(c), e.classClock(c)+at, d)
	}
}

// classVersion identifies the current state of the classes.
func (e *Engine) classVersion() events.ClassVersion {
	return events.ClassVersion{Moves: e.classes.moves, Classes: e.classes.count()}
}

// flushAll reports the pending charge on every processor, if any.
func (e *Engine) flushAll() {
	if a := &e.rec.all; a.on {
		a.on = false
		e.rec.r.State(a.s, events.AllProcs(e.L), a.start, a.end-a.start)
	}
}

// classProcs returns the members of class c.
func (e *Engine) classProcs(c int32) events.Procs {
	if e.classes.count() == 1 {
		return events.AllProcs(e.L)
	}
	rec := e.rec
	if !rec.messages {
		// A StatesOnly recorder (the run report's sampler) keeps what it
		// needs per class: no member lists to build.
		return events.Class(e.classes.of, c, e.classVersion())
	}
	if rec.members == nil || rec.moves != e.classes.moves || len(rec.members) != e.classes.count() {
		rec.members = make([][]int, e.classes.count())
		for p, cl := range e.classes.of {
			rec.members[cl] = append(rec.members[cl], p)
		}
		rec.moves = e.classes.moves
	}
	return events.Members(rec.members[c])
}

// recordBatch reports the messages of a batch send when recording:
// from[i] to to[i], bytes[i] issued at at[i], arrived at end[i].
func (e *Engine) recordBatch(op result.OpClass, from, to []int, bytes []int64, at, end []float64) {
	if !e.recordsMessages() {
		return
	}
	for i := range from {
		e.rec.r.Message(events.Message{From: from[i], To: to[i], Bytes: bytes[i], Send: at[i], Arrive: end[i], Op: op})
	}
}

// recordMessage reports one message when recording.
func (e *Engine) recordMessage(op result.OpClass, from, to int, bytes int64, at, end float64) {
	if e.recordsMessages() {
		e.rec.r.Message(events.Message{From: from, To: to, Bytes: bytes, Send: at, Arrive: end, Op: op})
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
