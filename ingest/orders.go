package ingest

import (
	"context"
	"fmt"
	"io"
	"os"

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
// and it is written in one transaction: on any error nothing is written.
//
// It takes two passes. The first reads the file (parsing and validating)
// while another goroutine packs, counts and stores its orders. The second
// computes the work and span from the stored orders: knowing the counts,
// the analysis keeps only the orders it still needs, where in the first
// pass it would have kept every order to the end (workspan.AnalyzeCounted).
func OrderTrace(ctx context.Context, st *store.Store, path string) (store.OrderTraceInfo, error) {
	return OrderTraceWith(ctx, st, path, OrderTraceOptions{})
}

// OrderTraceOptions are the choices of OrderTraceWith.
type OrderTraceOptions struct {
	// Reading, if not nil, is called now and then in the first pass with
	// the bytes of the file read so far and its size.
	Reading func(done, total int64)
	// Analysing, if not nil, is called now and then in the second pass
	// with the orders analysed so far and their number.
	Analysing func(done, total int64)
}

// OrderTraceWith is OrderTrace with options.
func OrderTraceWith(ctx context.Context, st *store.Store, path string, opt OrderTraceOptions) (store.OrderTraceInfo, error) {
	f, size, err := openSniffed(path, sniffJSONLines)
	if err != nil {
		return store.OrderTraceInfo{}, err
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the digest's goroutine on an error
	digest, stored, err := orderTraceDigest(ctx, st, f, path, size)
	if err != nil || digest == nil {
		return stored, err
	}
	read := &countingReader{r: f, total: size, progress: opt.Reading}
	text, err := inputText(ctx, read, path)
	if err != nil {
		return store.OrderTraceInfo{}, err
	}
	defer text.Close()
	r, err := ordertrace.NewReader(text, path)
	if err != nil {
		return store.OrderTraceInfo{}, err
	}
	info := store.OrderTraceInfo{Name: OrderTraceName(path), Path: path, Bytes: size}
	return st.SaveOrderTrace(ctx, info, func(w *store.OrderWriter) (store.OrderTraceInfo, error) {
		if err := storeOrders(ctx, r, w); err != nil {
			return info, err
		}
		read.report(true)
		h := r.Header()
		info.Program, info.Unit, info.Machine = h.Program, h.Unit, h.Machine
		info.OrderCost, info.WaitCost, info.Slowdown = h.OrderCost, h.WaitCost, h.Slowdown
		r = nil // what the reader holds to validate (a master's pending requests: 320 MB at 10M orders) goes before the analysis
		stored, counts, err := w.Stored()
		if err != nil {
			return info, err
		}
		sum, err := workspan.AnalyzeCounted(counting(stored, counts.Orders(), opt.Analysing), workspan.Network{}, counts)
		if err != nil {
			return info, fmt.Errorf("%s: %w", path, err)
		}
		if info.SHA256, err = digest(); err != nil {
			return info, fmt.Errorf("%s: %w", path, err)
		}
		info.Orders, info.Work, info.Span = sum.Orders, sum.Work, sum.Span
		return info, nil
	})
}

// counting returns src, whose orders number total, calling progress, if
// not nil, every so many orders.
func counting(src ordertrace.Scanner, total int64, progress func(done, total int64)) ordertrace.Scanner {
	if progress == nil {
		return src
	}
	return &countingSource{Scanner: src, total: total, progress: progress}
}

// countingSource is a Scanner that reports the orders scanned.
type countingSource struct {
	ordertrace.Scanner
	n, total int64
	progress func(done, total int64)
}

// reportOrders is how many orders pass between two reports.
const reportOrders = 1 << 16

func (c *countingSource) Scan(o *ordertrace.Order) error {
	err := c.Scanner.Scan(o)
	if c.n++; c.n%reportOrders == 0 || err != nil {
		c.progress(min(c.n, c.total), c.total)
	}
	return err
}

// orderTraceDigest returns a function that returns the sha256 of the
// file f at path, of size bytes; or, when the store holds a trace of the
// same bytes, that trace (Existing set) and no function. Only a stored
// trace of the same size can have the same bytes: then the digest comes
// first, which spares the passes over a file stored already; otherwise a
// goroutine computes it from a file of its own while the passes run (a
// tenth of an ingest's time when it came first).
func orderTraceDigest(ctx context.Context, st *store.Store, f *os.File, path string, size int64) (func() (string, error), store.OrderTraceInfo, error) {
	sameSize, err := st.HasOrderTraceOfSize(ctx, size)
	if err != nil {
		return nil, store.OrderTraceInfo{}, err
	}
	if sameSize {
		digest, err := sumFile(ctx, f, sumReader)
		if err != nil {
			return nil, store.OrderTraceInfo{}, err
		}
		if info, found, err := st.OrderTraceBySHA(ctx, digest); err != nil || found {
			return nil, info, err
		}
		return func() (string, error) { return digest, nil }, store.OrderTraceInfo{}, nil
	}
	var digest string
	var g errgroup.Group
	g.Go(func() error {
		f, _, err := openRegular(path)
		if err != nil {
			return err
		}
		defer f.Close()
		digest, err = sumReader(contextReader{ctx, f})
		return err
	})
	return func() (string, error) { return digest, g.Wait() }, store.OrderTraceInfo{}, nil
}

// storeOrders reads r to the end and adds its orders to w, which packs
// and stores them on a goroutine of its own, so that the pass goes at the
// pace of the slower of the two.
func storeOrders(ctx context.Context, r *ordertrace.Reader, w *store.OrderWriter) error {
	g, ctx := errgroup.WithContext(ctx)
	const queued = 4 // batches read and not stored yet
	full, free := make(chan *batch, queued), make(chan *batch, queued+2)
	g.Go(func() error { return readBatches(ctx, r, free, full) })
	g.Go(func() error {
		for {
			b, ok, err := receive(ctx, full)
			if !ok {
				return err
			}
			for i := range b.orders {
				if err := w.Add(&b.orders[i]); err != nil {
					return err
				}
			}
			select {
			case free <- b:
			default: // the free list is full: b is garbage
			}
		}
	})
	return g.Wait()
}

// batchOrders is the number of orders handed over at once.
const batchOrders = 1024

// batch is orders read together and handed to the packer, which gives it
// back to the reader once it has packed them: the reader reads the next
// orders into the same Orders and lists rather than into fresh memory,
// whose every page costs a fault (docs/orders.md, "The stored form").
type batch struct {
	orders []ordertrace.Order
}

// readBatches reads r to the end and sends its orders to out in batches,
// reusing the batches given back to free, and closes out at the end. On
// an error it returns without closing out: the group's context ends, and
// the receiver sees that rather than an end that would pass for the
// trace's.
func readBatches(ctx context.Context, r *ordertrace.Reader, free <-chan *batch, out chan<- *batch) error {
	for {
		var b *batch
		select {
		case b = <-free:
		default:
			b = &batch{orders: make([]ordertrace.Order, batchOrders)}
		}
		b.orders = b.orders[:batchOrders]
		n, err := 0, error(nil)
		for ; n < batchOrders; n++ {
			if err = r.Scan(&b.orders[n]); err != nil {
				break
			}
		}
		b.orders = b.orders[:n]
		select {
		case out <- b:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err == io.EOF {
			close(out)
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
