package events

import "math"

// Sample is a timeline reduced to a grid of bounded size for a picture:
// some processors (rows, evenly spread over the grid when there are more
// than the picture can show) and equal time buckets (columns), each
// holding the state its processor spent most of the bucket in. It is
// small (a byte per cell) and stored with a predicted run, so that the
// run report draws it without simulating again.
type Sample struct {
	Procs  []int     // the processor of every row
	Total  int       // processors of the grid
	Bucket int64     // nanoseconds per column
	End    int64     // end of the last charge or message
	States [][]State // per row and column: the dominant state, 0 for none
	// Mixes, per row and column, is how the processor shared the column
	// between the states; nil in samples stored before it was kept.
	Mixes [][]Mix
	// Rows of processors charged alike may share their States and Mixes
	// slices (Sampler.Sample): read them, do not change them.
}

// Mix is how a processor spent one column of a Sample: the share of each
// state (Mix[s], s ≥ 1), in 255ths of the column, rounded; what is left
// is time in no state (a processor that finished early).
type Mix [NumStates]uint8

// mix returns the shares of the cell's states in a bucket of width w.
func (c *cell) mix(w int64) Mix {
	var m Mix
	for s := State(1); s < NumStates; s++ {
		m[s] = uint8(min(255, (c[s]*255+w/2)/w))
	}
	return m
}

// cell is the time (ns) a processor spent in each state in one bucket.
type cell [NumStates]int64

// dominant is the state the processor spent most of the bucket in, 0
// when it spent none of it in any; a tie goes to the first state.
func (c *cell) dominant() State {
	best := State(0)
	for s := State(1); s < NumStates; s++ {
		if c[s] > c[best] || (best == 0 && c[s] > 0) {
			best = s
		}
	}
	return best
}

// Sampler is the Recorder that makes a Sample while a run is simulated.
// It costs a few operations per charge whatever the grid: the engine
// charges classes of identical processors at once (Class), and the
// sampler keeps one row of buckets per group of sampled processors
// charged alike so far (a group splits when a charge falls on some of its
// processors only), not one per processor; consecutive charges of a group
// in one state are added to its buckets at once; and the engine gives it
// the charges within one column summed (Tallied), telling it of a charge
// alone only when the charge leaves the column. It needs no horizon:
// when a charge ends past the last column, the bucket width doubles and
// pairs of columns merge, so the sample always covers the run with at
// most its columns.
type Sampler struct {
	s      Sample
	cols   int
	row    []int32  // row of every processor, -1 when not sampled
	group  []int    // group of every row
	groups [][]cell // per group: the time in each state per bucket, but for charges on every processor
	pend   []span   // per group: the charges not yet in its buckets
	every  []cell   // the charges on every processor, which every row adds to its group's
	evPend span     // the charges on every processor not yet in every
	splits int      // groups made by splitting: a class's groups are stale when it grew
	to     []int    // per group: where its rows of a charge go, -1 before it is seen

	version   ClassVersion // of classes
	classes   []*rowSet    // per class of the engine's: its sampled rows
	classPend []secs       // per class: its charges not yet given to its groups
	classAcc  []acc        // per class: its charges within one column not yet given to its groups
	evAcc     acc          // the charges on every processor within one column not yet in every
	members   rowSet       // the rows of a charge given by a member list
	limit     int64        // Bucket × cols: the end the columns reach
}

// acc is the time in each state of charges that fall within one column
// (col, from lo to hi ns), added to the buckets at once when a charge
// falls elsewhere: the engine charges a class many short stretches in
// alternating states (computing, then the redundant share of the same
// call), a thousand and more per column, and adding each to every group's
// buckets was most of the sampler's cost. The sums are exact (integer
// nanoseconds), so the buckets are the same as when each is added alone.
type acc struct {
	on     bool
	col    int64
	lo, hi int64
	t      cell
}

// add adds the span to a when it falls within a's column, and reports
// whether it did.
func (a *acc) add(p span) bool {
	if a.on && p.b >= a.lo && p.e <= a.hi {
		a.t[p.s] += p.e - p.b
		return true
	}
	return false
}

// start makes a the span's column if the span falls within one column of
// width w, and reports whether it did. a must be empty.
func (a *acc) start(p span, w int64) bool {
	col := p.b / w
	if lo, hi := col*w, (col+1)*w; p.e <= hi {
		*a = acc{on: true, col: col, lo: lo, hi: hi}
		a.t[p.s] = p.e - p.b
		return true
	}
	return false
}

// addTo adds a's time to the row's column, and empties a.
func (a *acc) addTo(row []cell) {
	if !a.on {
		return
	}
	r := &row[a.col]
	for st, v := range a.t {
		r[st] += v
	}
	*a = acc{}
}

// secs is consecutive charges of one state, in seconds as the engine
// charges them: a class's charges are joined before they are rounded.
type secs struct {
	s          State
	start, end float64
}

// JoinGap is how far apart (seconds) two consecutive charges may be and
// still be joined into one: well below the nanosecond a sample rounds to.
const JoinGap = 1e-11

// span is consecutive charges of one state, in nanoseconds: the engine
// charges a processor many short stretches in a row, added to the buckets
// at once.
type span struct {
	s    State
	b, e int64
}

// rowSet is a set of sampled rows (a bit set), and the groups those rows
// are in as of splits (stale when splits changed since).
type rowSet struct {
	rows   []uint64
	groups []int
	splits int
}

func (m *rowSet) has(r int) bool { return m.rows[r/64]&(1<<(r%64)) != 0 }

func (m *rowSet) add(r int32) { m.rows[r/64] |= 1 << (r % 64) }

// reset empties the set for n rows.
func (m *rowSet) reset(n int) {
	m.rows = append(m.rows[:0], make([]uint64, (n+63)/64)...)
	m.splits = -1
}

// NewPictureSampler samples the run report's per-processor picture of a
// run on procs processors: at most 200 processors by 500 time buckets,
// whatever the grid. `presage predict` records it, and a run stored
// without one is replayed into it.
func NewPictureSampler(procs int) *Sampler { return NewSampler(procs, 200, 500) }

// NewSampler samples procs processors into at most maxRows rows and cols
// columns.
func NewSampler(procs, maxRows, cols int) *Sampler {
	rows := min(procs, max(maxRows, 1))
	sm := &Sampler{row: make([]int32, procs), cols: max(cols, 2)}
	for p := range sm.row {
		sm.row[p] = -1
	}
	for r := range rows {
		p := r
		if rows > 1 && rows < procs {
			p = r * (procs - 1) / (rows - 1)
		}
		sm.row[p] = int32(r)
		sm.s.Procs = append(sm.s.Procs, p)
	}
	sm.s.Total, sm.s.Bucket = procs, 1
	sm.limit = int64(sm.cols)
	sm.group = make([]int, rows) // every row in group 0
	sm.groups = [][]cell{make([]cell, sm.cols)}
	sm.pend = []span{{}}
	sm.every = make([]cell, sm.cols)
	return sm
}

// State implements Recorder: it adds the charge to the buckets of the
// groups of the sampled processors it falls on.
func (sm *Sampler) State(s State, who Procs, start, dur float64) {
	if who.classOf != nil {
		// A charge of 2 ns or more ends at a later nanosecond than it
		// starts (for clocks within 10⁶ s of 0, whose rounding errors are
		// a small fraction of a nanosecond): rounding is for the others.
		if !(dur >= 2e-9 && math.Abs(start) < 1e6) && ns(start+dur) <= ns(start) {
			return
		}
		if sm.classes == nil || who.version != sm.version {
			sm.classRows(who)
		} else {
			sm.class(int(who.class))
		}
		sm.chargeClass(int(who.class), s, start, dur)
		return
	}
	b, e := ns(start), ns(start+dur)
	if e <= b {
		return
	}
	sm.reach(e)
	if who.all {
		// Charges on every processor are kept apart, once: as many
		// groups as rows would each take them otherwise.
		if p := &sm.evPend; p.s == s && p.e == b {
			p.e = e
			return
		}
		sm.commitEvery()
		sm.evPend = span{s, b, e}
		return
	}
	sm.charge(sm.groupsOf(who), span{s, b, e})
}

// commitEvery adds the pending charges on every processor to every, or to
// evAcc when they fall within its column.
func (sm *Sampler) commitEvery() {
	p := sm.evPend
	sm.evPend = span{}
	if p.s == 0 || sm.evAcc.add(p) {
		return
	}
	sm.evAcc.addTo(sm.every)
	if !sm.evAcc.start(p, sm.s.Bucket) {
		p.addTo(sm.every, sm.s.Bucket)
	}
}

// pushAll adds what every acc holds to the buckets: before the columns
// widen, the groups split or the classes change.
func (sm *Sampler) pushAll() {
	for c := range sm.classAcc {
		sm.pushClass(c)
	}
	sm.evAcc.addTo(sm.every)
}

// pushClass adds what class c's acc holds to its groups' buckets.
func (sm *Sampler) pushClass(c int) {
	a := &sm.classAcc[c]
	if !a.on {
		return
	}
	for _, g := range sm.classes[c].groups {
		r := &sm.groups[g][a.col]
		for st, v := range a.t {
			r[st] += v
		}
	}
	*a = acc{}
}

// addTo adds the span's time to the buckets of width w it covers.
func (p span) addTo(row []cell, w int64) {
	for t := p.b; t < p.e; {
		col := t / w
		next := min((col+1)*w, p.e)
		row[col][p.s] += next - t
		t = next
	}
}

// chargeClass joins a charge of class c to its pending ones when it
// continues them: consecutive charges of a class in one state are given to
// its groups at once, when it changes state or the classes change.
func (sm *Sampler) chargeClass(c int, s State, start, dur float64) {
	p := &sm.classPend[c]
	if p.s == s && math.Abs(start-p.end) <= JoinGap {
		p.end = start + dur
		return
	}
	if p.s != 0 { // flushClass, its acc's case inline
		var b, e int64 // ns of both ends, inline (see ns)
		if xb, xe := p.start*1e9, p.end*1e9; min(xb, xe) >= 1 && max(xb, xe) < 1<<52 {
			b, e = int64(xb+0.5), int64(xe+0.5)
		} else {
			b, e = ns(p.start), ns(p.end)
		}
		if a := &sm.classAcc[c]; a.on && b >= a.lo && e <= a.hi && sm.classes[c].splits == sm.splits {
			if e > b {
				a.t[p.s] += e - b
				sm.s.End = max(sm.s.End, e)
			}
		} else {
			sm.flushClass(c)
		}
	}
	*p = secs{s, start, start + dur}
}

// flushClass gives class c's pending charges to its groups.
func (sm *Sampler) flushClass(c int) {
	p := sm.classPend[c]
	if p.s == 0 {
		return
	}
	sm.classPend[c] = secs{}
	b, e := ns(p.start), ns(p.end)
	if e <= b {
		return
	}
	if e > sm.limit {
		sm.reach(e)
	} else if e > sm.s.End {
		sm.s.End = e
	}
	m := sm.classes[c]
	if m.splits != sm.splits {
		sm.place(m)
	}
	sp := span{p.s, b, e}
	a := &sm.classAcc[c]
	if a.add(sp) {
		return
	}
	sm.pushClass(c)
	if !a.start(sp, sm.s.Bucket) {
		sm.charge(m.groups, sp)
	}
}

// charge adds a charge to groups: to each group's pending charges when it
// continues them, else in their place (the pending ones go to the
// group's buckets).
func (sm *Sampler) charge(groups []int, c span) {
	s, b, e := c.s, c.b, c.e
	for _, g := range groups {
		p := &sm.pend[g]
		if p.s == s && p.e == b {
			p.e = e
			continue
		}
		sm.flush(g)
		*p = span{s, b, e}
	}
}

// flush adds group g's pending charges to its buckets.
func (sm *Sampler) flush(g int) {
	sm.pend[g].addTo(sm.groups[g], sm.s.Bucket)
	sm.pend[g] = span{}
}

// Message implements Recorder: it only extends the sample's end, a
// picture this small shows no messages: the end of the last message is
// the end of the charge that waited for it. The engine reports none to a
// Sampler (StatesOnly); a Tee of a Sampler and a Collector does.
func (sm *Sampler) Message(m Message) { sm.reach(ns(m.Arrive)) }

// Window implements StatesOnly: the column instant t falls in, by the
// width of the columns now (they may widen before its Tally is given back:
// a column of the width before lies within one of the width after).
func (sm *Sampler) Window(t float64) (lo, hi float64) {
	n := ns(t)
	if n < 0 || n >= sm.limit {
		return 0, 0
	}
	w := sm.s.Bucket
	col := n / w
	return float64(col*w) / 1e9, float64((col+1)*w) / 1e9
}

// Tallied implements StatesOnly: the tally's time, each state's rounded
// to nanoseconds once, goes to the column of the rows of who (to every's
// when who is every processor). It is added to the buckets straight away:
// the sums need no order, and a group only ever splits, so the rows of
// who's class are in who's groups now.
func (sm *Sampler) Tallied(t *Tally, who Procs) {
	if !t.On {
		return
	}
	var add cell
	for s, v := range t.T {
		if v > 0 {
			add[s] = ns(v)
		}
	}
	lo, end := ns(t.Lo), ns(t.End)
	*t = Tally{}
	if end <= 0 {
		return // nothing was summed
	}
	sm.reach(end)
	col := lo / sm.s.Bucket
	switch {
	case who.all:
		addCell(&sm.every[col], add)
	case who.classOf != nil:
		m := sm.classRows(who)
		if m.splits != sm.splits {
			sm.place(m)
		}
		for _, g := range m.groups {
			addCell(&sm.groups[g][col], add)
		}
	default:
		for _, g := range sm.groupsOf(who) {
			addCell(&sm.groups[g][col], add)
		}
	}
}

// addCell adds v to c.
func addCell(c *cell, v cell) {
	for s, x := range v {
		c[s] += x
	}
}

// groupsOf returns the groups whose rows a charge on a member list falls
// on, found at every charge: the engine names classes by member lists
// only to recorders of messages.
func (sm *Sampler) groupsOf(who Procs) []int {
	m := &sm.members
	m.reset(len(sm.group))
	for _, p := range who.members {
		if p < len(sm.row) && sm.row[p] >= 0 {
			m.add(sm.row[p])
		}
	}
	sm.place(m)
	return m.groups
}

// classRows returns the sampled rows of who's class, computing the rows
// of every class again when the classes changed (their pending charges
// given first to the rows they were charged on).
func (sm *Sampler) classRows(who Procs) *rowSet {
	if sm.classes == nil || who.version != sm.version {
		sm.version = who.version
		for c := range sm.classes {
			sm.flushClass(c)
		}
		sm.pushAll()
		for _, m := range sm.classes {
			m.reset(len(sm.group))
		}
		for r, p := range sm.s.Procs {
			sm.class(int(who.classOf[p])).add(int32(r))
		}
	}
	return sm.class(int(who.class))
}

// class returns the rows of class c, made empty when new.
func (sm *Sampler) class(c int) *rowSet {
	for len(sm.classes) <= c {
		m := &rowSet{}
		m.reset(len(sm.group))
		sm.classes = append(sm.classes, m)
		sm.classPend = append(sm.classPend, secs{})
		sm.classAcc = append(sm.classAcc, acc{})
	}
	return sm.classes[c]
}

// place puts the rows of m in groups of their own: a group whose rows are
// partly in m splits, its rows in m moving to a new group that starts as a
// copy of its buckets and pending charges. It sets m's groups.
func (sm *Sampler) place(m *rowSet) {
	sm.pushAll() // the accs' groups may split
	sm.to = sm.to[:0]
	for range sm.groups {
		sm.to = append(sm.to, -1)
	}
	whole := make([]bool, len(sm.groups)) // every row of the group is in m
	for g := range whole {
		whole[g] = true
	}
	for r, g := range sm.group {
		if !m.has(r) {
			whole[g] = false
		}
	}
	m.groups = m.groups[:0]
	for r, g := range sm.group {
		if !m.has(r) {
			continue
		}
		if sm.to[g] < 0 {
			sm.to[g] = g
			if !whole[g] {
				sm.to[g] = len(sm.groups)
				sm.groups = append(sm.groups, append([]cell(nil), sm.groups[g]...))
				sm.pend = append(sm.pend, sm.pend[g])
				sm.splits++
			}
			m.groups = append(m.groups, sm.to[g])
		}
		sm.group[r] = sm.to[g]
	}
	m.splits = sm.splits
}

// reach widens the buckets until time t fits.
func (sm *Sampler) reach(t int64) {
	sm.s.End = max(sm.s.End, t)
	if t > sm.limit {
		sm.pushAll() // the accs' columns are of the width before
	}
	for t > sm.limit {
		for _, row := range sm.groups {
			halve(row)
		}
		halve(sm.every)
		sm.s.Bucket *= 2
		sm.limit = sm.s.Bucket * int64(sm.cols)
	}
}

// halve merges the row's columns pairwise into its first half, the second
// half emptied: the buckets of twice the width.
func halve(row []cell) {
	for c := range row {
		var m cell
		if 2*c < len(row) {
			m = row[2*c]
			if 2*c+1 < len(row) {
				for s := range m {
					m[s] += row[2*c+1][s]
				}
			}
		}
		row[c] = m
	}
}

// Sample returns the sample of what was recorded: the dominant state of
// every bucket of every row, up to the end.
func (sm *Sampler) Sample() *Sample {
	for c := range sm.classes {
		sm.flushClass(c)
	}
	sm.commitEvery()
	sm.pushAll()
	for g := range sm.groups {
		sm.flush(g)
	}
	n := min(int((sm.s.End+sm.s.Bucket-1)/sm.s.Bucket), sm.cols)
	s := sm.s
	s.States = make([][]State, len(sm.group))
	s.Mixes = make([][]Mix, len(sm.group))
	// Rows of one group are alike: each group's row is made once (a
	// picture of 200 rows may have a handful of groups) and shared by the
	// group's rows, which no reader changes.
	states, mixes := make([][]State, len(sm.groups)), make([][]Mix, len(sm.groups))
	for r, g := range sm.group {
		if states[g] == nil {
			states[g], mixes[g] = sm.groupRow(g, n)
		}
		s.States[r], s.Mixes[r] = states[g], mixes[g]
	}
	return &s
}

// groupRow returns the first n columns of group g's row, the time on every
// processor added: each column's dominant state and its mix.
func (sm *Sampler) groupRow(g, n int) ([]State, []Mix) {
	states, mixes := make([]State, n), make([]Mix, n)
	for c := range n {
		sum := sm.groups[g][c]
		for st, v := range sm.every[c] {
			sum[st] += v
		}
		states[c] = sum.dominant()
		mixes[c] = sum.mix(sm.s.Bucket)
	}
	return states, mixes
}
