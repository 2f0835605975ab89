package orders

import (
	"testing"
)

// TestCoresStartAhead: a worker process holds a start sent ahead while
// its core is busy, starts it the moment the core frees (naming it in the
// end of the order before it, or telling the coordinator at a release),
// starts at once one that finds its core free, and gives back one still
// held when asked.
func TestCoresStartAhead(t *testing.T) {
	c := newCores()
	ran := make(chan string, 8)
	run := func(m *Message) { ran <- m.Header[hOrder] }
	var told []string
	tell := func(m *Message) { told = append(told, m.Subject+" "+m.Header[hOrder]) }
	start := func(order string, queued bool) *Message {
		m := message("node", nil, hOrder, order, hExec, 1, hSlot, 0)
		if queued {
			m.Header[hQueued] = "true"
		}
		return m
	}
	c.start(start("1", false), run, tell)
	if got := <-ran; got != "1" {
		t.Fatalf("ran %s, want 1", got)
	}
	c.start(start("2", true), run, tell) // behind 1
	c.start(start("3", true), run, tell) // behind 2
	var next string
	c.free(0, func(n string) { next = n }, tell, run) // 1 ends
	if got := <-ran; got != "2" || next != "2/1" {
		t.Errorf("1 ended: ran %s, its end named %q; want 2, \"2/1\"", got, next)
	}
	held := false
	c.takeBack(0, "3", "1", func(h bool) { held = h })
	if !held {
		t.Error("3 was queued when asked back: want it given back")
	}
	c.takeBack(0, "2", "1", func(h bool) { held = h })
	if held {
		t.Error("2 had started when asked back: want it kept")
	}
	c.free(0, nil, tell, run) // 2 waits: the core is released, nothing is queued
	c.start(start("4", true), run, tell)
	if got := <-ran; got != "4" || len(told) != 1 || told[0] != subjectBegan+" 4" {
		t.Errorf("4 came to a free core: ran %s, told %q; want 4, and the coordinator told it began", got, told)
	}
}
