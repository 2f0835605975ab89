package ingest

import (
	"context"

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
		// The analysis pulls the orders; each is stored on its way.
		sum, err := workspan.Analyze(&storingSource{ctx: ctx, src: r, w: w}, workspan.Network{})
		if err != nil {
			return info, err
		}
		h := r.Header()
		info.Program, info.Unit, info.Machine = h.Program, h.Unit, h.Machine
		info.Orders, info.Work, info.Span = sum.Orders, sum.Work, sum.Span
		return info, nil
	})
}

// storingSource hands every order it yields to the store's writer.
type storingSource struct {
	ctx context.Context
	src ordertrace.Source
	w   *store.OrderWriter
}

func (s *storingSource) Next() (*ordertrace.Order, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	o, err := s.src.Next()
	if err != nil {
		return nil, err
	}
	return o, s.w.Add(o)
}
