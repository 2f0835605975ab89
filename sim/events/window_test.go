package events

import (
	"reflect"
	"testing"
)

// record is a Sink that keeps what it receives.
type record struct {
	spans []Span
	msgs  []MessageSpan
	end   int64
}

func (r *record) Span(s Span) error           { r.spans = append(r.spans, s); return nil }
func (r *record) Message(m MessageSpan) error { r.msgs = append(r.msgs, m); return nil }
func (r *record) Close(end int64) error       { r.end = end; return nil }

func TestWindow(t *testing.T) {
	spans := []Span{{Proc: 0, State: 1, Begin: 0, End: 10}, {Proc: 1, State: 1, Begin: 5, End: 25}, {Proc: 0, State: 2, Begin: 10, End: 30},
		{Proc: 2, State: 1, Begin: 40, End: 50}}
	msgs := []MessageSpan{{From: 0, To: 1, Send: 12, Arrive: 14}, {From: 2, To: 3, Send: 15, Arrive: 16}, {From: 0, To: 1, Send: 18, Arrive: 35}}
	for _, tc := range []struct {
		name               string
		w                  Window
		spans              []Span
		msgs               []MessageSpan
		end, outside, over int64
	}{
		{"everything", Window{}, spans, msgs, 50, 0, 0},
		{"a window cuts the spans at its edges", Window{From: 8, To: 20},
			[]Span{{Proc: 0, State: 1, Begin: 8, End: 10}, {Proc: 1, State: 1, Begin: 8, End: 20}, {Proc: 0, State: 2, Begin: 10, End: 20}},
			msgs[:2], 20, 2, 0},
		{"processors kept, messages touching them", Window{Keep: func(p int) bool { return p == 1 }},
			[]Span{spans[1]}, []MessageSpan{msgs[0], msgs[2]}, 50, 4, 0},
		{"a bound in simulation order", Window{Max: 3}, spans[:3], nil, 50, 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got record
			w := tc.w
			w.Next = &got
			for _, s := range spans {
				w.Span(s)
			}
			for _, m := range msgs {
				w.Message(m)
			}
			w.Close(50)
			if !reflect.DeepEqual(got.spans, tc.spans) || !reflect.DeepEqual(got.msgs, tc.msgs) || got.end != tc.end {
				t.Errorf("got %v %v end %d\nwant %v %v end %d", got.spans, got.msgs, got.end, tc.spans, tc.msgs, tc.end)
			}
			if w.Outside != tc.outside || w.Over != tc.over || w.Kept != int64(len(tc.spans)+len(tc.msgs)) {
				t.Errorf("kept %d, outside %d, over %d; want %d, %d, %d", w.Kept, w.Outside, w.Over, len(tc.spans)+len(tc.msgs), tc.outside, tc.over)
			}
		})
	}
}
