package orders

import (
	"encoding/binary"
	"errors"
	"fmt"
	goruntime "runtime"
	"strconv"
	"sync"
)

// An outbox batches the messages one process sends to one subscriber: the
// orders a worker makes and the ones that end, on their way to the
// coordinator; the orders the coordinator starts on a worker and the
// results it sends ahead there. What is put while the previous batch
// leaves goes out as one message (hBatch), so that a burst of fine
// orders costs one message, one wake-up and one system call on each side
// rather than one per order, and a lone message leaves at once, as it
// is. A batch keeps the order its messages were put in, and subscribers
// receive a subject's messages in the order they were sent, so the
// coordinator still hears of an order's making before anything names it.
type outbox struct {
	conn    Conn
	subject string // a batch's
	failed  func(error)

	mu      sync.Mutex
	queue   []*Message
	sending bool // a caller of put sends the queue: the others leave theirs to it
	// leaving is held while a batch leaves: flush waits for the one
	// that left before it.
	leaving sync.Mutex
}

// hBatch marks a message whose data is a batch of messages (putBatch).
const hBatch = "Batch"

// newOutbox returns an outbox of messages to one subscriber through
// conn, whose batches go to subject (which that subscriber receives with
// the messages' own subjects, in one subscription); failed is called
// with the error of a message that could not be sent.
func newOutbox(conn Conn, subject string, failed func(error)) *outbox {
	return &outbox{conn: conn, subject: subject, failed: failed}
}

// put sends m, now when nothing else is being sent, else with the
// messages put meanwhile, as soon as the batch before them has left.
func (b *outbox) put(m *Message) {
	if b.queued(m) {
		b.send()
	}
}

// putSoon sends m from another goroutine, a moment later: an order
// making its children goes on making them meanwhile, and they leave
// together.
func (b *outbox) putSoon(m *Message) {
	if b.queued(m) {
		go func() {
			goruntime.Gosched()
			b.send()
		}()
	}
}

// queued queues m and reports whether the caller must send the queue,
// nobody sending it already.
func (b *outbox) queued(m *Message) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue = append(b.queue, m)
	if b.sending {
		return false
	}
	b.sending = true
	return true
}

// send sends the queue until it is empty.
func (b *outbox) send() {
	for {
		if err := b.flush(); err != nil {
			b.failed(err)
		}
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.sending = false
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
	}
}

// flush sends what is queued now, before it returns: a request that
// names what was put before it is sent after it.
func (b *outbox) flush() error {
	b.leaving.Lock()
	defer b.leaving.Unlock()
	b.mu.Lock()
	q := b.queue
	b.queue = nil
	b.mu.Unlock()
	switch len(q) {
	case 0:
		return nil
	case 1:
		return b.conn.Publish(q[0])
	}
	return b.conn.Publish(&Message{Subject: b.subject, Header: map[string]string{hBatch: strconv.Itoa(len(q))}, Data: putBatch(q)})
}

// putBatch encodes messages, each as its subject, its headers (a count,
// then names and values) and its data, every string and byte slice
// preceded by its length.
func putBatch(ms []*Message) []byte {
	size := 0
	for _, m := range ms {
		size += len(m.Subject) + len(m.Data) + 16
		for k, v := range m.Header {
			size += len(k) + len(v) + 4
		}
	}
	b := make([]byte, 0, size)
	for _, m := range ms {
		b = appendBytes(b, m.Subject)
		b = binary.AppendUvarint(b, uint64(len(m.Header)))
		for k, v := range m.Header {
			b = appendBytes(b, k)
			b = appendBytes(b, v)
		}
		b = appendBytes(b, m.Data)
	}
	return b
}

func appendBytes[T string | []byte](b []byte, s T) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// takeBatch returns the messages of batch m (putBatch); their data
// shares m's.
func takeBatch(m *Message) ([]*Message, error) {
	r := batchReader{b: m.Data}
	var ms []*Message
	for len(r.b) > 0 && r.err == nil {
		subject := string(r.bytes())
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.err = errBatch
			break
		}
		x := &Message{Subject: subject, Header: make(map[string]string, n)}
		for range n {
			k := string(r.bytes())
			x.Header[k] = string(r.bytes())
		}
		x.Data = r.bytes()
		ms = append(ms, x)
	}
	if r.err != nil {
		return nil, fmt.Errorf("orders: a batch on %s: %w", m.Subject, r.err)
	}
	return ms, nil
}

var errBatch = errors.New("truncated")

type batchReader struct {
	b   []byte
	err error
}

func (r *batchReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errBatch
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *batchReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errBatch
		r.b = nil
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// unbatched calls handle with every message m carries: m itself, or
// those of its batch.
func unbatched(m *Message, handle func(*Message)) error {
	if m.Header[hBatch] == "" {
		handle(m)
		return nil
	}
	ms, err := takeBatch(m)
	if err != nil {
		return err
	}
	for _, x := range ms {
		handle(x)
	}
	return nil
}
