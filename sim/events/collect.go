package events

import (
	"math"

	"github.com/presage-dvm/presage/sim/result"
)

// Span is one processor in one state from Begin to End (nanoseconds of
// simulated time, End > Begin).
type Span struct {
	Proc       int
	State      State
	Begin, End int64
}

// MessageSpan is one message in nanoseconds of simulated time: sent by
// From at Send, arrived at To at Arrive (Arrive ≥ Send).
type MessageSpan struct {
	From, To     int
	Bytes        int64
	Send, Arrive int64
	Op           result.OpClass
}

// Sink receives a timeline. Spans of one processor arrive in time order
// and never overlap; spans of different processors and messages arrive
// in simulation order, not in time order. Close is called once at the
// end with the time of the last event.
type Sink interface {
	Span(s Span) error
	Message(m MessageSpan) error
	Close(end int64) error
}

// Collector is the Recorder of a timeline: it rounds the engine's
// charges to nanoseconds, merges a processor's consecutive charges of one
// state into one span, and hands spans and messages to its sinks.
type Collector struct {
	sinks []Sink
	open  []Span // the span every processor is in, State 0 when none
	end   int64  // latest end seen
	err   error
	stats Stats
}

// Stats count what a collection saw.
type Stats struct {
	Charges  int64 // state charges the engine reported
	Spans    int64 // spans written after merging
	Messages int64
	Adjusted int64 // charges moved by a nanosecond to start where their processor's last span ended
}

// NewCollector returns a collector for procs processors writing to sinks.
func NewCollector(procs int, sinks ...Sink) *Collector {
	return &Collector{sinks: sinks, open: make([]Span, procs)}
}

// ns rounds seconds to nanoseconds. Rounding the ends, not the durations,
// keeps consecutive spans consecutive. From 1 ns to 2⁵² ns, x + 0.5
// truncated is math.Round(x) (x + 0.5 is exact, or rounded up by less
// than half a unit onto the integer above), at a fraction of its cost: the
// sampler rounds every charge.
func ns(s float64) int64 {
	if x := s * 1e9; x >= 1 && x < 1<<52 {
		return int64(x + 0.5)
	}
	return int64(math.Round(s * 1e9))
}

// State implements Recorder.
func (c *Collector) State(s State, who Procs, start, dur float64) {
	c.stats.Charges++
	b, e := ns(start), ns(start+dur)
	for p := range who.Each() {
		c.charge(p, s, b, e)
	}
}

func (c *Collector) charge(p int, s State, b, e int64) {
	o := &c.open[p]
	// A charge starts where the processor's last one ended: the model's
	// clocks have no gaps. Rounding the two ends of the same instant,
	// computed in different orders, may still give two nanoseconds a
	// step apart; the span then starts where the last one ended.
	if o.State != 0 && b != o.End && b-o.End <= 1 {
		c.stats.Adjusted++
		b = o.End
	}
	if e <= b {
		return // shorter than a nanosecond
	}
	if o.State == s && b == o.End {
		o.End = e
		return
	}
	c.flush(p)
	*o = Span{Proc: p, State: s, Begin: b, End: e}
}

// flush writes processor p's open span.
func (c *Collector) flush(p int) {
	o := c.open[p]
	if o.State == 0 {
		return
	}
	c.end = max(c.end, o.End)
	c.stats.Spans++
	for _, k := range c.sinks {
		if err := k.Span(o); err != nil && c.err == nil {
			c.err = err
		}
	}
	c.open[p].State = 0
}

// Message implements Recorder.
func (c *Collector) Message(m Message) {
	c.stats.Messages++
	msg := MessageSpan{From: m.From, To: m.To, Bytes: m.Bytes, Send: ns(m.Send), Arrive: ns(m.Arrive), Op: m.Op}
	c.end = max(c.end, msg.Arrive)
	for _, k := range c.sinks {
		if err := k.Message(msg); err != nil && c.err == nil {
			c.err = err
		}
	}
}

// Close writes the open spans and closes the sinks; it returns the first
// error of any sink.
func (c *Collector) Close() (Stats, error) {
	for p := range c.open {
		c.flush(p)
	}
	for _, k := range c.sinks {
		if err := k.Close(c.end); err != nil && c.err == nil {
			c.err = err
		}
	}
	return c.stats, c.err
}
