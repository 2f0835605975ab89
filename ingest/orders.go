package ingest

import (
	"context"
	"io"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

// OrderTraceName is the name an order trace file is stored under: its
// base name without a .gz and then a .jsonl suffix.
func OrderTraceName(path string) string { return storedName(path, ".gz", ".jsonl") }

// OrderTrace stores the order trace file at path (plain or gzip, docs/orders.md)
// unless a file with the same bytes is stored already, in which case it
// returns that trace with Existing set. The trace is validated as it is
// read (a defective line is an *ordertrace.Error naming file and line),
// its work and span are computed in the same pass, and it is written in
// one transaction: on any error nothing is written.
//
// Reading (parsing and validating), the analysis and the packing are
// three goroutines handed the same batches of orders (which nobody
// modifies), so that the pass goes at the pace of the slowest of them.
func OrderTrace(ctx context.Context, st *store.Store, path string) (store.OrderTraceInfo, error) {
	f, size, digest, err := openHashed(path, sniffJSONLines)
	if err != nil {
		return store.OrderTraceInfo{}, err
	}
	defer f.Close()
	if info, found, err := st.OrderTraceBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	r, err := ordertrace.NewReader(f, path)
	if err != nil {
		return store.OrderTraceInfo{}, err
	}
	info := store.OrderTraceInfo{Name: OrderTraceName(path), Path: path, SHA256: digest, Bytes: size}
	return st.SaveOrderTrace(ctx, info, func(w *store.OrderWriter) (store.OrderTraceInfo, error) {
		g, ctx := errgroup.WithContext(ctx)
		const queued = 4 // batches waiting for each consumer
		toAnalyse, toStore := make(chan *batch, queued), make(chan *batch, queued)
		free := make(chan *batch, 2*queued+3) // every batch the queues and the three goroutines hold
		g.Go(func() error { return readBatches(ctx, r, free, toAnalyse, toStore) })
		var sum workspan.Summary
		g.Go(func() (err error) {
			sum, err = workspan.Analyze(&batchSource{ctx: ctx, batches: toAnalyse}, workspan.Network{})
			return err
		})
		g.Go(func() error {
			for {
				b, ok, err := receive(ctx, toStore)
				if !ok {
					return err
				}
				for i := range b.orders {
					if err := w.Add(&b.orders[i]); err != nil {
						return err
					}
				}
				b.release()
			}
		})
		if err := g.Wait(); err != nil {
			return info, err
		}
		h := r.Header()
		info.Program, info.Unit, info.Machine = h.Program, h.Unit, h.Machine
		info.OrderCost, info.WaitCost, info.Slowdown = h.OrderCost, h.WaitCost, h.Slowdown
		info.Orders, info.Work, info.Span = sum.Orders, sum.Work, sum.Span
		return info, nil
	})
}

// batchOrders is the number of orders handed over at once.
const batchOrders = 1024

// batch is orders read together and handed to every consumer. The last
// consumer done with it gives it back to the reader, which reads the next
// orders into the same Orders and lists rather than into fresh memory,
// whose every page costs a fault (docs/orders.md, "The stored form").
type batch struct {
	orders []ordertrace.Order
	users  atomic.Int32
	free   chan<- *batch
}

// release is called by each consumer once it is done with b's orders.
func (b *batch) release() {
	if b.users.Add(-1) == 0 {
		select {
		case b.free <- b:
		default: // the free list is full: b is garbage
		}
	}
}

// readBatches reads r to the end and sends every batch of orders to each
// of outs, which it closes at the end, reusing the batches given back to
// free. On an error it returns without closing outs: the group's context
// ends, and the receivers see that rather than an end that would pass
// for the trace's.
func readBatches(ctx context.Context, r *ordertrace.Reader, free chan *batch, outs ...chan<- *batch) error {
	for {
		var b *batch
		select {
		case b = <-free:
		default:
			b = &batch{orders: make([]ordertrace.Order, batchOrders), free: free}
		}
		b.orders = b.orders[:batchOrders]
		n, err := 0, error(nil)
		for ; n < batchOrders; n++ {
			if err = r.Scan(&b.orders[n]); err != nil {
				break
			}
		}
		b.orders = b.orders[:n]
		b.users.Store(int32(len(outs)))
		for _, out := range outs {
			select {
			case out <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err == io.EOF {
			for _, out := range outs {
				close(out)
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// receive returns the next batch of ch, false at its end, or ctx's error.
func receive(ctx context.Context, ch <-chan *batch) (*batch, bool, error) {
	select {
	case b, ok := <-ch:
		return b, ok, nil
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

// batchSource yields the orders of the batches it receives.
type batchSource struct {
	ctx     context.Context
	batches <-chan *batch
	batch   *batch
	next    int // the batch's order Next returns next
}

// Next returns the batch's next order, valid until the following call
// (workspan.Analyze keeps nothing of an order once it reads the next).
func (s *batchSource) Next() (*ordertrace.Order, error) {
	for s.batch == nil || s.next == len(s.batch.orders) {
		if s.batch != nil {
			s.batch.release()
			s.batch = nil
		}
		b, ok, err := receive(s.ctx, s.batches)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, io.EOF
		}
		s.batch, s.next = b, 0
	}
	s.next++
	return &s.batch.orders[s.next-1], nil
}
