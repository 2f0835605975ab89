package ingest

import (
	"context"
	"io"

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
		toAnalyse, toStore := make(chan []*ordertrace.Order, 4), make(chan []*ordertrace.Order, 4)
		g.Go(func() error { return readBatches(ctx, r, toAnalyse, toStore) })
		var sum workspan.Summary
		g.Go(func() (err error) {
			sum, err = workspan.Analyze(&batchSource{ctx: ctx, batches: toAnalyse, header: r.Header()}, workspan.Network{})
			return err
		})
		g.Go(func() error {
			for {
				batch, ok, err := receive(ctx, toStore)
				if !ok {
					return err
				}
				for _, o := range batch {
					if err := w.Add(o); err != nil {
						return err
					}
				}
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

// readBatches reads r to the end and sends every batch of orders to each
// of outs, which it closes at the end. On an error it returns without
// closing them: the group's context ends, and the receivers see that
// rather than an end that would pass for the trace's.
func readBatches(ctx context.Context, r *ordertrace.Reader, outs ...chan<- []*ordertrace.Order) error {
	for {
		batch := make([]*ordertrace.Order, 0, batchOrders)
		var err error
		for len(batch) < batchOrders {
			var o *ordertrace.Order
			if o, err = r.Next(); err != nil {
				break
			}
			batch = append(batch, o)
		}
		for _, out := range outs {
			select {
			case out <- batch:
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
func receive(ctx context.Context, ch <-chan []*ordertrace.Order) ([]*ordertrace.Order, bool, error) {
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
	batches <-chan []*ordertrace.Order
	batch   []*ordertrace.Order
	header  ordertrace.Header
}

// Header is the trace's, so that the analysis sizes itself by it.
func (s *batchSource) Header() ordertrace.Header { return s.header }

func (s *batchSource) Next() (*ordertrace.Order, error) {
	for len(s.batch) == 0 {
		b, ok, err := receive(s.ctx, s.batches)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, io.EOF
		}
		s.batch = b
	}
	o := s.batch[0]
	s.batch = s.batch[1:]
	return o, nil
}
