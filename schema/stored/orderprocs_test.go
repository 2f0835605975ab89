package stored

import "testing"

func TestSumOrderProcs(t *testing.T) {
	ev := func(id int64, proc string, start, end, wait float64) OrderEvent {
		return OrderEvent{Order: id, Proc: proc, Start: start, End: end, Wait: wait}
	}
	got := SumOrderProcs([]OrderEvent{ev(1, "b", 0, 4, 1), ev(2, "a", 0, 1, 0), ev(3, "a", 1, 4, 0.5)})
	want := []OrderProc{
		{Proc: "a", Orders: 2, Work: 3.5, MeanDuration: 2, SDDuration: 1},
		{Proc: "b", Orders: 1, Work: 3, MeanDuration: 4},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("SumOrderProcs = %+v, want %+v", got, want)
	}
}
