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
// classes changed; for a StatesOnly one, the time charged within the
// current column of its picture, per class and on every processor, not
// given to it yet (tallies), and the time charged on every processor at
// once not yet added to them (uniform).
type recorder struct {
	r        events.Recorder
	messages bool              // the recorder wants every message (not events.StatesOnly)
	states   events.StatesOnly // r when it is one
	// kindStates is the state of a charge of each kind: an entry of
	// kindStates, [1] inside MPSSynchronize (syncing).
	kindStates *[nKinds]events.State
	// repeated is the share of the CPU time charged that is repeated work
	// (markRepeated), 0 for none.
	repeated float64
	moves    int // classes.moves when members was built
	members  [][]int
	// classes sums the charges on each class, one tally per class (every
	// processor's while there is one), given to the recorder before a
	// class splits: the clocks parting and folding back change no tally.
	// A recorder of messages has them too, never open, so that a charge
	// never falls within one.
	classes []events.Tally
	// mark is, per class, its clk up to which its own charges are in its
	// tally or reported: the rest, clk − mark, is user time of its loops
	// not summed yet (userLater), after every charge summed.
	mark []float64
	uni  uniform
}

// uniform is, for a StatesOnly recorder, the time charged on every
// processor at once (clkU advanced: chargeUniformCall, addAll) since the
// tallies were last given it (flushUniform): every class's clock advanced
// as much, within the column of its tally while clkU stays at most to, so
// that such a charge costs a few additions, not one per class, and a
// regular call none. The tallies get it before one of them is given,
// before a charge on every processor that does not fit, and before a
// class splits; it stays when the clocks fold into clkU (folded).
type uniform struct {
	on   bool
	from float64 // clkU when the first charge was summed
	to   float64 // −Inf: to be found again (refreshUniform)
	// f is the share of repeated work of the regular calls summed
	// implicitly, as the part of clkU's advance sum does not hold: NaN
	// before the first.
	f   float64
	t   [events.NumStates]float64 // the other charges' time in each state
	sum float64                   // the other charges' time
}

// folded keeps the time charged on every processor across a fold of the
// clocks into clkU (mpsSync), which moved clkU by jump: the sums stay,
// for every class's clock stays where it was, but the jump is no regular
// call's.
func (r *recorder) folded(jump float64) {
	if r.uni.on {
		r.uni.from += jump
	}
	// Every class's clock, clkU + clk[c] before, is clkU after: each
	// class's limit (its column's end less clk[c]) moved by the jump, and
	// its user time not summed yet is what it was, now −mark.
	r.uni.to += jump
	for c := range r.mark {
		r.mark[c] -= jump
	}
}

// emptyUniform is a uniform with nothing summed and no limit known.
func emptyUniform() uniform { return uniform{to: math.Inf(-1), f: math.NaN()} }

// recordsMessages reports whether every message must be timed and
// reported one by one: the batch fast paths time only a batch's end.
func (e *Engine) recordsMessages() bool { return e.rec != nil && e.rec.messages }

// stateOf is the state a clock-advancing charge of kind k puts a
// processor in.
func (e *Engine) stateOf(k Kind) events.State { return e.rec.kindStates[k] }

// kindStates is stateOf by kind, outside MPSSynchronize ([0]) and inside
// it ([1], where a wait is events.Waiting), read through pointers to its
// entries (internal/arch's GlobalState: read only).
//
//arch:readonly
var kindStates = func() (t [2][nKinds]events.State) {
	for syncing := range t {
		for k := range Kind(nKinds) {
			switch {
			case k == KUsr || k == KSys:
				t[syncing][k] = events.Computing
			case k == KIOTime:
				t[syncing][k] = events.InputOutput
			case syncing == 1:
				t[syncing][k] = events.Waiting
			case k == KWaitReduct:
				t[syncing][k] = events.Collective
			default:
				t[syncing][k] = events.Communicating
			}
		}
	}
	return t
}()

// syncing says whether the charges from now on are MPSSynchronize's.
func (e *Engine) syncing(on bool) {
	if on {
		e.rec.kindStates = &kindStates[1]
	} else {
		e.rec.kindStates = &kindStates[0]
	}
}

// markRepeated says that a share f of the CPU time charged from now on is
// work another processor does too: of n processors repeating it, f =
// (n−1)/n is insufficient parallelism. 0 ends it.
func (e *Engine) markRepeated(f float64) {
	if e.rec != nil {
		e.rec.repeated = f
	}
}

// userLater reports whether a loop's user time on a class is summed when
// the class's tally is next used (settle), not charge by charge
// (chargeUser): for a StatesOnly recorder, while no work is repeated.
func (r *recorder) userLater() bool { return r.repeated == 0 && !r.messages }

// recordUser reports user time t on class c (chargeUser), before the
// class's clock advances, without userLater: as any other charge.
func (e *Engine) recordUser(c int32, t float64) {
	if !e.tallyClass(events.Computing, c, t) { // KUsr's state
		e.recordClassAlone(KUsr, c, t)
	}
}

// The split of a charge into the states it is shown in (tallyClass,
// recordAll): CPU time of which a share f is repeated work is Computing
// for d·(1−f), then Redundant for the rest (the insufficient parallelism
// the model counts); any other charge is one state.

// tallyClass adds a charge in state s (stateOf its kind) on class c,
// before the charge is applied to the class's clock, to the class's
// tally, and reports whether it did: when the charge falls within the
// tally's column, the most frequent case, in a few operations (a tally
// that is not on has Hi ≤ Lo: no charge falls within it).
// recordClassAlone reports the others.
func (e *Engine) tallyClass(s events.State, c int32, d float64) bool {
	r := e.rec
	t := &r.classes[c]
	clk := e.clk[c]
	start := e.clkU + clk
	end := start + d
	if start < t.Lo || end > t.Hi || !(d > 0) {
		return false
	}
	// The class's user time not summed yet came before start, within the
	// column since the tally opened after the last settle.
	t.T[events.Computing] += clk - r.mark[c]
	r.mark[c] = clk + d
	own := r.own(s, d)
	t.T[s] += own
	t.T[events.Redundant] += d - own // 0 but for repeated work
	t.End = end
	if to := t.Hi - (clk + d); to < r.uni.to {
		r.uni.to = to // limitUniform, t being on
	}
	return true
}

// own is the part of a charge of d in state s that is not repeated work:
// parts' d·(1−f) of CPU time, all of any other charge (d·(1−0) is d).
func (r *recorder) own(s events.State, d float64) float64 {
	if s == events.Computing {
		return d * (1 - r.repeated)
	}
	return d
}

// limitUniform keeps the time charged on every processor at once within
// the column of tally t, of a class whose clock is clkU + clk.
func (r *recorder) limitUniform(t *events.Tally, clk float64) {
	if !t.On {
		r.uni.to = math.Inf(-1)
	} else if to := t.Hi - clk; to < r.uni.to {
		r.uni.to = to
	}
}

// recordClassAlone reports a charge of kind k on class c that tallyClass
// did not take.
func (e *Engine) recordClassAlone(k Kind, c int32, d float64) {
	if !(d > 0) {
		return
	}
	e.recordClassFrom(k, c, e.classClock(c), d)
	if r := e.rec; !r.messages {
		r.mark[c] = e.clk[c] + d
		r.limitUniform(&r.classes[c], e.clk[c]+d)
	}
}

// settle sums the user time of class c not summed yet (userLater), before
// anything else of the class is reported or its tally given: within the
// tally's column what falls there, the rest reported as one state and
// the tally opened where the class's clock is. What falls within the
// column: all of it while the class's clock is there; else every charge
// since the last settle came before the clock left the column (the
// charges on every processor and the class's other charges test the
// column, userLater's charges do not), so the user time within the
// column is its end less clkU less mark (the other charges' time moved
// mark past them).
func (e *Engine) settle(c int32) {
	r := e.rec
	if r.messages {
		return
	}
	clk := e.clk[c]
	pending := clk - r.mark[c]
	if !(pending > 0) {
		return
	}
	t := &r.classes[c]
	now := e.clkU + clk
	if t.On && now <= t.Hi {
		t.T[events.Computing] += pending
		t.End = max(t.End, now)
		r.mark[c] = clk
		return
	}
	within := 0.0
	if t.On {
		within = min(pending, max(0, t.Hi-e.clkU-r.mark[c]))
		t.T[events.Computing] += within
		t.End = max(t.End, t.Hi)
	}
	r.mark[c] = clk
	e.tallyMiss(t, e.classProcs(c), events.Computing, now-(pending-within), pending-within)
}

// recordClassFrom reports a charge of kind k on class c from start.
func (e *Engine) recordClassFrom(k Kind, c int32, start, d float64) {
	e.settle(c)
	s1, d1, s2, d2 := e.parts(k, d)
	if e.rec.classes[c].Add2(s1, d1, s2, d2, start) {
		return // never for a recorder of messages: its tallies are closed
	}
	if d1 > 0 {
		e.stateOfClass(s1, c, start, d1)
	}
	if d2 > 0 {
		e.stateOfClass(s2, c, start+d1, d2)
	}
}

// parts splits a charge of kind k and duration d into the states it is
// shown in: CPU time of which a share f is repeated work is Computing for
// d·(1−f), then Redundant for the rest (the insufficient parallelism the
// model counts); any other charge is one state (s2 = 0, d2 = 0).
func (e *Engine) parts(k Kind, d float64) (s1 events.State, d1 float64, s2 events.State, d2 float64) {
	s1 = e.stateOf(k)
	if f := e.rec.repeated; f > 0 && s1 == events.Computing {
		own := d * (1 - f)
		return s1, own, events.Redundant, d - own
	}
	return s1, d, 0, 0
}

// stateOfClass reports that class c spent [start, start+d) in state s.
func (e *Engine) stateOfClass(s events.State, c int32, start, d float64) {
	e.settle(c)
	switch t := &e.rec.classes[c]; {
	case e.rec.messages:
		e.rec.r.State(s, e.classProcs(c), start, d)
	case !t.Add(s, start, d):
		e.tallyMiss(t, e.classProcs(c), s, start, d)
	}
}

// tallyMiss is a charge of who that leaves the column of its tally t (the
// charges within it are added to t where they are made, events.Tally.Add):
// it gives t to the recorder, reports the charge and opens t on the column
// where the charge ends.
func (e *Engine) tallyMiss(t *events.Tally, who events.Procs, s events.State, start, d float64) {
	e.flushUniform()
	st := e.rec.states
	st.Tallied(t, who)
	st.State(s, who, start, d)
	t.Open(st.Window(start + d))
}

// giveClassTallies gives the tallies of the classes to a StatesOnly
// recorder: at the end, and before a class splits (newClassFrom), so that
// a tally names its processors as they were charged.
func (e *Engine) giveClassTallies() {
	for c := range int32(e.classes.count()) {
		e.settle(c)
	}
	e.flushUniform()
	r := e.rec
	for c := range r.classes {
		if r.classes[c].On {
			r.states.Tallied(&r.classes[c], e.classProcs(int32(c)))
		}
	}
}

// recordAll reports a charge of kind k on every root processor, before
// the common clock advances, that sumUniform did not take: summed with
// the other charges on every processor when it fits, else on each class
// from the class's own clock.
func (e *Engine) recordAll(k Kind, d float64) {
	if !(d > 0) {
		return
	}
	if e.clkU+d <= e.rec.uni.to || e.refreshUniform(d) {
		e.openUniform()
		e.rec.sumUniform(k, e.clkU, d)
		return
	}
	e.flushUniform()
	e.recordAllAt(k, 0, d)
}

// sumUniform sums a charge of kind k on every processor with those
// summed since the last flush, when some are and it fits (uniform), and
// reports whether it did: recordAll's most frequent case, small enough to
// be inlined into the charge (addAll).
func (r *recorder) sumUniform(k Kind, clkU, d float64) bool {
	u, s := &r.uni, r.kindStates[k]
	if !(clkU+d <= u.to) || !u.on || !(d > 0) {
		return false
	}
	own := r.own(s, d)
	u.t[s] += own
	u.t[events.Redundant] += d - own // 0 but for repeated work
	u.sum += d
	return true
}

// openUniform starts summing the charges on every processor from clkU,
// unless it has.
func (e *Engine) openUniform() {
	if u := &e.rec.uni; !u.on {
		u.on, u.from = true, e.clkU
	}
}

// refreshUniform finds again how far clkU may go with the charges on
// every processor summed (uniform.to: every class's clock within its
// tally's column), and reports whether a charge of d from clkU does: it
// is called when the limit known was passed, or is to be found (−Inf);
// never true for a recorder of messages.
func (e *Engine) refreshUniform(d float64) bool {
	r := e.rec
	if r.messages {
		return false
	}
	to := math.Inf(1)
	for c, clk := range e.clk {
		t := &r.classes[c]
		if !t.On || e.clkU+clk < t.Lo {
			return false
		}
		to = min(to, t.Hi-clk)
	}
	r.uni.to = to
	return e.clkU+d <= to
}

// flushUniform adds the time charged on every processor and not given yet
// to the tallies: every processor's, or every class's when the clocks
// differ. The regular calls summed implicitly are clkU's advance that the
// other charges do not account for.
func (e *Engine) flushUniform() {
	r := e.rec
	u := &r.uni
	if !u.on {
		return
	}
	if f := u.f; !math.IsNaN(f) {
		if reg := e.clkU - u.from - u.sum; reg > 0 {
			own := reg * (1 - f) // parts(KUsr, reg) of a regular call
			u.t[events.Computing] += own
			u.t[events.Redundant] += reg - own
		}
	}
	for c, clk := range e.clk {
		// A class's clock is past its column when its user time not
		// summed yet took it there (settle): the sums end within it.
		t := &r.classes[c]
		t.AddSums(&u.t, min(e.clkU+clk, t.Hi))
	}
	u.on, u.f, u.t, u.sum = false, math.NaN(), [events.NumStates]float64{}, 0 // the limit stays
}

// recordAllAt is recordAll of a charge from offset at of the clocks.
func (e *Engine) recordAllAt(k Kind, at, d float64) {
	s1, d1, s2, d2 := e.parts(k, d)
	if e.rec.messages {
		e.recordAllState(s1, at, d1)
		e.recordAllState(s2, at+d1, d2)
		return
	}
	ts := e.rec.classes
	for c, clk := range e.clk {
		if start := e.clkU + clk + at; !ts[c].Add2(s1, d1, s2, d2, start) {
			if d1 > 0 {
				e.stateOfClass(s1, int32(c), start, d1)
			}
			if d2 > 0 {
				e.stateOfClass(s2, int32(c), start+d1, d2)
			}
		}
	}
}

// recordRegular reports the charges of chargeUniformCall, before the
// clock advances: c of user time, then r of system time, the share f of
// both repeated work. For a StatesOnly recorder they are added to the
// tallies as one charge where the whole of it falls within their column —
// the most frequent charge of a trace, the same time in each state — and
// reported as the two charges they are elsewhere.
func (e *Engine) recordRegular(c, r, f float64) {
	d := c + r
	if !(d > 0) {
		return
	}
	if u := &e.rec.uni; e.clkU+d <= u.to || e.refreshUniform(d) {
		e.openUniform()
		switch {
		case f == u.f:
		case math.IsNaN(u.f): // the first regular call summed
			u.f = f
		default: // another share: summed explicitly
			own := d * (1 - f) // parts(KUsr, d) of a regular call
			u.t[events.Computing] += own
			u.t[events.Redundant] += d - own
			u.sum += d
		}
		return
	}
	e.flushUniform()
	e.rec.repeated = f // for parts
	e.recordRegularAlone(c, r, d, f)
	e.rec.repeated = 0
}

// recordRegularAlone is recordRegular of a call of d seconds, c of user
// time then r of system time, not summed with the charges on every
// processor.
func (e *Engine) recordRegularAlone(c, r, d, f float64) {
	if e.rec.messages {
		e.recordAllParts(c, r)
		return
	}
	own := d * (1 - f) // parts(KUsr, d) of a regular call
	e.recordRegularClasses(c, r, own, d-own)
}

// recordRegularClasses reports a regular call's charges, c of user time
// then r of system time, own of them Computing and rep Redundant, on
// every class.
func (e *Engine) recordRegularClasses(c, r, own, rep float64) {
	ts := e.rec.classes
	for cl, clk := range e.clk {
		if start := e.clkU + clk; !ts[cl].Add2(events.Computing, own, events.Redundant, rep, start) {
			if c > 0 {
				e.recordClassFrom(KUsr, int32(cl), start, c)
			}
			if r > 0 {
				e.recordClassFrom(KSys, int32(cl), start+c, r)
			}
		}
	}
}

// recordAllParts reports c of user time, then r of system time, on every
// root processor.
func (e *Engine) recordAllParts(c, r float64) {
	if c > 0 {
		e.recordAllAt(KUsr, 0, c)
	}
	if r > 0 {
		e.recordAllAt(KSys, c, r)
	}
}

// recordAllState reports d in state s on every root processor from offset
// at of their clocks, the charges a tally did not take: nothing when d is
// 0.
func (e *Engine) recordAllState(s events.State, at, d float64) {
	if d <= 0 {
		return
	}
	for c := range int32(e.classes.count()) {
		e.stateOfClass(s, c, e.classClock(c)+at, d)
	}
}

// classVersion identifies the current state of the classes.
func (e *Engine) classVersion() events.ClassVersion {
	return events.ClassVersion{Moves: e.classes.moves, Classes: e.classes.count()}
}

// flushAll gives a StatesOnly recorder the time not given to it yet: at
// the end of the simulation.
func (e *Engine) flushAll() {
	if r := e.rec; !r.messages {
		e.giveClassTallies()
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
