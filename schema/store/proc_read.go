package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// procValue is one row of the view interval_proc_values.
type procValue struct {
	interval, proc, char int64
	value                float64
}

// eachProcValue calls fn for every per-processor value of run, in the
// order of interval, processor and characteristic, as the view
// interval_proc_values holds them; it decodes the stored arrays itself,
// which is several times faster than the view and its sort.
func eachProcValue(ctx context.Context, db querier, runID int64, fn func(procValue) error) error {
	classes := map[int64][]int32{} // interval → class of each processor, -1: none
	err := eachQueryRow(ctx, db, `SELECT interval_id, classes FROM interval_proc_classes WHERE run_id = ?`, runID,
		func(iv, _ int64, text []byte) error {
			c, err := decodeClasses(text)
			classes[iv] = c
			return err
		})
	if err != nil {
		return fmt.Errorf("interval_proc_classes: %w", err)
	}
	var (
		cur    int64        = -1
		series []charSeries // of interval cur, by characteristic
	)
	flush := func() error {
		if len(series) == 0 {
			return nil
		}
		return emitProcValues(cur, classes[cur], series, fn)
	}
	err = eachQueryRow(ctx, db, `SELECT interval_id, char_id, vals FROM interval_proc_series WHERE run_id = ? ORDER BY interval_id, char_id`, runID,
		func(iv, char int64, text []byte) error {
			if iv != cur {
				if err := flush(); err != nil {
					return err
				}
				cur, series = iv, series[:0]
			}
			vals, err := decodeSeries(text)
			series = append(series, charSeries{char: char, vals: vals})
			return err
		})
	if err != nil {
		return fmt.Errorf("interval_proc_series: %w", err)
	}
	return flush()
}

// charSeries is the stored array of one characteristic: its values by
// class (or by processor), NaN where none is stored.
type charSeries struct {
	char int64
	vals []float64
}

// emitProcValues calls fn for the values of one interval, processor by
// processor. classes nil: the series are indexed by processor (stores of
// schema 8 and 9).
func emitProcValues(iv int64, classes []int32, series []charSeries, fn func(procValue) error) error {
	procs := len(classes)
	if classes == nil {
		for _, s := range series {
			procs = max(procs, len(s.vals))
		}
	}
	for p := range procs {
		k := p
		if classes != nil {
			if k = int(classes[p]); k < 0 {
				continue
			}
		}
		for _, s := range series {
			if k < len(s.vals) && !math.IsNaN(s.vals[k]) {
				if err := fn(procValue{interval: iv, proc: int64(p), char: s.char, value: s.vals[k]}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// eachQueryRow runs a query of rows (one or two integers, a text) for one
// run and calls fn with them, 0 for a missing second integer.
func eachQueryRow(ctx context.Context, db querier, query string, runID int64, fn func(a, b int64, text []byte) error) error {
	rows, err := db.QueryContext(ctx, query, runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	var a, b int64
	var text []byte
	dest := []any{&a, &text}
	if len(cols) == 3 {
		dest = []any{&a, &b, &text}
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := fn(a, b, text); err != nil {
			return err
		}
	}
	return rows.Err()
}

// decodeClasses reads a JSON array of class numbers or nulls.
func decodeClasses(text []byte) ([]int32, error) {
	var out []int32
	err := eachElement(text, func(e []byte) error {
		if string(e) == "null" {
			out = append(out, -1)
			return nil
		}
		n, err := strconv.ParseInt(string(e), 10, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("class %q: expected a number from 0", e)
		}
		out = append(out, int32(n))
		return nil
	})
	return out, err
}

// decodeSeries reads a JSON array of numbers or nulls (NaN), as
// appendSeries writes it: 9e999 for an infinity.
func decodeSeries(text []byte) ([]float64, error) {
	var out []float64
	err := eachElement(text, func(e []byte) error {
		if string(e) == "null" {
			out = append(out, math.NaN())
			return nil
		}
		v, err := strconv.ParseFloat(string(e), 64)
		if err != nil && !(errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0)) {
			return fmt.Errorf("value %q: expected a number", e)
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// eachElement calls fn with each element of a flat JSON array, trimmed.
func eachElement(text []byte, fn func([]byte) error) error {
	text = bytes.TrimSpace(text)
	if len(text) < 2 || text[0] != '[' || text[len(text)-1] != ']' {
		return fmt.Errorf("expected a JSON array, got %.20q", text)
	}
	body := bytes.TrimSpace(text[1 : len(text)-1])
	if len(body) == 0 {
		return nil
	}
	for len(body) > 0 {
		e, rest, _ := bytes.Cut(body, []byte{','})
		if err := fn(bytes.TrimSpace(e)); err != nil {
			return err
		}
		body = rest
	}
	return nil
}
