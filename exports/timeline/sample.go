package timeline

import "github.com/presage-dvm/presage/sim/engine"

// Sample is a timeline reduced to a grid of bounded size for a picture:
// some processors (rows, evenly spread over the grid when there are more
// than the picture can show) and equal time buckets (columns), each
// holding how long its processor spent in each state during the bucket.
type Sample struct {
	Procs  []int // the processor of every row
	Total  int   // processors of the grid
	Bucket int64 // nanoseconds per column
	End    int64 // end of the last span or message
	Cells  [][]Cell
}

// Cell is the time (ns) a processor spent in each state in one bucket.
type Cell [engine.NumStates]int64

// Dominant is the state the processor spent most of the bucket in, 0
// when it spent none of it in any.
func (c *Cell) Dominant() engine.State {
	best := engine.State(0)
	for s := engine.State(1); s < engine.NumStates; s++ {
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
	s    Sample
	row  []int32 // row of every processor, -1 when not shown
	cols int
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
	sm.s.Cells = make([][]Cell, rows)
	for r := range sm.s.Cells {
		sm.s.Cells[r] = make([]Cell, sm.cols)
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
	row, w := sm.s.Cells[r], sm.s.Bucket
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
func (sm *Sampler) Message(m Message) error {
	sm.reach(m.Arrive)
	return nil
}

// reach widens the buckets until time t fits.
func (sm *Sampler) reach(t int64) {
	sm.s.End = max(sm.s.End, t)
	for t > sm.s.Bucket*int64(sm.cols) {
		for _, row := range sm.s.Cells {
			for c := range sm.cols {
				var m Cell
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

// Close trims the columns after the end.
func (sm *Sampler) Close(end int64) error {
	sm.reach(end)
	n := int((sm.s.End + sm.s.Bucket - 1) / sm.s.Bucket)
	for r := range sm.s.Cells {
		sm.s.Cells[r] = sm.s.Cells[r][:min(n, sm.cols)]
	}
	return nil
}

// Sample returns the sample; valid after Close.
func (sm *Sampler) Sample() *Sample { return &sm.s }
