package events

// Window is a Sink that passes on to Next the part of a timeline a person
// asked for: the spans within [From, To) (cut at its edges) and the
// messages sent and arrived within it, of the processors Keep accepts,
// and at most Max of them in all, in the order the simulation gives them
// (not time order: past the bound, what is dropped is what came later in
// the simulation). It counts what it leaves out, so that the export can
// say so: a timeline of millions of events is more than a browser opens.
type Window struct {
	Next     Sink
	From, To int64            // nanoseconds; To 0: to the end
	Keep     func(p int) bool // nil: every processor
	Max      int64            // spans and messages passed on at most; 0: no bound

	Kept    int64 // spans and messages passed on
	Outside int64 // outside the window or of processors not kept
	Over    int64 // left out past Max
}

// Span implements Sink.
func (w *Window) Span(s Span) error {
	s.Begin, s.End = max(s.Begin, w.From), w.cut(s.End)
	if s.Begin >= s.End || !w.keeps(s.Proc) {
		w.Outside++
		return nil
	}
	if !w.room() {
		return nil
	}
	return w.Next.Span(s)
}

// Message implements Sink.
func (w *Window) Message(m MessageSpan) error {
	if m.Send < w.From || w.cut(m.Arrive) < m.Arrive || !w.keeps(m.From) && !w.keeps(m.To) {
		w.Outside++
		return nil
	}
	if !w.room() {
		return nil
	}
	return w.Next.Message(m)
}

// Close implements Sink.
func (w *Window) Close(end int64) error { return w.Next.Close(w.cut(end)) }

// Dropped is what the window left out.
func (w *Window) Dropped() int64 { return w.Outside + w.Over }

func (w *Window) cut(t int64) int64 {
	if w.To > 0 {
		return min(t, w.To)
	}
	return t
}

func (w *Window) keeps(p int) bool { return w.Keep == nil || w.Keep(p) }

// room reports whether one more event fits, counting it.
func (w *Window) room() bool {
	if w.Max > 0 && w.Kept >= w.Max {
		w.Over++
		return false
	}
	w.Kept++
	return true
}
