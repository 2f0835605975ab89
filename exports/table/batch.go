package table

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// batcher cuts the rows appended to a record builder into record batches
// of size rows and hands each to fn.
type batcher struct {
	b       *array.RecordBuilder
	columns []Column
	size    int
	pending int
	total   int64
	fn      func(arrow.RecordBatch) error
}

func newBatcher(t Table, sweepID int64, size int, fn func(arrow.RecordBatch) error) *batcher {
	return &batcher{b: array.NewRecordBuilder(memory.DefaultAllocator, t.ArrowSchema(sweepID)),
		columns: t.Columns, size: size, fn: fn}
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
	if err := bt.checkNulls(); err != nil {
		return err
	}
	rec := bt.b.NewRecordBatch()
	defer rec.Release()
	bt.pending = 0
	return bt.fn(rec)
}

func (bt *batcher) release() { bt.b.Release() }

// checkNulls refuses a NULL in a column that is not nullable: the rows
// read do not fit the table's definition. (Checking once per batch keeps
// the per-value appends free of tests.)
func (bt *batcher) checkNulls() error {
	for i, c := range bt.columns {
		if !c.Nullable && bt.b.Field(i).NullN() > 0 {
			first := bt.total - int64(bt.pending) + 1
			return fmt.Errorf("column %s: unexpected NULL in rows %d to %d", c.Name, first, bt.total)
		}
	}
	return nil
}
