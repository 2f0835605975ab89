package table

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jmoiron/sqlx"
)

// Stream reads the table's rows of one sweep from db and hands them to fn
// in record batches of at most batchRows rows (DefaultBatchRows if <= 0).
// Only one batch is in memory at a time: fn must not keep the record after
// it returns (Retain it if it must). It returns the number of rows read.
func Stream(ctx context.Context, db *sqlx.DB, t Table, sweepID int64, batchRows int,
	fn func(arrow.RecordBatch) error) (int64, error) {
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	if t.fast != nil {
		return t.fast(ctx, db, t, sweepID, batchRows, fn)
	}
	return streamView(ctx, db, t, sweepID, batchRows, fn)
}

// streamFunc streams a table's rows of one sweep in record batches.
type streamFunc func(ctx context.Context, db *sqlx.DB, t Table, sweepID int64, batchRows int, fn func(arrow.RecordBatch) error) (int64, error)

// streamView streams the rows of the table's view.
func streamView(ctx context.Context, db *sqlx.DB, t Table, sweepID int64, batchRows int,
	fn func(arrow.RecordBatch) error) (int64, error) {
	rows, err := db.QueryContext(ctx, t.Query(), sweepID)
	if err != nil {
		return 0, fmt.Errorf("table %s: %w", t.Name, err)
	}
	defer rows.Close()

	bt := newBatcher(t, sweepID, batchRows, fn)
	defer bt.release()
	s := newScanner(t, bt.b)
	for rows.Next() {
		if err := rows.Scan(s.dest...); err != nil {
			return bt.total, fmt.Errorf("table %s: row %d: %w", t.Name, bt.total+1, err)
		}
		if err := s.append(); err != nil {
			return bt.total, fmt.Errorf("table %s: row %d: %w", t.Name, bt.total+1, err)
		}
		if err := bt.added(); err != nil {
			return bt.total, err
		}
	}
	if err := rows.Err(); err != nil {
		return bt.total, fmt.Errorf("table %s: %w", t.Name, err)
	}
	return bt.total, bt.flush()
}

// scanner moves one SQL row into the record builder's columns.
type scanner struct {
	dest    []any
	appends []func() error
}

func newScanner(t Table, b *array.RecordBuilder) *scanner {
	s := &scanner{dest: make([]any, len(t.Columns)), appends: make([]func() error, len(t.Columns))}
	for i, c := range t.Columns {
		c := c
		null := func() error {
			if !c.Nullable {
				return fmt.Errorf("column %s: unexpected NULL", c.Name)
			}
			b.Field(i).AppendNull()
			return nil
		}
		switch c.Kind {
		case Int64:
			v, fb := new(sql.NullInt64), b.Field(i).(*array.Int64Builder)
			s.dest[i] = v
			s.appends[i] = func() error {
				if !v.Valid {
					return null()
				}
				fb.Append(v.Int64)
				return nil
			}
		case Float64:
			v, fb := new(sql.NullFloat64), b.Field(i).(*array.Float64Builder)
			s.dest[i] = v
			s.appends[i] = func() error {
				if !v.Valid {
					return null()
				}
				fb.Append(v.Float64)
				return nil
			}
		default:
			v, fb := new(sql.NullString), b.Field(i).(*array.StringBuilder)
			s.dest[i] = v
			s.appends[i] = func() error {
				if !v.Valid {
					return null()
				}
				fb.Append(v.String)
				return nil
			}
		}
	}
	return s
}

func (s *scanner) append() error {
	for _, f := range s.appends {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}
