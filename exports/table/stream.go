package table

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/presage-dvm/presage/schema/stored"
	"golang.org/x/sync/errgroup"
)

// Source is what the exports read: the sweeps to export and the rows of
// each table, one sweep at a time. *store.Store is one.
type Source interface {
	ExportSweeps(ctx context.Context, only int64) ([]int64, error)
	RunRows(ctx context.Context, sweepID int64, fn func(*stored.RunRow) error) error
	IntervalRows(ctx context.Context, sweepID int64, fn func(*stored.IntervalRow) error) error
	ValueRows(ctx context.Context, sweepID int64, fn func(*stored.ValueRow) error) error
	WideRows(ctx context.Context, sweepID int64, fn func(*stored.WideRow) error) error
}

// Stream reads the table's rows of one sweep from src and hands them to fn
// in record batches of at most batchRows rows (DefaultBatchRows if <= 0).
// fn runs in a goroutine of its own, one batch at a time, while the next
// batch is read: writing a batch (encoding, compressing) costs about as
// much as reading it, so on two cores the export takes the longer of the
// two rather than their sum. fn must not keep the record after it returns
// (Retain it if it must). Stream returns the number of rows read.
func Stream(ctx context.Context, src Source, t Table, sweepID int64, batchRows int,
	fn func(arrow.RecordBatch) error) (int64, error) {
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	g, ctx := errgroup.WithContext(ctx)
	batches := make(chan arrow.RecordBatch, 1)
	g.Go(func() error {
		for rec := range batches {
			err := fn(rec)
			rec.Release()
			if err != nil {
				for rec := range batches { // unblock the reader, which stops on ctx
					rec.Release()
				}
				return err
			}
		}
		return nil
	})
	bt := newBatcher(t, sweepID, batchRows, func(rec arrow.RecordBatch) error {
		rec.Retain()
		select {
		case batches <- rec:
			return nil
		case <-ctx.Done():
			rec.Release()
			return ctx.Err()
		}
	})
	defer bt.release()
	g.Go(func() error {
		defer close(batches)
		if err := t.stream(ctx, src, t, sweepID, bt); err != nil {
			return err
		}
		return bt.flush()
	})
	if err := g.Wait(); err != nil {
		return bt.total, fmt.Errorf("table %s: %w", t.Name, err)
	}
	return bt.total, nil
}

// streamFunc reads a table's rows of one sweep into the batcher.
type streamFunc func(ctx context.Context, src Source, t Table, sweepID int64, bt *batcher) error

// appender appends one column of a row of type R to its builder.
type appender[R any] func(b array.Builder, r *R)

// streamRows makes the streamFunc of the tables whose rows, of type R,
// rows reads: each column is appended by the field of fields of its name.
func streamRows[R any](rows func(Source, context.Context, int64, func(*R) error) error,
	fields map[string]appender[R]) streamFunc {
	return func(ctx context.Context, src Source, t Table, sweepID int64, bt *batcher) error {
		appends := make([]appender[R], len(t.Columns))
		for i, c := range t.Columns {
			if appends[i] = fields[c.Name]; appends[i] == nil {
				return fmt.Errorf("no source for column %s", c.Name)
			}
		}
		return rows(src, ctx, sweepID, func(r *R) error {
			for i, f := range appends {
				f(bt.b.Field(i), r)
			}
			return bt.added()
		})
	}
}

// lift makes the fields of a part P of rows R (the run of a value, say)
// fields of R.
func lift[R, P any](fields map[string]appender[P], part func(*R) *P) map[string]appender[R] {
	out := make(map[string]appender[R], len(fields))
	for name, f := range fields {
		out[name] = func(b array.Builder, r *R) { f(b, part(r)) }
	}
	return out
}

// merge combines field maps; the first map naming a column wins.
func merge[R any](maps ...map[string]appender[R]) map[string]appender[R] {
	out := map[string]appender[R]{}
	for i := len(maps) - 1; i >= 0; i-- {
		for name, f := range maps[i] {
			out[name] = f
		}
	}
	return out
}
