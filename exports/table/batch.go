package table

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// batcher cuts the rows appended to a record builder into record batches
// of size rows and hands each to fn.
type batcher struct {
	b       *array.RecordBuilder
	size    int
	pending int
	total   int64
	fn      func(arrow.RecordBatch) error
}

func newBatcher(t Table, sweepID int64, size int, fn func(arrow.RecordBatch) error) *batcher {
	return &batcher{b: array.NewRecordBuilder(memory.DefaultAllocator, t.ArrowSchema(sweepID)), size: size, fn: fn}
}

// added counts a row appended to every field of the builder.
func (bt *batcher) added() error {
	bt.total++
	if bt.pending++; bt.pending < bt.size {
		return nil
	}
	return bt.flush()
}

// flush hands the pending rows over as a batch.
func (bt *batcher) flush() error {
	if bt.pending == 0 {
		return nil
	}
	rec := bt.b.NewRecordBatch()
	defer rec.Release()
	bt.pending = 0
	return bt.fn(rec)
}

func (bt *batcher) release() { bt.b.Release() }
