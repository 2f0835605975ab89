package orders

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// recordingConn is a Conn that keeps what is published; while block is
// set, Publish waits on it, as a send does while the network is busy.
type recordingConn struct {
	mu    sync.Mutex
	sent  []*Message
	block chan struct{}
	err   error
}

func (c *recordingConn) Publish(m *Message) error {
	if c.block != nil {
		<-c.block
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, m)
	return c.err
}

func (c *recordingConn) Request(context.Context, *Message) (*Message, error) {
	return nil, errors.New("not used")
}

func (c *recordingConn) Subscribe(string, func(*Message)) (func() error, error) {
	return nil, errors.New("not used")
}
func (c *recordingConn) NewInbox() string { return "inbox" }
func (c *recordingConn) Flush() error     { return nil }
func (c *recordingConn) Close()           {}

// received returns the messages the subscriber gets from what c sent.
func (c *recordingConn) received(t *testing.T) []*Message {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var got []*Message
	for _, m := range c.sent {
		if err := unbatched(m, func(x *Message) { got = append(got, x) }); err != nil {
			t.Fatal(err)
		}
	}
	return got
}

func TestBatchKeepsEveryMessageAsItWas(t *testing.T) {
	in := []*Message{
		message(subjectMake, []byte("args"), hParent, 7, hExec, 1, hProc, "term"),
		message(subjectDone, nil, hOrder, 8, hExec, 2, hBytes, 0),
		message(subjectDone, []byte{}, hFailed, true),
		{Subject: subjectBeat},
	}
	out, err := takeBatch(&Message{Subject: subjectBatch, Header: map[string]string{hBatch: "4"}, Data: putBatch(in)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("%d messages out of %d", len(out), len(in))
	}
	for i := range in {
		a, b := in[i], out[i]
		if a.Subject != b.Subject || string(a.Data) != string(b.Data) || fmt.Sprint(a.Header) != fmt.Sprint(b.Header) {
			t.Errorf("message %d: %+v, want %+v", i, b, a)
		}
	}
}

func TestTruncatedBatchIsAnError(t *testing.T) {
	b := putBatch([]*Message{message(subjectMake, []byte("arguments"), hParent, 1)})
	for _, cut := range []int{1, len(b) / 2, len(b) - 1} {
		if _, err := takeBatch(&Message{Subject: subjectBatch, Data: b[:cut]}); err == nil {
			t.Errorf("a batch cut at %d of %d bytes read without an error", cut, len(b))
		}
	}
}

// TestOutboxBatchesWhatWaits: a lone message leaves at once, as it is;
// those put while it leaves go together, in the order they were put.
func TestOutboxBatchesWhatWaits(t *testing.T) {
	conn := &recordingConn{block: make(chan struct{})}
	b := newOutbox(conn, subjectBatch, func(err error) { t.Error(err) })
	first := make(chan struct{})
	go func() {
		b.put(message(subjectDone, nil, hOrder, 1))
		close(first)
	}()
	// The first is leaving (blocked in Publish): these wait for it.
	for id := 2; id <= 5; id++ {
		for !queuedBehind(b, id-2) {
		}
		b.put(message(subjectDone, nil, hOrder, id))
	}
	close(conn.block)
	<-first
	var ids []string
	for _, m := range conn.received(t) {
		ids = append(ids, m.Header[hOrder])
	}
	if conn.mu.Lock(); len(conn.sent) != 2 || conn.sent[0].Header[hBatch] != "" || conn.sent[1].Header[hBatch] != "4" {
		t.Errorf("sent %d messages (%v); want the first alone, then a batch of 4", len(conn.sent), conn.sent)
	}
	conn.mu.Unlock()
	if want := []string{"1", "2", "3", "4", "5"}; !slices.Equal(ids, want) {
		t.Errorf("received orders %v, want %v", ids, want)
	}
}

// queuedBehind reports whether n messages wait while one leaves.
func queuedBehind(b *outbox, n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sending && len(b.queue) == n
}

func TestOutboxReportsWhatCannotLeave(t *testing.T) {
	conn := &recordingConn{err: errors.New("connection closed")}
	var got error
	newOutbox(conn, subjectBatch, func(err error) { got = err }).put(message(subjectDone, nil))
	if got == nil || got.Error() != "connection closed" {
		t.Errorf("failed with %v, want the connection's error", got)
	}
}
