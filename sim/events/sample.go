package events

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
	End    int64     // end of the last span or message
	States [][]State // per row and column: the dominant state, 0 for none
}

// cell is the time (ns) a processor spent in each state in one bucket.
type cell [NumStates]int64

// dominant is the state the processor spent most of the bucket in, 0
// when it spent none of it in any.
func (c *cell) dominant() State {
	best := State(0)
	for s := State(1); s < NumStates; s++ {
		if c[s] > c[best] || (best == 0 && c[s] > 0) {
			best = s
		}
	}
	return best
}

// Sampler is the Sink that makes a Sample. It needs no horizon: when a
// span ends past the last column, the bucket width doubles and pairs of
// columns merge, so the sample always covers the run with at most its
// columns.
type Sampler struct {
	s     Sample
	cells [][]cell // per row and column: the time in each state
	row   []int32  // row of every processor, -1 when not shown
	cols  int
}

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
	sm.cells = make([][]cell, rows)
	for r := range sm.cells {
		sm.cells[r] = make([]cell, sm.cols)
	}
	return sm
}

// Span adds the span's time to the buckets it covers.
func (sm *Sampler) Span(s Span) error {
	sm.reach(s.End)
	r := sm.row[s.Proc]
	if r < 0 {
		return nil
	}
	row, w := sm.cells[r], sm.s.Bucket
	for t := s.Begin; t < s.End; {
		col := t / w
		next := min((col+1)*w, s.End)
		row[col][s.State] += next - t
		t = next
	}
	return nil
}

// Message only extends the sample's end: a picture this small shows no
// messages.
func (sm *Sampler) Message(m MessageSpan) error {
	sm.reach(m.Arrive)
	return nil
}

// reach widens the buckets until time t fits.
func (sm *Sampler) reach(t int64) {
	sm.s.End = max(sm.s.End, t)
	for t > sm.s.Bucket*int64(sm.cols) {
		for _, row := range sm.cells {
			for c := range sm.cols {
				var m cell
				if 2*c < sm.cols {
					m = row[2*c]
					if 2*c+1 < sm.cols {
						for s := range m {
							m[s] += row[2*c+1][s]
						}
					}
				}
				row[c] = m
			}
		}
		sm.s.Bucket *= 2
	}
}

// Close keeps the dominant state of every bucket up to the end.
func (sm *Sampler) Close(end int64) error {
	sm.reach(end)
	n := min(int((sm.s.End+sm.s.Bucket-1)/sm.s.Bucket), sm.cols)
	sm.s.States = make([][]State, len(sm.cells))
	for r, row := range sm.cells {
		sm.s.States[r] = make([]State, n)
		for c := range n {
			sm.s.States[r][c] = row[c].dominant()
		}
	}
	return nil
}

// Sample returns the sample; valid after Close.
func (sm *Sampler) Sample() *Sample { return &sm.s }
